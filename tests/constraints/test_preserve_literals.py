"""PreserveLiterals with the gold query recorded on a real TextAttack AttackedText."""

from __future__ import annotations

import inspect

import pytest
from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.distraction_suffix import DistractionSuffix
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.transformations.function_word_insertion import FunctionWordInsertion
from textattack_semparse.transformations.function_word_substitution import FunctionWordSubstitution

NEW_YORK_SQL = 'SELECT CITYalias0.POPULATION FROM CITY AS CITYalias0 WHERE CITYalias0.CITY_NAME = "new york" ;'
MISSOURI_SQL = 'SELECT STATEalias0.POPULATION FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "missouri" ;'


def question(text: str, gold: str | None) -> AttackedText:
    attacked = AttackedText(text)
    if gold is not None:
        record_gold_output(attacked, gold)
    return attacked


def modifiable(constraint: PreserveLiterals, text: AttackedText) -> set[int]:
    return constraint(text, FunctionWordInsertion())


def test_single_word_literal_is_protected() -> None:
    text = question("what is the population of missouri", MISSOURI_SQL)
    assert modifiable(PreserveLiterals(), text) == {0, 1, 2, 3, 4}


def test_both_words_of_a_multi_word_literal_are_protected() -> None:
    text = question("what is the population of new york", NEW_YORK_SQL)
    assert modifiable(PreserveLiterals(), text) == {0, 1, 2, 3, 4}


def test_no_insertion_inside_a_multi_word_literal() -> None:
    text = question("what is the population of new york", NEW_YORK_SQL)
    insertion = FunctionWordInsertion(max_candidates_per_position=None)
    unconstrained = insertion(text)
    candidates = insertion(text, pre_transformation_constraints=[PreserveLiterals()])
    assert candidates
    assert all(c.words[-2:] == ["new", "york"] for c in candidates)
    # Exactly the unconstrained insertions before "of new york": every word at every insertion
    # point the literal leaves open, none before, inside or after it.
    before_the_literal = {c.text for c in unconstrained if c.words[-3:] == ["of", "new", "york"]}
    assert {c.text for c in candidates} == before_the_literal
    assert len(before_the_literal) < len(unconstrained)


def test_without_the_constraint_insertion_splits_the_literal() -> None:
    text = question("what is the population of new york", NEW_YORK_SQL)
    candidates = FunctionWordInsertion(function_words=["the"])(text)
    assert "what is the population of new the york" in {c.text for c in candidates}


def test_protection_follows_words_after_an_insertion() -> None:
    original = question("what is the population of new york", NEW_YORK_SQL)
    shifted = original.insert_text_before_word_index(0, "just")
    assert shifted.words[6:8] == ["new", "york"]
    assert modifiable(PreserveLiterals(), shifted) == {0, 1, 2, 3, 4, 5}


def test_protection_follows_words_after_a_deletion() -> None:
    original = question("which rivers run through the state of missouri", MISSOURI_SQL)
    (shorter,) = FunctionWordDeletion()(original, indices_to_modify={4})
    assert shorter.text == "which rivers run through state of missouri"
    assert modifiable(PreserveLiterals(), shorter) == set(range(6))


def test_second_round_after_insertion_keeps_the_literal_contiguous() -> None:
    original = question("what is the population of new york", NEW_YORK_SQL)
    constraints = [PreserveLiterals(), RepeatModification()]
    insertion = FunctionWordInsertion(function_words=["the", "of", "in", "just"], max_candidates_per_position=None)
    first = insertion(original, pre_transformation_constraints=constraints)
    second = [t for c in first for t in insertion(c, pre_transformation_constraints=constraints)]
    assert second
    assert all(" ".join(t.words[-2:]) == "new york" for t in second)


def test_substitution_and_deletion_leave_literals_alone() -> None:
    gold = 'SELECT COUNT ( * ) FROM RIVER WHERE TRAVERSE = "the dalles" ;'
    text = question("how many rivers are there in the dalles", gold)
    for transformation in (FunctionWordSubstitution(max_candidates_per_position=None), FunctionWordDeletion()):
        candidates = transformation(text, pre_transformation_constraints=[PreserveLiterals()])
        assert candidates
        assert all(" ".join(c.words[-2:]) == "the dalles" for c in candidates)


def test_distraction_suffix_still_applies_after_a_protected_last_word() -> None:
    text = question("what is the population of new york", NEW_YORK_SQL)
    (candidate,) = DistractionSuffix()(text, pre_transformation_constraints=[PreserveLiterals()])
    # Zhuo et al. (2023), Table 8: the five statements follow the question.
    statements = "who is who; what is what; when is when; which is which; where is where"
    assert candidate.text == f"what is the population of new york {statements}"


def test_explicit_literals_without_gold() -> None:
    text = question("what is the population of new york", None)
    assert modifiable(PreserveLiterals(literals=["new york"]), text) == {0, 1, 2, 3, 4}


def test_explicit_literals_add_to_the_gold_literals() -> None:
    text = question("rivers in missouri and new york", MISSOURI_SQL)
    assert modifiable(PreserveLiterals(literals=["new york"]), text) == {0, 1, 3}


def test_nothing_protected_without_gold_or_literals() -> None:
    text = question("what is the population of new york", None)
    assert modifiable(PreserveLiterals(), text) == set(range(7))


def test_a_value_the_question_quotes_is_protected_even_where_the_gold_misspells_it() -> None:
    # Spider dev: the gold's literal lacks the last letter, so only the question's quotes locate it.
    gold = 'SELECT Name FROM teacher WHERE Hometown != "Little Lever Urban Distric"'
    text = question('What are the names of the teachers whose hometown is not "Little Lever Urban District"?', gold)
    assert modifiable(PreserveLiterals(), text) == set(range(11))  # words 11-14 are the quoted value
    assert PreserveLiterals().protected_literals(text) == ["Little Lever Urban District", "Little Lever Urban Distric"]
    # An apostrophe is no quote.
    apostrophes = question("what's the teacher's name", None)
    assert modifiable(PreserveLiterals(), apostrophes) == set(range(apostrophes.num_words))


def test_a_literal_the_question_spells_in_the_plural_is_protected() -> None:
    # Spider dev: the gold reads 'fiat' where the question says "fiats"; a one- or two-letter code is not pluralised.
    text = question("which countries produce fiats or volvos", "SELECT id FROM car_names WHERE Model = 'fiat' OR Model = 'volvo'")
    assert modifiable(PreserveLiterals(), text) == {0, 1, 2, 4}
    grade = question("list students with grade a as well as others", "SELECT name FROM student WHERE grade = 'a'")
    assert modifiable(PreserveLiterals(), grade) == set(range(grade.num_words)) - {4}  # "a" only, not "as"


def test_literal_missing_from_question_protects_nothing() -> None:
    text = question("how many people live in the big apple", NEW_YORK_SQL)
    assert modifiable(PreserveLiterals(), text) == set(range(8))


def test_numeric_literal_is_protected() -> None:
    gold = "SELECT STATE_NAME FROM STATE WHERE POPULATION > 150000 ;"
    text = question("which states have more than 150000 people", gold)
    assert modifiable(PreserveLiterals(), text) == {0, 1, 2, 3, 4, 6}


def test_protected_literals_lists_explicit_then_gold() -> None:
    text = question("x", NEW_YORK_SQL)
    assert PreserveLiterals(literals=["ohio", "new york"]).protected_literals(text) == ["ohio", "new york"]


def test_string_literals_rejected() -> None:
    with pytest.raises(TypeError, match="wrap it in a list"):
        PreserveLiterals(literals="texas")


def test_repr_lists_every_init_parameter() -> None:
    text = repr(PreserveLiterals())
    for name in inspect.signature(PreserveLiterals.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_greedy_attack_never_changes_a_literal() -> None:
    """End to end: the plugin's goal function records the gold, PreserveLiterals reads it."""
    from textattack import Attack
    from textattack.search_methods import GreedySearch
    from textattack.transformations import CompositeTransformation

    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.goal_functions.execution_match import ExecutionMatch
    from textattack_semparse.sql.literals import literal_word_indices, sql_literals
    from textattack_semparse.victims.knn_template_parser import KNNTemplateParser

    benchmark = load_benchmark("geo-mini")
    victim = KNNTemplateParser(benchmark.split("question", "train"), database=benchmark.database)
    transformation = CompositeTransformation(
        [FunctionWordInsertion(max_candidates_per_position=3, seed=0), FunctionWordDeletion(), DistractionSuffix()]
    )
    attack = Attack(
        ExecutionMatch(victim, database=benchmark.database),
        [RepeatModification(), PreserveLiterals()],
        transformation,
        GreedySearch(),
    )
    dataset = benchmark.dataset("question", "test")
    checked = 0
    for i in range(min(6, len(dataset))):
        inputs, gold = dataset[i]
        result = attack.attack(inputs, gold)
        original, perturbed = result.original_result.attacked_text, result.perturbed_result.attacked_text
        for literal in sql_literals(gold):
            if literal_word_indices(original.words, [literal]):
                assert literal_word_indices(perturbed.words, [literal]), (literal, perturbed.text)
                checked += 1
    assert checked >= 3


def test_logical_form_gold_protects_the_constants_the_question_spells_out() -> None:
    text = question("what is the capital of new york", "(capital:<s,c> new_york:s)")
    assert PreserveLiterals()._get_modifiable_indices(text) == {0, 1, 2, 3, 4}


@pytest.mark.parametrize(
    ("text", "gold", "modifiable_words"),
    [
        ("what airlin is al0", "al0", {0, 1, 2}),  # ATIS: the whole logical form is the entity asked about
        ("list ci0", "ci0", {0}),
        ("where is texas", "texas:s", {0, 1}),
    ],
)
def test_a_logical_form_of_one_constant_protects_it(text: str, gold: str, modifiable_words: set[int]) -> None:
    assert PreserveLiterals()._get_modifiable_indices(question(text, gold)) == modifiable_words


def test_sql_opening_with_a_bracket_is_still_read_as_sql() -> None:
    text = question("what is the population of texas", '( SELECT population FROM state WHERE state_name = "texas" )')
    assert PreserveLiterals()._get_modifiable_indices(text) == {0, 1, 2, 3, 4}
