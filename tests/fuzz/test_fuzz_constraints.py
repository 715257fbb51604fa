"""The plugin's constraints (and the grammatical-error transformation of the ``nucle-*``
recipes, whose output ``MaxGrammarErrorRate`` judges) on hostile questions."""

from __future__ import annotations

from hypothesis import example as explicit_example
from hypothesis import given
from textattack.transformations import Transformation

from textattack_semparse.constraints.max_grammar_error_rate import MaxGrammarErrorRate
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.sql.literals import literal_word_indices, sql_literals
from textattack_semparse.transformations.distraction_suffix import DistractionSuffix
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined

from tests.fuzz.hostile import LONG_EXAMPLE, HostileExample, fuzz_settings, hostile_examples, lost_literals


def test_preserve_literals_protects_every_occurrence(ledger) -> None:
    constraint, transformation, component = PreserveLiterals(), DistractionSuffix(), "constraint:preserve-literals"
    exposed: list[tuple[str, str | None]] = []

    @fuzz_settings(1500)
    @given(example=hostile_examples())
    @explicit_example(example=LONG_EXAMPLE)
    def run(example: HostileExample) -> None:
        text = example.attacked_text()
        modifiable = ledger.run(component, example.question, lambda: constraint(text, transformation), seconds=30)
        if modifiable is not None and example.gold and example.gold.startswith("SELECT"):
            if literal_word_indices(text.words, sql_literals(example.gold)) & modifiable:
                exposed.append((example.question, example.gold))

    run()
    ledger.assert_clean(component)
    assert not exposed, f"literal words left modifiable in {len(exposed)} inputs, e.g. {exposed[:3]}"


def _judge_outputs(ledger, component: str, examples: int, transformation: Transformation, constraint: object) -> None:
    """Run ``constraint`` over ``transformation``'s outputs for hostile questions."""
    lost: list[str] = []

    @fuzz_settings(examples)
    @given(example=hostile_examples())
    @explicit_example(example=LONG_EXAMPLE)
    def run(example: HostileExample) -> None:
        text = example.attacked_text()
        outputs = ledger.run(
            f"{component}:transformation",
            example.question,
            lambda: transformation(text, pre_transformation_constraints=[PreserveLiterals()]),
            seconds=60,
            rejects=example.refused_clearly,
        )
        if outputs is None:
            return
        lost.extend(output.text for output in outputs if lost_literals(text, output, example.gold))
        kept = ledger.run(component, example.question, lambda: constraint.call_many(outputs, text), seconds=60)
        if kept is not None:
            assert all(output in outputs for output in kept)

    run()
    ledger.assert_clean(f"{component}:transformation")
    ledger.assert_clean(component)
    assert not lost, f"{component}: gold literals lost in {len(lost)} outputs, e.g. {lost[:3]}"


def test_max_grammar_error_rate_on_grammar_error_outputs(ledger) -> None:
    _judge_outputs(ledger, "constraint:max-grammar-error-rate", 300, GrammarErrorCombined(), MaxGrammarErrorRate())


def test_sentence_bert_similarity_on_perturbed_questions(ledger) -> None:
    _judge_outputs(ledger, "constraint:sentence-bert-similarity", 150, DistractionSuffix(), SentenceBERTSimilarity())
