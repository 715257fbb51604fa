"""Tests for textattack_semparse.sql.sql_tokens: normalised tokens and token edit distance."""

from __future__ import annotations

import random

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


# --- the fast tokenizer reads plain SQL exactly as sqlglot does -------------------------------

#: Each case: SQL, and whether the fast tokenizer reads it (else sqlglot does).
FAST_EDGE_CASES = [
    ('SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.STATE_NAME = "texas" ;', True),
    ("SELECT a FROM t ORDER BY a", True),  # one token 'order by', as sqlglot reads it
    ("SELECT a FROM t GROUP\n\tBY a", True),
    ("SELECT order_id, by FROM t ORDER  BY order_id", True),
    ("SELECT a FROM t ORDER BYx", True),  # not the keyword
    ("SELECT 'it''s', \"a\"\"b\", ''", True),
    ("SELECT 'São Paulo', '12:00:00' FROM t", True),  # any character inside a string
    ("SELECT a FROM t WHERE a >= 1.5 AND b <> 2 AND c <=> d AND e != -3", True),
    ("", True),
    ("SELECT a FROM t ORDER /* x */ BY a", False),  # a comment splits the keyword for sqlglot
    ("SELECT a -- note\nFROM t", False),
    ("SELECT 'a\\'b'", False),  # a MySQL backslash escape
    ("SELECT N'x', X'1F'", False),  # prefixed strings
    ("SELECT 1e3, 0x1F, 1abc", False),  # literals glued to a number
    ("SELECT 1.5.2", False),
    ("SELECT 'a\"b'", False),  # the other quote inside a string
    ("SELECT `a b` FROM t", False),  # backticks
    ("SELECT ÄÖ FROM t", False),  # a word outside ASCII
    ("SELECT 'abc", False),  # an unterminated string
    ("SELECT a FROM t WHERE kind = USER-DEFINED", False),  # a keyword with punctuation
    ("SELECT @a, $b, a # b", False),
]


@pytest.mark.parametrize(("sql", "fast"), FAST_EDGE_CASES)
def test_fast_tokens_agree_with_sqlglot(sql, fast):
    tokens = sql_tokens_module._fast_tokens(sql)
    assert (tokens is not None) == fast
    if fast:
        assert tokens == sql_tokens_module._sqlglot_tokens(sql)
    assert sql_tokens(sql) == list(sql_tokens_module._sqlglot_tokens(sql))


def test_fast_tokens_agree_with_sqlglot_on_generated_text():
    pieces = [
        "SELECT", "a", "B1", "_x", "ORDER", "order", "BY", "by", "GROUP", "primary", "key", "double",
        "precision", "user", "defined", " ", "  ", "\n", "\t", "\r", "\x0b", "\u00a0", "1", "1.5", "0", "e",
        "N", "X", ".", "'", '"', "''", '""', "'a b'", '"x#y"', "'é'", "(", ")", ",", ";", "*", "=", "<", ">",
        "!", "+", "-", "/", "%", "<=>", "->", "--", "/*", "*/", "\\", "`", "#", "@", "$", ":", "é",
    ]
    rng = random.Random(12)
    read_fast = 0
    for _ in range(20_000):
        sql = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
        tokens = sql_tokens_module._fast_tokens(sql)
        if tokens is not None:
            read_fast += 1
            assert tokens == sql_tokens_module._sqlglot_tokens(sql), sql
    assert read_fast > 2_000  # the comparison is not vacuous


@pytest.mark.real_data
@pytest.mark.slow
@pytest.mark.parametrize("benchmark_name", ["geoquery", "atis", "scholar", "advising", "spider"])
def test_fast_tokens_agree_with_sqlglot_on_every_gold(real_data_dir, benchmark_name):
    from textattack_semparse.datasets.benchmark import load_benchmark

    benchmark = load_benchmark(benchmark_name, data_dir=real_data_dir, use_test_suite=False)
    golds = sorted({example.gold for example in benchmark.examples})
    read = {sql: sql_tokens_module._fast_tokens(sql) for sql in golds}
    reference = {sql: sql_tokens_module._sqlglot_tokens(sql) for sql, tokens in read.items() if tokens is not None}
    assert [sql for sql, tokens in reference.items() if tokens != read[sql]] == []
    # Nearly every gold is plain SQL (Advising's five exceptions hold a backslash).
    assert sum(tokens is None for tokens in read.values()) <= 5


def test_cleared_token_cache_reads_again():
    sql_tokens("SELECT cache_probe FROM t")
    sql_tokens_module.clear_token_cache()
    assert sql_tokens_module._cached_tokens.cache_info().currsize == 0
    assert sql_tokens("SELECT cache_probe FROM t") == ["select", "cache_probe", "from", "t"]
