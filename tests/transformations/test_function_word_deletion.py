"""FunctionWordDeletion on GeoQuery-style questions."""

from __future__ import annotations

import inspect

from textattack.shared import AttackedText
from textattack.transformations import WordDeletion

from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS, load_function_word_classes

EVERY_CLASS = tuple(load_function_word_classes())


def deleted_word(original: list[str], candidate: list[str]) -> str:
    assert len(candidate) == len(original) - 1
    removed = [original[p] for p in range(len(original)) if original[:p] + original[p + 1 :] == candidate]
    assert removed, f"{candidate} is not {original} minus one word"
    return removed[0]


def test_deletes_exactly_one_function_word() -> None:
    text = AttackedText("which rivers run through the state of texas")
    candidates = FunctionWordDeletion(word_classes=EVERY_CLASS)(text)
    assert sorted(deleted_word(text.words, c.words) for c in candidates) == ["of", "the", "through", "which"]


def test_one_candidate_per_function_word() -> None:
    text = AttackedText("what is the population of new york")
    function_word_count = sum(word in FUNCTION_WORDS for word in text.words)
    assert len(FunctionWordDeletion(word_classes=EVERY_CLASS)(text)) == function_word_count == 4


def test_content_words_never_deleted() -> None:
    text = AttackedText("texas population")
    assert FunctionWordDeletion()(text) == []


def test_only_modifiable_indices_are_deleted() -> None:
    text = AttackedText("what is the population of new york")
    candidates = FunctionWordDeletion()(text, indices_to_modify={2, 3})
    assert [c.text for c in candidates] == ["what is population of new york"]


def test_capitalised_function_word_is_recognised() -> None:
    text = AttackedText("What rivers are in Texas?")
    assert "rivers are in Texas?" in {c.text for c in FunctionWordDeletion(word_classes=EVERY_CLASS)(text)}


def test_single_word_text_is_left_alone() -> None:
    assert FunctionWordDeletion()(AttackedText("the")) == []


def test_custom_list_limits_deletions() -> None:
    text = AttackedText("what is the population of new york")
    assert [c.text for c in FunctionWordDeletion(function_words=["the"])(text)] == ["what is population of new york"]


def test_is_a_deterministic_word_deletion() -> None:
    deletion = FunctionWordDeletion()
    assert isinstance(deletion, WordDeletion) and deletion.deterministic


def test_repr_lists_every_init_parameter() -> None:
    text = repr(FunctionWordDeletion())
    for name in inspect.signature(FunctionWordDeletion.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_default_never_deletes_words_that_carry_meaning():
    text = AttackedText("how many rivers do not run through the state of texas")
    deleted = {deleted_word(text.words, c.words) for c in FunctionWordDeletion()(text)}
    assert deleted == {"the"}
