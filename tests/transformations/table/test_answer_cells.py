"""What a table perturbation must keep: cells holding answer values, columns the question names."""

from __future__ import annotations

from textattack_semparse.transformations.table.answer_cells import (
    column_holds_answer,
    header_in_question,
    holds_answer,
    normalize_value,
)


def test_answer_values_are_matched_as_whole_words_ignoring_case_and_space() -> None:
    assert normalize_value("  New\nDelhi ") == "new delhi"
    assert holds_answer("New Delhi, India", ["new delhi"])
    assert holds_answer("2–1 (a.e.t.)", ["2"]) and not holds_answer("12", ["2"])
    assert not holds_answer("anything", [""])
    assert column_holds_answer(["Oslo", "Rome"], ["rome"]) and not column_holds_answer(["Oslo"], ["Rome"])


def test_a_header_is_named_by_any_inflection_of_a_content_word() -> None:
    assert header_in_question("Rank", "who ranked second?")
    assert header_in_question("Years won", "how many years?")
    assert not header_in_question("Notes", "who won in 2004?")
    assert not header_in_question("No. of", "what is the number?")  # function words never count
