"""MaxGrammarErrorRate counts errors (deletions and swaps included), not modified word indices."""

from __future__ import annotations

import pytest
from textattack.constraints.pre_transformation import MaxModificationRate
from textattack.shared import AttackedText

from textattack_semparse.constraints.max_grammar_error_rate import MaxGrammarErrorRate
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

QUESTION = "what is the most populous state in the us"  # nine words: max(1, floor(0.15 * 9)) = 1 error


def _first(outputs, error_type, changes_length=None):
    for output in outputs:
        edit = output.attack_attrs[GRAMMAR_ERRORS_ATTR][-1]
        if edit.error_type == error_type and changes_length in (None, edit.changes_length):
            return output
    raise AssertionError(f"no {error_type} output")


@pytest.mark.parametrize("words, rate, expected", [(1, 0.15, 1), (6, 0.15, 1), (7, 0.15, 1), (13, 0.15, 1), (14, 0.15, 2), (20, 0.15, 3), (30, 0.1, 3), (10, 1.0, 10)])
def test_budget_rounds_down_with_at_least_one(words, rate, expected):
    assert MaxGrammarErrorRate(max_rate=rate).budget(words) == expected


def test_a_deletion_counts_although_it_modifies_no_word_index():
    original = AttackedText(QUESTION)
    deleted = _first(GrammarErrorCombined()(original), "ArtOrDet", changes_length=True)
    assert deleted.num_words == 8 and not deleted.attack_attrs["modified_indices"]
    strict = MaxGrammarErrorRate(max_rate=0.0, min_threshold=0)
    assert not strict._check_constraint(deleted, original)
    assert MaxGrammarErrorRate(max_rate=0.0, min_threshold=1)._check_constraint(deleted, original)


def test_second_error_exceeds_the_budget_of_a_nine_word_question():
    original = AttackedText(QUESTION)
    transformation = GrammarErrorCombined()
    one = _first(transformation(original), "Worder")  # a swap: two modified words, one error
    assert len(one.attack_attrs["modified_indices"]) == 2
    two = _first(transformation(one, indices_to_modify=[5]), "Nn")
    three = _first(transformation(two, indices_to_modify=[1]), "SVA")
    assert [MaxGrammarErrorRate()._check_constraint(text, original) for text in (one, two, three)] == [True, False, False]
    wider = MaxGrammarErrorRate(max_rate=0.3)  # floor(0.3 * 9) = 2 errors
    assert [wider._check_constraint(text, original) for text in (one, two, three)] == [True, True, False]
    # TextAttack's MaxModificationRate would stop after the swap alone (two modified words).
    assert not MaxModificationRate(0.15)._get_modifiable_indices(one)


def test_texts_without_recorded_errors_pass():
    original = AttackedText(QUESTION)
    assert MaxGrammarErrorRate(max_rate=0.0, min_threshold=0)._check_constraint(AttackedText("x y"), original)


@pytest.mark.parametrize("options", [{"max_rate": 1.5}, {"max_rate": -0.1}, {"max_rate": True}, {"min_threshold": -1}, {"min_threshold": 1.0}])
def test_bad_arguments_are_rejected(options):
    with pytest.raises(ValueError):
        MaxGrammarErrorRate(**options)


def test_repr_lists_rate_and_threshold():
    text = repr(MaxGrammarErrorRate())
    assert "(max_rate):  0.15" in text and "(min_threshold):  1" in text
