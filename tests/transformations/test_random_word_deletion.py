"""RandomWordDeletion (Zhuo et al. 2023, RD) on GeoQuery questions."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.random_word_deletion import RandomWordDeletion


def is_subsequence(short: list[str], long: list[str]) -> bool:
    remaining = iter(long)
    return all(word in remaining for word in short)


def test_removes_exactly_two_words_keeping_the_order(geo_questions: list[AttackedText]) -> None:
    for text in geo_questions:
        outputs = RandomWordDeletion(seed=0)(text)
        assert outputs
        for output in outputs:
            assert output.num_words == text.num_words - 2
            assert is_subsequence(output.words, text.words)
            assert list(output.attack_attrs["original_index_map"]).count(-1) == 2


def test_every_pair_of_unprotected_words_on_a_long_question() -> None:
    # "which" (question word), "through", "with" (prepositions) and "largest" (superlative) stay:
    # the candidates are the C(6, 2) = 15 pairs of the other six words.
    text = AttackedText("which rivers run through the state with the largest population")
    outputs = RandomWordDeletion(seed=0)(text)
    assert len(outputs) == 15 == len({o.text for o in outputs})
    assert all({"which", "through", "with", "largest"} <= set(o.words) for o in outputs)


def test_question_is_never_emptied() -> None:
    assert RandomWordDeletion(seed=0)(AttackedText("big state")) == []
    assert len(RandomWordDeletion(seed=0)(AttackedText("big red state"))) == 3


@pytest.mark.parametrize(
    ("question", "kept"),
    [("where is portland", {"where"}), ("which is the highest peak not in alaska", {"which", "highest", "not", "in"}),
     ("how many states have no rivers", {"how", "many", "no"}), ("what are the two largest cities", {"what", "two", "largest"}),
     ("name the states that border texas", {"that"})],
)  # fmt: skip
def test_words_the_question_needs_are_never_deleted(question: str, kept: set[str]) -> None:
    """People judged "where is portland" -> "portland" and "which is the highest peak not in
    alaska" -> "which the highest peak in alaska" to ask something else."""
    for output in RandomWordDeletion(seed=0)(AttackedText(question)):
        assert kept <= set(output.words)


def test_words_naming_the_gold_predicates_are_never_deleted() -> None:
    text = AttackedText("what is the population of the capital")
    assert any("population" not in o.words for o in RandomWordDeletion(seed=0)(text))
    record_gold_output(text, "SELECT STATEalias0.POPULATION FROM STATE AS STATEalias0")
    assert all("population" in o.words for o in RandomWordDeletion(seed=0)(text))


def test_new_york_is_never_altered() -> None:
    # "how many" and "in" are protected too: only "people" and "live" can go.
    text = AttackedText("how many people live in new york")
    outputs = RandomWordDeletion(seed=0)(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert [o.text for o in outputs] == ["how many in new york"]


def test_literals_survive_on_real_geoquery(geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples, RandomWordDeletion(seed=0)) > 50


def test_repr_lists_every_init_parameter() -> None:
    text = repr(RandomWordDeletion())
    for name in inspect.signature(RandomWordDeletion.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
