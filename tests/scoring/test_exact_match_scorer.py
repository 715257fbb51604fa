"""ExactMatchScorer and normalize_logical_form (moved from goal_functions/exact_match.py)."""

from __future__ import annotations

import pytest
from rapidfuzz.distance import Levenshtein

from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer, normalize_logical_form
from textattack_semparse.scoring.scorer import Score, Scorer

GOLD = "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"


def test_spacing_and_case_do_not_matter():
    assert normalize_logical_form("(lambda $0 e (State:t $0))") == normalize_logical_form("( lambda $0 e ( state:t $0 ) )")


def test_brackets_and_commas_are_split_off():
    assert normalize_logical_form("count([a],{b})") == ["count", "(", "[", "a", "]", ",", "{", "b", "}", ")"]


def test_whitespace_of_every_kind_collapses():
    assert normalize_logical_form("  (a\t\n b)  ") == ["(", "a", "b", ")"]


def test_empty_text_has_no_tokens():
    assert normalize_logical_form("") == [] and normalize_logical_form("   ") == []


def test_other_punctuation_is_kept_inside_tokens():
    assert normalize_logical_form("(state:t $0)") == ["(", "state:t", "$0", ")"]


def test_is_a_scorer_that_needs_no_database():
    scorer = ExactMatchScorer()
    assert isinstance(scorer, Scorer) and not scorer.needs_databases and scorer.name == "exact"


def test_same_tokens_match_with_zero_distance():
    assert ExactMatchScorer().score("(lambda $0 e (and (state:t $0) (next_to:t $0 s0)))", GOLD) == Score(True, 0.0)


def test_different_predicate_is_a_mismatch():
    score = ExactMatchScorer().score("( lambda $0 e ( state:t $0 ) )", GOLD)
    assert not score.match and 0.0 < score.distance <= 1.0


def test_distance_is_the_normalised_token_edit_distance():
    prediction = "(a c)"
    expected = Levenshtein.normalized_distance(["(", "a", "c", ")"], ["(", "a", "b", ")"])
    assert ExactMatchScorer().distance(prediction, "(a b)") == pytest.approx(expected) == pytest.approx(0.25)


def test_distance_of_an_empty_prediction_is_one():
    assert ExactMatchScorer().distance("", GOLD) == 1.0


def test_databases_are_ignored():
    assert ExactMatchScorer().score("(a (b))", "( a ( b ) )", ["no/such.sqlite"]).match


def test_sql_without_a_database_is_compared_as_tokens():
    scorer = ExactMatchScorer()
    assert scorer.score("SELECT a FROM t", "select  a from T").match
    assert not scorer.score("SELECT a FROM t WHERE b = 1", "SELECT a FROM t WHERE b = 2").match


def test_check_gold_never_raises():
    ExactMatchScorer().check_gold("")
    ExactMatchScorer().check_gold("unbalanced ( bracket")


def test_scorers_compare_equal():
    assert ExactMatchScorer() == ExactMatchScorer()
