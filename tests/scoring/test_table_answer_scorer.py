"""TableAnswerScorer against the rules of WikiTableQuestions' official evaluator (evaluator.py 1.0.2).

Each test quotes the rule it checks; expected values follow from the rule.
"""

from __future__ import annotations

import pickle

import pytest

from textattack_semparse.scoring import GoldError, Scoring, TableAnswerScorer
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.scoring.table_answer_scorer import normalize_answer_string
from textattack_semparse.tables.answers import format_answer

SCORER = TableAnswerScorer()


def match(prediction: str, gold: str) -> bool:
    return SCORER.score(prediction, gold).match


# "Remove diacritics (é → e)"
@pytest.mark.parametrize(("text", "expected"), [("Café", "cafe"), ("Škoda Ñandú", "skoda nandu"), ("Zürich", "zurich")])
def test_diacritics_are_removed(text: str, expected: str) -> None:
    assert normalize_answer_string(text) == expected
    assert match(text, expected)


# "Convert smart quotes (‘’´`“”) and dashes (‐‑‒–—−) into ASCII ones"
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("it’s", "it's"),
        ("it‘s", "it's"),
        ("it`s", "it's"),
        ("say “hi” now", 'say "hi" now'),
        ("1990–1995", "1990-1995"),
        ("a—b", "a-b"),
        ("a−b", "a-b"),
        ("a‐b‑c‒d", "a-b-c-d"),
    ],
)
def test_quotes_and_dashes_become_ascii(text: str, expected: str) -> None:
    assert normalize_answer_string(text) == expected


def test_diacritics_go_before_quotes_so_an_acute_accent_becomes_a_space() -> None:
    # The evaluator applies NFKD first: "´" (U+00B4) decomposes to a space and a combining
    # acute, which is dropped, so the quote rule never sees it.
    assert normalize_answer_string("it´s") == "it s"


# "Remove citations (trailing •♦†‡*#+ or [...])"
@pytest.mark.parametrize(
    ("text", "expected"),
    [("Smith[1]", "smith"), ("Smith [note 2]", "smith"), ("Smith*", "smith"), ("Smith†‡", "smith"), ("Smith #+", "smith")],
)
def test_trailing_citations_are_removed(text: str, expected: str) -> None:
    assert normalize_answer_string(text) == expected


def test_citation_marks_inside_a_value_stay() -> None:
    # Only *trailing* citations go: "a*b" keeps its star.
    assert normalize_answer_string("a*b") == "a*b"


# "Remove details in parenthesis (trailing (...))"
def test_trailing_parenthesised_details_are_removed() -> None:
    assert normalize_answer_string("Paris (France)") == "paris"
    assert normalize_answer_string("Paris (France) (capital)") == "paris"
    assert match("Paris", "Paris (France)")


def test_a_value_that_is_only_a_parenthesis_keeps_it() -> None:
    # The removal needs text before the " (...)" group (the evaluator's (?<!^)).
    assert normalize_answer_string("(none)") == "(none)"


# "Remove outermost quotation marks"
def test_outermost_quotes_are_removed() -> None:
    assert normalize_answer_string('"Thriller"') == "thriller"
    assert match("Thriller", "“Thriller”")


# The three removals repeat until nothing changes: quotes, then a citation inside them.
def test_removals_repeat_until_stable() -> None:
    assert normalize_answer_string('"Thriller [1]"') == "thriller"
    assert normalize_answer_string('"Bad" (album)') == "bad"


# "Remove trailing period (.)" — one period only, after the other removals.
def test_one_trailing_period_is_removed() -> None:
    assert normalize_answer_string("Jr.") == "jr"
    assert normalize_answer_string("etc..") == "etc."


# "Convert to lowercase" and "Collapse multiple whitespaces and strip outermost whitespaces"
def test_case_and_whitespace() -> None:
    assert normalize_answer_string("  New \t York\n City ") == "new york city"
    assert match("NEW  YORK", "new york")


# "A string that can be converted into a number (float) is converted into a number";
# "T can be interpreted as a number T_N, P is a number, and P = T_N".
@pytest.mark.parametrize(("prediction", "gold"), [("2.0", "2"), ("2", "2.0"), ("1e3", "1000"), ("0.50", ".5"), ("+7", "7")])
def test_numbers_compare_as_values(prediction: str, gold: str) -> None:
    assert match(prediction, gold)


def test_different_numbers_do_not_match() -> None:
    assert not match("2.5", "2")
    assert not match("1001", "1000")


# NumberValue.match: amounts within 1e-6 match.
def test_numbers_within_tolerance_match() -> None:
    assert match("3.1400000001", "3.14")
    assert not match("3.1401", "3.14")


# Gold "1,000": CoreNLP's targetCanon reads it as 1000, so a predicted number 1000 matches it,
# and so does the predicted string "1,000" (same normalised text). A predicted "1,000" is not a
# Python number, so it stays a string and does not match a gold "1000" (different text, not a number).
def test_thousands_separators() -> None:
    assert match("1000", "1,000")
    assert match("1,000", "1,000")
    assert match("12467.0", "12,467")
    assert not match("1,000", "1000")


# "A string of the form yyyy-mm-dd is converted into a date. Unspecified fields can be marked as xx."
# "P is a date, and P = T_D (exact match on all fields; e.g., xx-01-12 and 1990-01-12 do not match)".
def test_dates() -> None:
    assert match("1990-01-12", "1990-1-12")
    assert match("xx-01-12", "xxxx-01-12")
    assert not match("xx-01-12", "1990-01-12")
    assert not match("1990-01-13", "1990-01-12")
    assert match("1990-01-xx", "1990-1-xx")


# "if only the year is specified, the date is automatically converted into a number"
def test_year_only_date_is_a_number() -> None:
    assert match("1990", "1990-xx-xx")
    assert match("1990.0", "1990-xx-xx")


def test_invalid_dates_stay_strings() -> None:
    # Month 13 and day 32 are not dates (1 <= month <= 12, 1 <= day <= 31), so these compare as text.
    assert match("1990-13-01", "1990-13-01")
    assert not match("1990-13-01", "1990-12-01")
    assert not match("xx-xx-xx", "xx-xx-01")


# "The predicted denotation is correct if 1. The sizes ... are equal 2. Each item in the target
# denotation matches an item in the predicted denotation" — an unordered collection.
def test_order_does_not_matter() -> None:
    assert match("Andri Aganits|Siim Ennemuist", "Siim Ennemuist|Andri Aganits")


def test_different_sizes_do_not_match() -> None:
    assert not match("Siim Ennemuist", "Siim Ennemuist|Andri Aganits")
    assert not match("Siim Ennemuist|Andri Aganits|Tiit", "Siim Ennemuist|Andri Aganits")


# Denotations are sets (to_value_list builds a set): duplicates collapse before the size check.
def test_duplicate_values_collapse() -> None:
    assert match("Oslo|oslo", "Oslo")
    assert match("2|2.0", "2")


def test_escaped_values_are_one_value() -> None:
    gold = format_answer(["a|b"])
    assert match(gold, gold)
    assert not match("a|b", gold)


# Empty answers: an empty denotation has size 0 and only an empty prediction matches it.
def test_empty_answers() -> None:
    assert match("", "")
    assert not match("", "Oslo")
    assert not match("Oslo", "")


# Distance: (unmatched gold + unmatched predicted + 1) / (gold + predicted + 1), 0 on a match.
@pytest.mark.parametrize(
    ("prediction", "gold", "expected"),
    [
        ("b|a", "a|b", 0.0),
        ("x", "a", (1 + 1 + 1) / (1 + 1 + 1)),
        ("a", "a|b", (1 + 0 + 1) / (2 + 1 + 1)),
        ("a|b|c", "a|b", (0 + 1 + 1) / (2 + 3 + 1)),
        ("", "a", (1 + 0 + 1) / (1 + 0 + 1)),
    ],
)
def test_distance_counts_unmatched_values(prediction: str, gold: str, expected: float) -> None:
    score = SCORER.score(prediction, gold)
    assert score.distance == pytest.approx(expected)
    assert SCORER.distance(prediction, gold) == pytest.approx(expected)
    assert 0.0 <= score.distance <= 1.0


def test_distance_is_positive_whenever_wrong() -> None:
    # Gold 1000 (as "1,000") is matched by both predicted values, but sizes differ (1 vs 2).
    score = SCORER.score("1,000|1000", "1,000")
    assert not score.match and score.distance == pytest.approx((0 + 0 + 1) / (1 + 2 + 1))


def test_a_gold_that_is_not_text_is_a_gold_error() -> None:
    with pytest.raises(GoldError, match="targetValue format"):
        SCORER.score("Oslo", None)  # type: ignore[arg-type]


def test_scoring_needs_no_database_and_judges() -> None:
    scoring = Scoring(TableAnswerScorer())
    assert scoring.describe() == "denotation match (no database)"
    assert scoring.judge("oslo", "Oslo").outcome is Outcome.CORRECT
    assert scoring.judge("Bergen", "Oslo").outcome is Outcome.WRONG
    assert scoring.gold_error("Oslo") is None
    assert not TableAnswerScorer().needs_databases


def test_scorer_pickles() -> None:
    assert pickle.loads(pickle.dumps(SCORER)) == SCORER
