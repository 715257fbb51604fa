"""FunctionWordDeletion on GeoQuery-style questions."""

from __future__ import annotations

import inspect
from collections import OrderedDict

import pytest
from textattack.constraints.pre_transformation import InputColumnModification
from textattack.shared import AttackedText
from textattack.transformations import WordDeletion

from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.linguistics.function_words import (
    FUNCTION_WORDS,
    load_function_word_classes,
    load_word_list,
)

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


# --- word_list="huang-2021" ------------------------------------------------------------

HUANG_QUESTION = "show me the rivers in texas ?"


def test_huang_list_deletes_every_listed_token() -> None:
    """Huang et al. (2021) delete *any* function word, and their test sets count
    stop-word-list words and punctuation as function words: every token of the question
    that is in the list, and only those, is deleted, one per candidate."""
    listed = set(load_word_list("huang-2021"))
    tokens = HUANG_QUESTION.split()
    expected = {" ".join(tokens[:p] + tokens[p + 1 :]) for p, token in enumerate(tokens) if token in listed}
    candidates = [c.text for c in FunctionWordDeletion(word_list="huang-2021")(AttackedText(HUANG_QUESTION))]
    assert len(candidates) == len(expected) == 5  # show, me, the, in, ?
    assert set(candidates) == expected


def test_huang_list_deletes_attached_punctuation_and_contraction_stems() -> None:
    text = AttackedText("what isn the capital, of texas?")
    candidates = {c.text for c in FunctionWordDeletion(word_list="huang-2021")(text)}
    assert "what isn the capital of texas?" in candidates
    assert "what isn the capital, of texas" in candidates
    assert "what the capital, of texas?" in candidates


def test_punctuation_deletion_keeps_the_words_and_their_indices() -> None:
    text = AttackedText(HUANG_QUESTION)
    (deleted,) = [c for c in FunctionWordDeletion(function_words=["?"])(text)]
    assert deleted.text == "show me the rivers in texas"
    assert deleted.words == text.words and deleted.attack_attrs["newly_modified_indices"] == set()
    assert deleted.attack_attrs["previous_attacked_text"] is text


def test_punctuation_inside_a_protected_span_is_kept() -> None:
    text = AttackedText("rivers in st. louis ?")
    deletion = FunctionWordDeletion(function_words=["."])
    assert [c.text for c in deletion(text, indices_to_modify={0, 1})] == []
    assert [c.text for c in deletion(text, indices_to_modify={0, 1, 2})] == ["rivers in st louis ?"]


def test_punctuation_of_a_frozen_column_is_kept() -> None:
    text = AttackedText(OrderedDict(question="how many singers ?", db_id="concert-singer !"))
    frozen = InputColumnModification(["question", "db_id"], {"db_id"})
    candidates = FunctionWordDeletion(function_words=["?", "!"])(text, pre_transformation_constraints=[frozen])
    assert [c._text_input for c in candidates] == [OrderedDict(question="how many singers", db_id="concert-singer !")]


def test_default_list_never_deletes_punctuation() -> None:
    assert FunctionWordDeletion()(AttackedText("rivers in texas ?")) == []


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"FunctionWordDeletion builds candidates for every word.*300 words.*256"):
        FunctionWordDeletion()(text)
