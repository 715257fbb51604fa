"""Building test sets on geo-mini with the registered offline perturbations."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

import pytest
from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.errors import RegistryError, ResourceError
from textattack_semparse.judges.judgement import Judgement, Verdict
from textattack_semparse.judges.meaning_judge import MeaningJudge
from textattack_semparse.registry import Entry, get_registry
from textattack_semparse.perturbations.example_perturber import (
    ExamplePerturber,
    check_selection,
    create_perturbation,
    perturb_examples,
)
from textattack_semparse.robustness.build_test_set import build_test_set, dataset_examples
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.robustness.selection_settings import (
    SETTING_PERTURBATION_OPTIONS,
    perturbation_selection,
)
from textattack_semparse.runs.seeding import component_generators
from textattack_semparse.sql.literals import literal_words, sql_literals
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion

OFFLINE = ["insertion", "deletion", "substitution-f", "distraction"]
DATASET = "geo-question-test"
EXAMPLES = 12


@pytest.fixture(scope="module")
def built(geo_mini_env, encoder) -> RobustnessTestSet:
    # No meaning judge: these tests check the selection settings' rules against every output of
    # each operation, which they recompute unjudged (the judge's own tests are under tests/judges).
    return build_test_set(DATASET, OFFLINE, seed=0, limit=EXAMPLES, encoder=encoder, judges=())


RANKED = ["substitution-wordnet", "reordering"]
"""The offline operations the huang-2021 setting ranks by Sentence-BERT (substitution-wordnet
stands in for substitution (nf); back translation needs translation models)."""


RANKED_DATASET = "geo-question-train"
"""Where the ranked operations have a choice to make: first-sense WordNet synonyms and
attachment-keeping reorderings give several outputs for only one of geo-mini's 28 test questions,
for six of its 70 training questions."""


@pytest.fixture(scope="module")
def ranked_built(geo_mini_env, encoder) -> RobustnessTestSet:
    return build_test_set(RANKED_DATASET, RANKED, seed=0, encoder=encoder, judges=())  # no judge: as ``built``


@pytest.fixture(scope="module")
def sentence_bert(encoder):
    """The packaged all-MiniLM-L6-v2 as a sentence-transformers model, used directly (no plugin cache)."""
    return encoder.embeddings.model


def operation_outputs(name: str, examples: list) -> list[list[str]]:
    """Per example, every distinct output of perturbation ``name`` (created as the huang-2021
    setting creates it, seed 0) that differs from the question, with the gold's literals
    protected, in the operation's order; its generator reseeded per example as the build reseeds it."""
    transformation = create_perturbation(name, seed=0, options=SETTING_PERTURBATION_OPTIONS["huang-2021"].get(name))
    per_example = []
    for example_id, example in enumerate(examples):
        for generator in component_generators(transformation):
            generator.seed(f"0:{example_id}")
        text = AttackedText(example.question)
        record_gold_output(text, example.gold)
        outputs = transformation(text, pre_transformation_constraints=[RepeatModification(), PreserveLiterals()])
        per_example.append([output for output in dict.fromkeys(o.text for o in outputs) if output != example.question])
    return per_example


@pytest.fixture()
def unavailable_perturbation() -> Iterator[str]:
    """A registered masked-LM perturbation whose model cannot be had offline."""
    name = "masked-lm-offline"
    entry = Entry(
        kind="perturbation",
        name=name,
        target="textattack_semparse.transformations.masked_lm_content_word_substitution:MaskedLMContentWordSubstitution",
        provider="tests",
        options={"model_name_or_path": "textattack-semparse-tests/no-such-model"},
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(get_registry()._table("perturbation"), name, entry)
        yield name


def contains(words: list[str], phrase: list[str]) -> bool:
    return any(words[i : i + len(phrase)] == phrase for i in range(len(words) - len(phrase) + 1))


def test_the_first_examples_of_the_dataset_are_the_originals(built, geo_mini_env):
    assert list(built.originals) == dataset_examples(DATASET)[:EXAMPLES]
    assert len(dataset_examples(DATASET)) == 28  # geo-mini's question-split test set
    assert built.perturbations == tuple(OFFLINE)


def test_every_perturbed_utterance_differs_from_its_original_and_keeps_its_gold(built):
    for name, items in built.utterances.items():
        assert items, name
        for item in items:
            original = built.originals[item.example_id]
            assert item.perturbation == name
            assert item.original == original.question
            assert item.gold == original.gold
            assert item.perturbed != item.original


def test_literals_of_the_gold_survive_every_perturbation(built):
    checked = 0
    for items in built.utterances.values():
        for item in items:
            original_words = [word.lower() for word in words_from_text(item.original)]
            perturbed_words = [word.lower() for word in words_from_text(item.perturbed)]
            for literal in sql_literals(item.gold):
                phrase = literal_words(literal)
                if phrase and contains(original_words, phrase):
                    assert contains(perturbed_words, phrase), (literal, item.perturbed)
                    checked += 1
    assert checked > 20


def test_huang_setting_selects_per_operation():
    # Huang et al. (2021): one perturbed utterance per example and operation; substitution (nf),
    # back translation and reordering keep the candidate Sentence-BERT ranks highest, the
    # function-word operations a random one.
    assert {name: perturbation_selection("huang-2021", name) for name in get_registry().names("perturbation")} == {
        **{name: (1, 1) for name in get_registry().names("perturbation")},
        "substitution-nf": (None, 1),
        "substitution-wordnet": (None, 1),
        "backtranslation": (None, 1),
        "reordering": (None, 1),
    }
    assert perturbation_selection("zhuo-2023", "reordering") == perturbation_selection("zhuo-2023", "typo") == (20, 10)
    with pytest.raises(ValueError, match="Did you mean 'huang-2021'"):
        perturbation_selection("huang-2012", "reordering")


def test_huang_setting_keeps_the_most_similar_of_all_outputs_of_substitution_and_reordering(ranked_built, sentence_bert):
    # The rule: the kept utterance is the output with the highest Sentence-BERT cosine to the
    # original among all the operation's distinct outputs (cosines computed here, with the model itself).
    from sentence_transformers.util import cos_sim

    checked = 0
    for name in RANKED:
        kept = {item.example_id: item for item in ranked_built.utterances[name]}
        every_output = operation_outputs(name, ranked_built.originals)
        for example_id, (example, outputs) in enumerate(zip(ranked_built.originals, every_output)):
            if not outputs:
                assert example_id not in kept
                continue
            embeddings = sentence_bert.encode([example.question, *outputs], convert_to_tensor=True)
            cosines = cos_sim(embeddings[:1], embeddings[1:])[0].tolist()
            best = max(range(len(outputs)), key=lambda i: cosines[i])
            item = kept[example_id]
            assert item.perturbed in outputs
            assert item.similarity == pytest.approx(cosines[best], abs=1e-4)
            runner_up = max((c for i, c in enumerate(cosines) if i != best), default=-1.0)
            if cosines[best] - runner_up > 1e-4:
                assert item.perturbed == outputs[best], (name, example.question)
            checked += len(outputs) > 1
    assert checked >= 5  # examples where the choice among several outputs was made: 5 on geo-mini
    assert (ranked_built.candidates, ranked_built.keep) == (1, 1)
    assert {name: ranked_built.selection_of(name) for name in RANKED} == {name: (None, 1) for name in RANKED}


def test_huang_setting_keeps_one_random_output_of_the_function_word_operations(built):
    # The function-word operations keep one of all their outputs, drawn with a generator seeded by
    # the seed and the example, whatever its similarity.
    for name in ("insertion", "deletion", "substitution-f"):
        expected = [
            outputs[random.Random(f"0:{example_id}").sample(range(len(outputs)), 1)[0]] if len(outputs) > 1 else outputs[0]
            for example_id, outputs in enumerate(operation_outputs(name, built.originals))
            if outputs
        ]
        assert [item.perturbed for item in built.utterances[name]] == expected
        assert built.selection_of(name) == (1, 1)


def test_huang_setting_keeps_one_utterance_per_example_and_perturbation(built):
    for items in built.utterances.values():
        ids = [item.example_id for item in items]
        assert len(ids) == len(set(ids))
    assert len(built.utterances["insertion"]) == EXAMPLES
    assert (built.candidates, built.keep, built.setting) == (1, 1, "huang-2021")


def test_deletion_deletes_exactly_one_word(built):
    for item in built.utterances["deletion"]:
        assert len(words_from_text(item.perturbed)) == len(words_from_text(item.original)) - 1


def test_examples_without_a_function_word_get_no_deletion(built):
    # The huang-2021 setting deletes any word of Huang et al.'s list (stop words, punctuation).
    deletion = FunctionWordDeletion(word_list="huang-2021")
    no_candidates = set(built.no_candidates()["deletion"])
    for example_id, original in enumerate(built.originals):
        words = words_from_text(original.question)
        literals = {w for literal in sql_literals(original.gold) for w in literal_words(literal)}
        deletable = any(deletion.is_function_word(word) and word.lower() not in literals for word in words)
        assert (example_id in no_candidates) == (not deletable), original.question


def test_huang_setting_gives_the_function_word_perturbations_the_papers_list(geo_mini_env):
    options = SETTING_PERTURBATION_OPTIONS["huang-2021"]
    assert set(options) == {"insertion", "deletion", "substitution-f"}
    for name in options:
        assert create_perturbation(name, seed=0, options=options[name]).word_list == "huang-2021"
    assert create_perturbation("insertion", seed=0, options=options["insertion"]).deterministic
    assert "zhuo-2023" not in SETTING_PERTURBATION_OPTIONS
    assert create_perturbation("insertion", seed=0).word_list is None


def test_huang_setting_deletes_words_the_default_list_keeps(built, encoder):
    # Huang et al.'s list adds its punctuation marks to the default classes' words it holds; a mark
    # the default list keeps is deleted under the huang-2021 setting (no geo-mini test question has
    # one, so the first is given a question mark).
    huang = FunctionWordDeletion(word_list="huang-2021")
    deleted = set()
    for item in built.utterances["deletion"]:
        original, perturbed = words_from_text(item.original), words_from_text(item.perturbed)
        (word,) = [w for p, w in enumerate(original) if original[:p] + original[p + 1 :] == perturbed][:1]
        assert huang.is_function_word(word)
        deleted.add(word)
    assert deleted
    example = built.originals[0]
    asked = dataclasses.replace(example, question=f"{example.question} ?")
    setting = create_perturbation("deletion", seed=0, options=SETTING_PERTURBATION_OPTIONS["huang-2021"]["deletion"])
    outputs = {
        name: {item.perturbed for item in perturb_examples([asked], transformation, perturbation="deletion",
                                                             candidates=None, keep=None, encoder=encoder)}
        for name, transformation in (("huang-2021", setting), ("default", FunctionWordDeletion()))
    }
    assert outputs["huang-2021"] - outputs["default"] == {example.question}


def test_options_a_perturbation_does_not_take_are_left_out(geo_mini_env):
    deletion = create_perturbation("deletion", seed=0, options={"max_candidates_per_position": None})
    assert isinstance(deletion, FunctionWordDeletion)


def test_files_and_manifest_are_written(built, tmp_path):
    built.write(tmp_path)
    assert {path.name for path in tmp_path.iterdir()} == {"manifest.json", "originals.jsonl", *(f"{n}.jsonl" for n in OFFLINE)}
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["dataset"] == DATASET
    assert manifest["seed"] == 0
    assert manifest["examples"] == EXAMPLES
    for name in OFFLINE:
        lines = (tmp_path / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        assert manifest["counts"][name]["utterances"] == len(lines)
        assert manifest["counts"][name]["examples"] + len(manifest["no_candidates"][name]) == EXAMPLES
    assert manifest["unperturbed_examples"] == built.unperturbed_examples() == []


def test_same_seed_gives_the_same_test_set_and_another_seed_another(geo_mini_env, encoder):
    first = build_test_set(DATASET, ["insertion", "substitution-f"], seed=7, limit=5, encoder=encoder)
    again = build_test_set(DATASET, ["insertion", "substitution-f"], seed=7, limit=5, encoder=encoder)
    other = build_test_set(DATASET, ["insertion", "substitution-f"], seed=8, limit=5, encoder=encoder)
    assert dict(first.utterances) == dict(again.utterances)
    assert first.manifest() == again.manifest()
    assert first.utterances["insertion"] != other.utterances["insertion"]


def test_seed_is_passed_to_perturbations_that_take_one(geo_mini_env):
    assert create_perturbation("insertion", seed=5).seed == 5
    assert create_perturbation("deletion", seed=5).seed is None  # FunctionWordDeletion takes no seed


def test_zhuo_setting_keeps_the_most_similar_of_the_sampled_candidates(geo_mini_env, encoder):
    examples = dataset_examples(DATASET, limit=2)
    items = perturb_examples(
        examples, create_perturbation("insertion", seed=0), perturbation="insertion", candidates=20, keep=10, encoder=encoder
    )
    for example_id in range(2):
        kept = [item for item in items if item.example_id == example_id]
        assert len(kept) == 10
        assert len({item.perturbed for item in kept}) == 10
        similarities = [item.similarity for item in kept]
        assert similarities == sorted(similarities, reverse=True)


def test_keep_all_candidates_without_ranking_returns_each_distinct_output(geo_mini_env):
    examples = dataset_examples(DATASET, limit=3)
    items = perturb_examples(examples, FunctionWordDeletion(), perturbation="deletion", candidates=None, keep=None)
    expected = []
    for example_id, example in enumerate(examples):
        text = AttackedText(example.question)
        record_gold_output(text, example.gold)
        outputs = FunctionWordDeletion()(text, pre_transformation_constraints=[RepeatModification(), PreserveLiterals()])
        expected.extend((example_id, output) for output in dict.fromkeys(o.text for o in outputs) if output != example.question)
    assert [(item.example_id, item.perturbed) for item in items] == expected
    assert all(item.similarity is None for item in items)


def test_default_perturbations_skip_those_whose_model_is_unavailable(geo_mini_env, encoder, unavailable_perturbation):
    test_set = build_test_set(DATASET, None, limit=2, encoder=encoder)
    assert unavailable_perturbation in test_set.skipped
    assert "OSError" in test_set.skipped[unavailable_perturbation]
    assert set(OFFLINE) <= set(test_set.perturbations)
    assert set(test_set.perturbations) | set(test_set.skipped) == set(get_registry().names("perturbation"))
    # geo has no tables: RobuT's table perturbations and its mix (always a header or content level) are left out
    for table_perturbation in ("robut-mix", "row-shuffle", "header-synonym"):
        assert test_set.skipped[table_perturbation] == f"table perturbation; {DATASET} has no tables"


def test_named_perturbation_whose_model_is_unavailable_raises(geo_mini_env, encoder, unavailable_perturbation):
    with pytest.raises(ResourceError, match=f"(?s){unavailable_perturbation}.*leave"):
        build_test_set(DATASET, [unavailable_perturbation], limit=2, encoder=encoder)


def test_unknown_perturbation_is_a_registry_error_with_a_hint(geo_mini_env):
    with pytest.raises(RegistryError, match="Did you mean 'insertion'"):
        build_test_set(DATASET, ["insertin"])


@pytest.mark.parametrize(("candidates", "keep"), [(5, 10), (0, 1), (None, 0)])
def test_invalid_selection_is_rejected(candidates, keep):
    with pytest.raises(ValueError):
        check_selection(candidates, keep)


def test_a_test_set_needs_a_known_setting_or_a_selection():
    with pytest.raises(ValueError, match="Did you mean 'zhuo-2023'"):
        build_test_set(DATASET, ["deletion"], setting="zhuo-2032")
    with pytest.raises(ValueError, match="needs a setting"):
        build_test_set(DATASET, ["deletion"], setting=None)
    with pytest.raises(ValueError, match="keep=10 exceeds candidates=1"):
        build_test_set(DATASET, ["deletion"], selection=(1, 10))


@pytest.mark.parametrize("name", ["insertion", "random-deletion"])
def test_an_example_is_perturbed_the_same_whatever_was_perturbed_before_it(name, encoder):
    # Per-example reseeding: a resumed build (which skips finished examples) and a distributed one
    # (each worker sees other examples) give the utterances a serial build gives.
    examples = dataset_examples(DATASET, limit=EXAMPLES)

    def perturber() -> ExamplePerturber:
        return ExamplePerturber(create_perturbation(name, seed=0), name, candidates=3, keep=1, seed=0, encoder=encoder)

    forward, backward = perturber(), perturber()
    in_order = [forward(index, example) for index, example in enumerate(examples)]
    in_reverse = [backward(index, example) for index, example in reversed(list(enumerate(examples)))][::-1]
    assert in_order == in_reverse
    assert sum(map(len, in_order)) >= EXAMPLES // 2


@pytest.mark.parametrize(("name", "selection"), [("insertion", (1, 1)), ("substitution-wordnet", (None, 1)), ("deletion", (3, 2))])
def test_perturbing_examples_together_equals_one_at_a_time(name, selection, encoder):
    # The build perturbs a chunk of examples at once (their Sentence-BERT embeddings in shared
    # batches); each example's utterances, scores to the last digit, stay its own.
    examples = list(enumerate(dataset_examples(DATASET, limit=EXAMPLES)))
    candidates, keep = selection

    def perturber() -> ExamplePerturber:
        return ExamplePerturber(create_perturbation(name, seed=0), name, candidates=candidates, keep=keep, seed=0, encoder=encoder)

    alone = [perturber().perturb(index, example) for index, example in examples]
    together = perturber().perturb_many(examples)
    assert together == alone
    assert sum(len(item.utterances) for item in together) >= 2


class _RejectsWord(MeaningJudge):
    """A judge that rejects every rewrite containing ``word`` (a rule simple enough to check)."""

    def __init__(self, word: str | None) -> None:
        self.word = word

    def judge(self, pairs):
        return [
            Judgement(Verdict.DIFFERENT, f"contains {self.word!r}")
            if self.word is not None and self.word in pair.rewrite.split()
            else Judgement(Verdict.SAME, "ok")
            for pair in pairs
        ]


def test_the_judge_reads_candidates_in_the_draw_order_until_the_sample_is_full(encoder):
    # Huang's insertion draws one of ~100 candidates: the judge reads candidates in the seeded
    # draw order until one is kept, and the utterance is the one drawn without a judge when the
    # judge keeps what it reads.
    examples = list(enumerate(dataset_examples(DATASET, limit=EXAMPLES)))

    def perturb(judge: MeaningJudge | None) -> list:
        insertion = create_perturbation("insertion", seed=0, options={"word_list": "huang-2021", "max_candidates_per_position": None})
        return ExamplePerturber(insertion, "insertion", candidates=1, keep=1, seed=0, encoder=encoder, judge=judge).perturb_many(examples)

    unjudged, keeps_all, rejects_the = perturb(None), perturb(_RejectsWord(None)), perturb(_RejectsWord("the"))
    assert [item.utterances for item in keeps_all] == [item.utterances for item in unjudged]
    assert all(item.tally.judged == 1 and item.tally.rejected == 0 for item in keeps_all if item.utterances)
    assert all(item.tally.judged > 1 for item in unjudged if item.utterances)  # without a judge: every candidate counted
    read_past_a_rejection = 0
    for plain, judged in zip(unjudged, rejects_the, strict=True):
        for utterance in judged.utterances:
            assert "the" not in utterance.perturbed.split()
        assert judged.tally.judged == judged.tally.rejected + len(judged.utterances)
        if plain.utterances and "the" not in plain.utterances[0].perturbed.split():
            assert judged.utterances == plain.utterances and judged.tally.judged == 1
        read_past_a_rejection += judged.tally.rejected > 0 and bool(judged.utterances)
    assert read_past_a_rejection >= 1
