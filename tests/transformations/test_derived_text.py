"""Derived texts: multi-word edits and rebuilt questions keep TextAttack's bookkeeping right."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from textattack.shared import AttackedText

from textattack_semparse.transformations.derived_text import (
    edit_words,
    is_single_word,
    match_case,
    question_text,
    question_word_count,
    rebuild_question,
)


def test_two_deletions_map_every_original_word() -> None:
    text = AttackedText("what is the capital of texas")
    edited = edit_words(text, [(4, ""), (1, "")])
    assert edited.text == "what the capital texas"
    assert edited.attack_attrs["original_index_map"].tolist() == [0, -1, 1, 2, -1, 3]


def test_deleting_the_last_word_leaves_no_trailing_space() -> None:
    edited = edit_words(AttackedText("what is the capital of texas"), [(5, ""), (3, "")])
    assert edited.text == "what is the of"


def test_two_insertions_shift_the_map_once_each() -> None:
    text = AttackedText("what is the capital of texas")
    edited = edit_words(text, [(1, "exactly is"), (5, "the texas")])
    assert edited.words == ["what", "exactly", "is", "the", "capital", "of", "the", "texas"]
    assert edited.attack_attrs["original_index_map"].tolist() == [0, 2, 3, 4, 5, 7]
    assert edited.attack_attrs["newly_modified_indices"] == {1, 6}


def test_insertions_after_and_before_the_last_word() -> None:
    text = AttackedText("how big is alaska")
    edited = edit_words(text, [(3, "alaska today"), (3, "state alaska")])
    assert edited.text == "how big is state alaska today"
    assert edited.attack_attrs["original_index_map"].tolist() == [0, 1, 2, 4]


def test_one_step_back_to_the_input() -> None:
    text = AttackedText("what is the capital of texas")
    edited = edit_words(text, [(0, "which"), (3, "seat")])
    assert edited.attack_attrs["previous_attacked_text"] is text
    assert edited.attack_attrs["newly_modified_indices"] == {0, 3}


def test_no_edit_returns_the_input() -> None:
    text = AttackedText("how big is alaska")
    assert edit_words(text, []) is text


def test_rebuild_question_follows_moved_words() -> None:
    text = AttackedText("what is the largest city in texas")
    order = [5, 6, 0, 1, 2, 3, 4]
    rebuilt = rebuild_question(text, "in texas what is the largest city", order)
    assert rebuilt.attack_attrs["original_index_map"].tolist() == [2, 3, 4, 5, 6, 0, 1]
    assert all(rebuilt.words[rebuilt.attack_attrs["original_index_map"][i]] == w for i, w in enumerate(text.words))
    assert rebuilt.attack_attrs["newly_modified_indices"] == set(range(7))


def test_rebuild_question_marks_lost_words_deleted() -> None:
    text = AttackedText("how many people live in new york")
    rebuilt = rebuild_question(text, "what is the population of new york", [None, None, None, None, None, 5, 6])
    assert rebuilt.attack_attrs["original_index_map"].tolist() == [-1, -1, -1, -1, -1, 5, 6]


def test_rebuild_question_keeps_other_columns() -> None:
    text = AttackedText(OrderedDict(question="how big is alaska", db_id="geo"))
    rebuilt = rebuild_question(text, "alaska is how big", [3, 2, 0, 1])
    assert rebuilt.column_labels == ["question", "db_id"]
    assert rebuilt.words == ["alaska", "is", "how", "big", "geo"]
    assert rebuilt.attack_attrs["original_index_map"].tolist() == [2, 3, 1, 0, 4]


def test_rebuild_question_rejects_misaligned_origin() -> None:
    with pytest.raises(ValueError, match="one current-word index"):
        rebuild_question(AttackedText("how big is alaska"), "how big", [0, 1, 2])


def test_question_helpers_read_the_first_column() -> None:
    text = AttackedText(OrderedDict(question="how big is alaska?", db_id="geo"))
    assert question_text(text) == "how big is alaska?"
    assert question_word_count(text) == 4


@pytest.mark.parametrize(("template", "word", "expected"), [("Texas", "state", "State"), ("USA", "us", "US"), ("city", "Dallas", "Dallas"), ("A", "the", "The")])
def test_match_case(template: str, word: str, expected: str) -> None:
    assert match_case(template, word) == expected


def test_single_word_check_uses_textattack_words() -> None:
    assert is_single_word("state's") and not is_single_word("new york") and not is_single_word("x.")
