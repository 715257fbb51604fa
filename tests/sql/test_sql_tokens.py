"""Tests for textattack_semparse.sql.sql_tokens: normalised tokens and token edit distance."""

from __future__ import annotations

import doctest

import pytest

from textattack_semparse.sql import sql_tokens as sql_tokens_module
from textattack_semparse.sql.sql_tokens import sql_tokens, token_distance

GOLD = 'SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.STATE_NAME = "texas" ;'


def test_keywords_and_identifiers_are_lowercased():
    assert sql_tokens("SELECT City_Name FROM CITY") == ["select", "city_name", "from", "city"]


def test_double_and_single_quoted_strings_agree():
    assert sql_tokens('SELECT "texas"') == sql_tokens("SELECT 'texas'") == ["select", "'texas'"]


def test_string_case_is_preserved():
    assert sql_tokens("SELECT 'Texas'") != sql_tokens("SELECT 'texas'")


def test_string_differs_from_identifier_of_same_text():
    assert sql_tokens("SELECT 'texas'") != sql_tokens("SELECT texas")


def test_embedded_quote_is_normalised():
    assert sql_tokens("SELECT 'it''s'") == sql_tokens('SELECT "it\'s"') == ["select", "'it''s'"]


def test_backtick_identifier_is_an_identifier():
    assert sql_tokens("SELECT `State_Name` FROM state") == ["select", "state_name", "from", "state"]


def test_whitespace_and_comments_are_ignored():
    assert sql_tokens("SELECT  a\n FROM t -- note") == sql_tokens("select a from t")


def test_numbers_keep_their_text():
    assert sql_tokens("SELECT 3, 3.0") == ["select", "3", ",", "3.0"]


def test_geoquery_gold_tokens():
    assert sql_tokens(GOLD)[:4] == ["select", "cityalias0", ".", "city_name"]
    assert "'texas'" in sql_tokens(GOLD)


def test_unterminated_string_falls_back_without_raising():
    assert sql_tokens("SELECT 'abc") == ["select", "'", "abc"]


def test_empty_sql_has_no_tokens():
    assert sql_tokens("") == []


def test_returns_a_fresh_list():
    tokens = sql_tokens("SELECT a")
    tokens.append("x")
    assert sql_tokens("SELECT a") == ["select", "a"]


def test_distance_zero_iff_same_tokens():
    assert token_distance(GOLD, GOLD.lower().replace('"', "'")) == 0.0
    assert token_distance("SELECT a FROM t", "SELECT a FROM u") > 0.0


def test_distance_one_substitution_of_four():
    assert token_distance("SELECT a FROM t", "SELECT b FROM t") == pytest.approx(0.25)


def test_distance_normalised_by_longer_sequence():
    assert token_distance("SELECT a FROM t", "SELECT a FROM t WHERE x = 1") == pytest.approx(4 / 8)


def test_distance_is_symmetric():
    a, b = "SELECT a FROM t ORDER BY a", "SELECT count(*) FROM t"
    assert token_distance(a, b) == token_distance(b, a)


def test_distance_bounds():
    assert token_distance("", "") == 0.0
    assert token_distance("", "SELECT 1") == 1.0
    assert token_distance("SELECT 1", "x y z") == 1.0


def test_distance_of_unparsable_sql_is_defined():
    assert 0.0 < token_distance("SELECT 'abc", "SELECT 'abc'") <= 1.0


def test_docstring_examples_run():
    results = doctest.testmod(sql_tokens_module)
    assert results.attempted > 0 and results.failed == 0

