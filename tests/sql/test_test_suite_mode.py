"""execution_match(test_suite=True): the semantics of test-suite-sql-eval's eval_exec_match.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/), with Spider's defaults. Every edge case runs
on a small real SQLite database and is checked against the classical comparison too, with the
scorer's default time limits (``tests.helpers.execution_match_at_defaults``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.helpers import execution_match_at_defaults
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.execution_scorer import GOLD_TIMEOUT
from textattack_semparse.sql.denotation import denotations_match_test_suite, query_is_ordered_test_suite
from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.sql.sqlite_executor import executor_for
from textattack_semparse.sql.suite_preparation import prepare_for_test_suite, remove_distinct

SINGERS = [
    (1001, "joe sharp", "netherlands", 52),
    (1002, "timbaland", "united states", 32),
    (1003, "justin brown", "france", 29),
    (1004, "rose white", "france", 41),
]
RUNAWAY_CTE = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"


@pytest.fixture
def concert_db(tmp_path: Path) -> Path:
    """A Spider-like concert_singer database, plus one TEXT value that is not valid UTF-8."""
    path = tmp_path / "concert_singer.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE singer (singer_id INTEGER, name TEXT, country TEXT, age INTEGER)")
        connection.executemany("INSERT INTO singer VALUES (?, ?, ?, ?)", SINGERS)
        connection.execute("CREATE TABLE stadium (stadium_id INTEGER, name TEXT)")
        # Latin-1 bytes of 'café': invalid UTF-8, as some Spider databases hold.
        connection.execute("INSERT INTO stadium VALUES (1, CAST(X'636166E9' AS TEXT))")
    connection.close()
    return path


def both_modes(predicted: str, gold: str, database: Path, **kwargs) -> tuple[bool, bool]:
    """(classical match, test-suite match)."""
    return (
        execution_match_at_defaults(predicted, gold, database, test_suite=False, **kwargs).match,
        execution_match_at_defaults(predicted, gold, database, test_suite=True, **kwargs).match,
    )


# --- columns -------------------------------------------------------------------------------


def test_column_permuted_prediction_matches_in_test_suite_only(concert_db):
    gold = "SELECT name, age FROM singer WHERE country = 'france'"
    predicted = "SELECT age, name FROM singer WHERE country = 'france'"
    assert both_modes(predicted, gold, concert_db) == (False, True)


def test_column_permuted_prediction_with_extra_column_is_a_mismatch(concert_db):
    gold = "SELECT name, age FROM singer"
    assert both_modes("SELECT age, name, country FROM singer", gold, concert_db) == (False, False)


# --- values --------------------------------------------------------------------------------


def test_float_values_compare_exactly_without_tolerance(concert_db):
    assert both_modes("SELECT 14.999999999999998", "SELECT 15", concert_db) == (True, False)


def test_single_column_int_matches_float_by_python_equality(concert_db):
    gold = "SELECT count(*) FROM singer WHERE country = 'france'"
    predicted = "SELECT sum(1.0) FROM singer WHERE country = 'france'"
    outcome = execution_match_at_defaults(predicted, gold, concert_db, test_suite=True)
    assert (outcome.gold.rows, outcome.predicted.rows) == (((2,),), ((2.0,),))
    assert outcome.match


def test_multi_column_int_against_float_is_rejected_by_the_row_precheck(concert_db):
    gold = "SELECT count(*), max(singer_id) FROM singer WHERE country = 'netherlands'"
    predicted = "SELECT sum(1.0), max(singer_id) FROM singer WHERE country = 'netherlands'"
    outcome = execution_match_at_defaults(predicted, gold, concert_db, test_suite=True)
    assert (outcome.gold.rows, outcome.predicted.rows) == (((1, 1001),), ((1.0, 1001),))
    assert not outcome.match
    assert execution_match_at_defaults(predicted, gold, concert_db, test_suite=False).match


def test_different_values_are_a_mismatch(concert_db):
    gold = "SELECT name FROM singer WHERE country = 'france'"
    assert both_modes("SELECT name FROM singer WHERE age > 40", gold, concert_db) == (False, False)


# --- DISTINCT ------------------------------------------------------------------------------


def test_distinct_removed_from_the_gold(concert_db):
    gold = "SELECT DISTINCT country FROM singer"
    assert both_modes("SELECT country FROM singer", gold, concert_db) == (False, True)


def test_distinct_removed_from_the_prediction(concert_db):
    gold = "SELECT country FROM singer"
    assert both_modes("SELECT DISTINCT country FROM singer", gold, concert_db) == (False, True)


def test_distinct_removed_inside_count(concert_db):
    gold = "SELECT count(DISTINCT country) FROM singer"
    outcome = execution_match_at_defaults("SELECT count(country) FROM singer", gold, concert_db, test_suite=True)
    assert outcome.match and outcome.gold.rows == ((4,),)
    assert not execution_match_at_defaults("SELECT count(country) FROM singer", gold, concert_db).match


def test_distinct_in_a_literal_or_is_distinct_from_is_kept(concert_db):
    gold = "SELECT name FROM singer WHERE country IS NOT DISTINCT FROM 'france' AND name != 'distinct'"
    predicted = "SELECT name FROM singer WHERE country = 'france'"
    assert both_modes(predicted, gold, concert_db) == (True, True)
    assert remove_distinct(gold) == gold


def test_distinct_kept_when_sqlglot_cannot_tokenize():
    assert remove_distinct("SELECT DISTINCT name FROM singer WHERE name = 'open") == (
        "SELECT DISTINCT name FROM singer WHERE name = 'open"
    )


# --- order ---------------------------------------------------------------------------------


def test_order_by_only_in_a_subquery_makes_the_gold_ordered_in_test_suite(concert_db):
    gold = (
        "SELECT name FROM singer WHERE age > (SELECT age FROM singer ORDER BY age LIMIT 1)"
    )  # rows in table order: joe sharp, timbaland, rose white
    predicted = "SELECT name FROM singer WHERE age > 29 ORDER BY name"
    outcome = execution_match_at_defaults(predicted, gold, concert_db, test_suite=True)
    assert outcome.gold.rows == (("joe sharp",), ("timbaland",), ("rose white",))
    assert not outcome.match
    assert execution_match_at_defaults(predicted, gold, concert_db, test_suite=False).match
    assert query_is_ordered_test_suite(gold)


def test_prediction_order_by_is_ignored_when_gold_unordered(concert_db):
    gold = "SELECT name FROM singer WHERE country = 'france'"
    predicted = "SELECT name FROM singer WHERE country = 'france' ORDER BY name DESC"
    assert both_modes(predicted, gold, concert_db) == (True, True)


def test_prediction_without_order_by_matches_an_ordered_gold_in_the_same_order(concert_db):
    gold = "SELECT name FROM singer ORDER BY singer_id"
    assert both_modes("SELECT name FROM singer", gold, concert_db) == (True, True)


def test_ordered_gold_rejects_the_same_rows_in_another_order(concert_db):
    gold = "SELECT name FROM singer ORDER BY age"
    assert both_modes("SELECT name FROM singer ORDER BY age DESC", gold, concert_db) == (False, False)


def test_order_by_must_be_one_space_as_in_the_original():
    assert query_is_ordered_test_suite("SELECT name FROM singer order by age")
    assert not query_is_ordered_test_suite("SELECT name FROM singer ORDER\n BY age")


# --- statements and operators --------------------------------------------------------------


def test_only_the_first_statement_of_the_prediction_is_judged(concert_db):
    gold = "SELECT name FROM singer"
    outcome = execution_match_at_defaults("SELECT name FROM singer; SELECT 1", gold, concert_db, test_suite=True)
    assert outcome.match
    classical = execution_match_at_defaults("SELECT name FROM singer; SELECT 1", gold, concert_db)
    assert not classical.match and "one statement" in classical.predicted.error


def test_only_the_first_statement_of_the_gold_is_run_and_checked_for_order(concert_db):
    gold = "SELECT name FROM singer; SELECT name FROM singer ORDER BY name"
    predicted = "SELECT name FROM singer ORDER BY name DESC"
    assert execution_match_at_defaults(predicted, gold, concert_db, test_suite=True).match
    with pytest.raises(DatasetError):
        execution_match_at_defaults(predicted, gold, concert_db, test_suite=False)


def test_hostile_second_statement_is_never_run(concert_db, file_digest):
    before = file_digest(concert_db)
    outcome = execution_match_at_defaults("SELECT 1; DROP TABLE singer", "SELECT 1", concert_db, test_suite=True)
    assert outcome.match
    assert not execution_match_at_defaults("DROP TABLE singer", "SELECT 1", concert_db, test_suite=True).match
    assert file_digest(concert_db) == before


def test_spaced_comparison_operators_are_repaired(concert_db):
    gold = "SELECT name FROM singer WHERE age >= 41 AND country != 'france'"
    predicted = "SELECT name FROM singer WHERE age > = 41 AND country ! = 'france'"
    assert both_modes(predicted, gold, concert_db) == (False, True)
    spaced_gold = "SELECT name FROM singer WHERE age < = 52 AND age > = 41 AND country ! = 'france'"
    assert execution_match_at_defaults(gold, spaced_gold, concert_db, test_suite=True).match


def test_current_year_is_replaced_by_2020(concert_db):
    gold = "SELECT name FROM singer WHERE YEAR(CURDATE()) - age < 1980"
    outcome = execution_match_at_defaults("SELECT name FROM singer WHERE age > 40", gold, concert_db, test_suite=True)
    assert outcome.match and len(outcome.gold.rows) == 2


# --- result shapes -------------------------------------------------------------------------


def test_empty_results_with_different_column_counts_match(concert_db):
    gold = "SELECT name FROM singer WHERE age > 100"
    assert both_modes("SELECT name, age, country FROM singer WHERE age < 0", gold, concert_db) == (True, True)


def test_different_row_counts_are_a_mismatch(concert_db):
    gold = "SELECT name FROM singer WHERE country = 'france'"
    assert both_modes("SELECT name FROM singer", gold, concert_db) == (False, False)


def test_empty_prediction_against_non_empty_gold_is_a_mismatch(concert_db):
    assert both_modes("SELECT name FROM singer WHERE age < 0", "SELECT name FROM singer", concert_db) == (False, False)


# --- text, failures and time limits --------------------------------------------------------


def test_undecodable_text_is_tolerated(concert_db):
    gold = "SELECT name FROM stadium"
    outcome = execution_match_at_defaults("SELECT name FROM stadium WHERE stadium_id = 1", gold, concert_db, test_suite=True)
    assert outcome.match and outcome.gold.rows == (("caf",),)
    with pytest.raises(DatasetError, match="decode"):
        execution_match_at_defaults(gold, gold, concert_db, test_suite=False)


def test_undecodable_text_in_a_prediction_fails_only_in_classical(concert_db):
    gold = "SELECT count(*) FROM stadium"
    predicted = "SELECT count(name) FROM stadium WHERE name LIKE 'caf%'"
    assert both_modes(predicted, gold, concert_db) == (True, True)  # no text is returned
    classical = execution_match_at_defaults("SELECT name FROM stadium", "SELECT 'caf'", concert_db)
    assert not classical.match and "decode" in classical.predicted.error
    assert execution_match_at_defaults("SELECT name FROM stadium", "SELECT 'caf'", concert_db, test_suite=True).match


def test_failing_prediction_is_a_mismatch(concert_db):
    outcome = execution_match_at_defaults("SELECT name FROM singers", "SELECT name FROM singer", concert_db, test_suite=True)
    assert not outcome.match and "no such table" in outcome.predicted.error


def test_timed_out_gold_raises_dataset_error_naming_gold_timeout(concert_db):
    with pytest.raises(DatasetError, match="raise `gold_timeout`"):
        execution_match_at_defaults("SELECT 1", RUNAWAY_CTE, concert_db, test_suite=True, gold_timeout=0.3)


def test_timed_out_prediction_is_a_mismatch(concert_db):
    outcome = execution_match_at_defaults(RUNAWAY_CTE, "SELECT 1", concert_db, test_suite=True, timeout=0.3)
    assert not outcome.match and outcome.predicted.timed_out


def test_failing_gold_names_the_query_as_run(concert_db):
    with pytest.raises(DatasetError, match=r"SELECT DISTINCT x FROM nowhere.*run as 'SELECT  x FROM nowhere'"):
        execution_match_at_defaults("SELECT 1", "SELECT DISTINCT x FROM nowhere", concert_db, test_suite=True)


def test_gold_result_is_cached_once_per_database(concert_db):
    gold = "SELECT name FROM singer WHERE country = 'france'"
    execution_match_at_defaults("SELECT 1", gold, concert_db, test_suite=True)
    gold_executor = executor_for(concert_db, timeout=GOLD_TIMEOUT, text_errors="ignore")
    before = gold_executor.cache_info()
    execution_match_at_defaults("SELECT 2", gold, concert_db, test_suite=True)
    after = gold_executor.cache_info()
    assert (after.hits - before.hits, after.misses - before.misses) == (1, 0)


# --- the comparison on its own -------------------------------------------------------------


def result(*rows: tuple) -> ExecutionResult:
    width = len(rows[0]) if rows else 0
    return ExecutionResult(rows=tuple(rows), columns=tuple(f"c{i}" for i in range(width)))


def test_comparison_needs_a_consistent_column_permutation():
    gold = result((1, "a"), (2, "b"))
    assert denotations_match_test_suite(result(("a", 1), ("b", 2)), gold, ordered=False)
    # Each column's values agree, but no single permutation makes the rows agree.
    assert not denotations_match_test_suite(result((1, "b"), (2, "a")), gold, ordered=False)


def test_comparison_counts_duplicate_rows():
    gold = result(("a",), ("a",), ("b",))
    assert not denotations_match_test_suite(result(("a",), ("b",), ("b",)), gold, ordered=False)


def test_comparison_failed_or_truncated_results():
    gold = result((1,))
    assert not denotations_match_test_suite(ExecutionResult.failure("boom"), gold, ordered=False)
    truncated = ExecutionResult(rows=((1,),), columns=("c0",), truncated=True)
    assert not denotations_match_test_suite(truncated, gold, ordered=False)


def test_prepare_applies_every_rewrite():
    assert prepare_for_test_suite("SELECT DISTINCT a FROM t WHERE b > = 1; DROP TABLE t") == (
        "SELECT  a FROM t WHERE b >= 1;"
    )


def test_remove_distinct_finds_the_keyword_spelled_with_a_dotless_i():
    # sqlglot's tokenizer upper-cases words, and "ı".upper() == "I": the text pre-check must agree.
    assert remove_distinct("SELECT DıSTINCT a FROM t") == "SELECT  a FROM t"


DISTINCT_EDGE_CASES = [
    ("SELECT DISTINCT state_name, COUNT(distinct city_name) FROM city", True),
    ("select distinct(x) from t", True),
    ("SELECT a FROM t WHERE a IS NOT DISTINCT FROM b", False),  # IS [NOT] DISTINCT FROM: the tokenizer decides
    ("SELECT DISTINCT FROM t", False),
    ("SELECT distinct_name FROM t", False),  # not the keyword alone
    ("SELECT t.distinct FROM t", False),
    ("SELECT DISTINCT name FROM t WHERE name = 'distinct'", True),  # in a literal: kept
    ("SELECT DISTINCT name FROM t -- distinct", True),  # in a comment: kept
    ("SELECT DISTINCT name FROM t WHERE name = 'it\\'s'", False),  # a backslash
    ("SELECT DıSTINCT name FROM t", False),  # not ASCII
]


@pytest.mark.parametrize(("sql", "settled_by_text"), DISTINCT_EDGE_CASES)
def test_distinct_removal_from_text_agrees_with_the_tokenizer(sql, settled_by_text):
    from textattack_semparse.sql import suite_preparation

    from_text = suite_preparation._distinct_removed_from_text(sql)
    assert (from_text is not None) == settled_by_text
    if settled_by_text:
        assert from_text == suite_preparation._distinct_removed_by_tokens(sql)
    assert remove_distinct(sql) == suite_preparation._distinct_removed_by_tokens(sql)


@pytest.mark.real_data
@pytest.mark.slow
@pytest.mark.parametrize("benchmark_name", ["geoquery", "atis", "spider"])
def test_distinct_removal_from_text_agrees_with_the_tokenizer_on_every_gold(real_data_dir, benchmark_name):
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.sql import suite_preparation

    benchmark = load_benchmark(benchmark_name, data_dir=real_data_dir, use_test_suite=False)
    golds = sorted({example.gold for example in benchmark.examples if "DISTINCT" in example.gold.upper()})
    settled = {sql: suite_preparation._distinct_removed_from_text(sql) for sql in golds}
    assert [sql for sql, text in settled.items() if text is not None and text != suite_preparation._distinct_removed_by_tokens(sql)] == []
    assert sum(text is not None for text in settled.values()) >= len(golds) * 0.9  # the point: the text mostly settles it
