"""RandomWordDeletion (Zhuo et al. 2023, RD) on GeoQuery questions."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from textattack.shared import AttackedText

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


def test_twenty_distinct_candidates_on_a_long_question() -> None:
    outputs = RandomWordDeletion(seed=0)(AttackedText("which rivers run through the state with the largest population"))
    assert len(outputs) == 20 == len({o.text for o in outputs})


def test_question_is_never_emptied() -> None:
    assert RandomWordDeletion(seed=0)(AttackedText("how big")) == []
    assert len(RandomWordDeletion(seed=0)(AttackedText("how big alaska"))) == 3


def test_new_york_is_never_altered() -> None:
    text = AttackedText("how many people live in new york")
    outputs = RandomWordDeletion(seed=0)(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert len(outputs) == 10 and all(o.text.endswith("new york") for o in outputs)


def test_literals_survive_on_real_geoquery(geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples, RandomWordDeletion(seed=0)) > 100


def test_repr_lists_every_init_parameter() -> None:
    text = repr(RandomWordDeletion())
    for name in inspect.signature(RandomWordDeletion.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
