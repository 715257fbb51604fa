"""Argument validation and sampling shared by the function-word transformations."""

from __future__ import annotations

import pytest

from textattack_semparse.transformations.function_word_insertion import FunctionWordInsertion
from textattack_semparse.transformations.function_word_substitution import FunctionWordSubstitution
from textattack_semparse.linguistics.function_words import (
    FUNCTION_WORDS,
    MEANING_PRESERVING_CLASSES,
    PUNCTUATION,
    load_function_word_classes,
    load_word_list,
)
from textattack_semparse.linguistics.operator_words import OPERATOR_MARKS, is_operator_word


def test_custom_words_are_lowercased_deduplicated_and_sorted() -> None:
    insertion = FunctionWordInsertion(function_words=["The", "a", "the", " of "])
    assert insertion.function_words == ("a", "of", "the")


def test_default_vocabulary_is_the_meaning_preserving_classes() -> None:
    classes = load_function_word_classes()
    expected = sorted(set().union(*(classes[name] for name in MEANING_PRESERVING_CLASSES)))
    assert FunctionWordSubstitution(max_candidates_per_position=None)._vocabulary == tuple(expected)
    assert set(expected) < FUNCTION_WORDS


def test_insertion_never_inserts_forms_of_be_by_default() -> None:
    vocabulary = set(FunctionWordInsertion(max_candidates_per_position=None)._candidate_words())
    assert vocabulary == load_function_word_classes()["articles"] | load_function_word_classes()["function adverbs"]


def test_function_words_and_word_classes_are_exclusive() -> None:
    with pytest.raises(ValueError, match="not both"):
        FunctionWordInsertion(function_words=["the"], word_classes=["articles"])


def test_string_function_words_rejected() -> None:
    with pytest.raises(TypeError, match="wrap a single word"):
        FunctionWordInsertion(function_words="the")


def test_empty_function_words_rejected() -> None:
    with pytest.raises(ValueError, match="function_words is empty"):
        FunctionWordSubstitution(function_words=["", " "])


@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_bad_max_candidates_rejected(bad: object) -> None:
    with pytest.raises(ValueError, match="max_candidates_per_position"):
        FunctionWordInsertion(max_candidates_per_position=bad)  # type: ignore[arg-type]


def test_bad_seed_rejected() -> None:
    with pytest.raises(TypeError, match="seed"):
        FunctionWordSubstitution(seed="7")  # type: ignore[arg-type]


def test_limit_at_least_vocabulary_size_is_deterministic() -> None:
    assert FunctionWordInsertion(function_words=["a", "the"], max_candidates_per_position=2).deterministic
    assert FunctionWordInsertion(function_words=["a", "the", "of"], max_candidates_per_position=2).deterministic
    assert not FunctionWordInsertion(function_words=["a", "the", "very"], max_candidates_per_position=2).deterministic


def test_operator_words_are_left_out_of_every_vocabulary() -> None:
    insertion = FunctionWordInsertion(function_words=["the", "of", "six", "most", "mightn't", "%"])
    assert insertion._vocabulary == ("the",)
    every = FunctionWordSubstitution(word_classes=tuple(load_function_word_classes()), max_candidates_per_position=None)
    assert not {word for word in every._vocabulary if is_operator_word(word)}


def test_is_function_word_ignores_case() -> None:
    insertion = FunctionWordInsertion()
    assert insertion.is_function_word("The") and not insertion.is_function_word("Texas")


def test_word_list_meaning_preserving_is_the_default() -> None:
    explicit = FunctionWordSubstitution(word_list="meaning-preserving", max_candidates_per_position=None)
    assert explicit._vocabulary == FunctionWordSubstitution(max_candidates_per_position=None)._vocabulary
    assert FunctionWordSubstitution().word_list is None


def test_huang_word_list_groups_its_words_of_the_default_classes_and_its_punctuation() -> None:
    listed = set(load_word_list("huang-2021"))
    classes = load_function_word_classes()
    swap = FunctionWordSubstitution(word_list="huang-2021", max_candidates_per_position=None)
    expected = [tuple(sorted(classes[name] & listed)) for name in MEANING_PRESERVING_CLASSES]
    assert list(swap._groups) == [*expected, tuple(sorted(listed & (PUNCTUATION - OPERATOR_MARKS)))]
    assert swap.deterministic


def test_unknown_word_list_suggests_the_closest() -> None:
    with pytest.raises(ValueError, match="Did you mean 'huang-2021'"):
        FunctionWordInsertion(word_list="huang-2012")


def test_word_list_must_be_a_name() -> None:
    with pytest.raises(TypeError, match="word_list"):
        FunctionWordInsertion(word_list=["the"])  # type: ignore[arg-type]


@pytest.mark.parametrize("other", [{"function_words": ["the"]}, {"word_classes": ["articles"]}])
def test_huang_word_list_excludes_other_word_choices(other: dict) -> None:
    with pytest.raises(ValueError, match="not both"):
        FunctionWordSubstitution(word_list="huang-2021", **other)


def test_word_list_is_in_the_repr() -> None:
    assert "(word_list):  huang-2021" in repr(FunctionWordInsertion(word_list="huang-2021"))
