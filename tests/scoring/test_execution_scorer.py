"""ExecutionScorer: execution match on every database of a benchmark (real SQLite files)."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.errors import SchemaError
from textattack_semparse.scoring.execution_scorer import MODES, ExecutionScorer
from textattack_semparse.scoring.scorer import GoldError, Score, Scorer
from textattack_semparse.sql.sql_tokens import token_distance

TEXAS = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "texas" ;'
POSITIVE = "SELECT x FROM t WHERE x > 0"
EVERY_ROW = "SELECT x FROM t"
RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"


def numbers_db(path: Path, values: list[int]) -> Path:
    """A database with one table ``t(x)`` holding ``values``."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x INT)")
        connection.executemany("INSERT INTO t VALUES (?)", [(value,) for value in values])
    connection.close()
    return path


@pytest.fixture
def positives(tmp_path: Path) -> Path:
    """Every row positive: ``SELECT x FROM t`` cannot be told from the gold here."""
    return numbers_db(tmp_path / "positives.sqlite", [1, 2])


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """One negative row: tells ``SELECT x FROM t`` from ``... WHERE x > 0``."""
    return numbers_db(tmp_path / "mixed.sqlite", [1, -2])


@pytest.fixture
def geo_db() -> Path:
    return geo_mini_paths()[1]


def test_is_a_scorer_that_needs_databases():
    scorer = ExecutionScorer()
    assert isinstance(scorer, Scorer) and scorer.needs_databases and scorer.name == "execution"


def test_defaults():
    assert ExecutionScorer() == ExecutionScorer(mode="classical", timeout=5.0, gold_timeout=60.0, max_rows=10_000)


def test_modes_are_classical_and_test_suite():
    assert MODES == ("classical", "test-suite")


def test_only_the_test_suite_mode_compares_as_test_suite_sql_eval():
    assert [ExecutionScorer(mode=mode).test_suite for mode in MODES] == [False, True]


def test_equivalent_query_matches_with_zero_distance(geo_db):
    equivalent = "SELECT capital FROM state WHERE state_name = 'texas'"
    assert ExecutionScorer().score(equivalent, TEXAS, [geo_db]) == Score(match=True, distance=0.0)


def test_wrong_query_is_a_mismatch_with_a_positive_distance(geo_db):
    score = ExecutionScorer().score("SELECT capital FROM state WHERE state_name = 'ohio'", TEXAS, [geo_db])
    assert not score.match and 0.0 < score.distance <= 1.0


def test_prediction_that_fails_to_run_is_a_mismatch_not_an_exception(geo_db):
    assert not ExecutionScorer().score("not sql at all", TEXAS, [geo_db]).match


def test_prediction_that_writes_is_a_mismatch(positives):
    assert not ExecutionScorer().score("DROP TABLE t", POSITIVE, [positives]).match
    assert ExecutionScorer().score(EVERY_ROW, POSITIVE, [positives]).match  # the table is still there


def test_prediction_that_times_out_is_a_mismatch(positives):
    scorer = ExecutionScorer(timeout=0.2)
    assert not scorer.score(RUNAWAY, POSITIVE, [positives]).match


def test_gold_that_fails_raises_gold_error_naming_the_query(geo_db):
    with pytest.raises(GoldError, match="no_such_table"):
        ExecutionScorer().score("SELECT 1", "SELECT capital FROM no_such_table", [geo_db])


def test_gold_that_times_out_raises_gold_error_suggesting_gold_timeout(positives):
    with pytest.raises(GoldError, match="raise `gold_timeout`"):
        ExecutionScorer(gold_timeout=0.3).score("SELECT 1", RUNAWAY, [positives])


def test_check_gold_passes_a_good_gold_and_raises_for_a_failing_one(geo_db):
    ExecutionScorer().check_gold(TEXAS, [geo_db])
    with pytest.raises(GoldError):
        ExecutionScorer().check_gold("SELECT nothing FROM nowhere", [geo_db])


def test_no_database_is_a_schema_error():
    with pytest.raises(SchemaError, match="needs at least one database"):
        ExecutionScorer().score("SELECT 1", "SELECT 1", [])


def test_missing_database_file_is_a_schema_error_not_a_gold_error(tmp_path):
    with pytest.raises(SchemaError) as raised:
        ExecutionScorer().score("SELECT 1", "SELECT 1", [tmp_path / "missing.sqlite"])
    assert not isinstance(raised.value, GoldError)


def test_each_database_alone_judges_by_its_own_rows(positives, mixed):
    assert ExecutionScorer().score(EVERY_ROW, POSITIVE, [positives]).match
    assert not ExecutionScorer().score(EVERY_ROW, POSITIVE, [mixed]).match


def test_a_suite_of_two_databases_rejects_a_prediction_that_matches_on_only_one(positives, mixed):
    for suite in ([positives, mixed], [mixed, positives]):
        score = ExecutionScorer().score(EVERY_ROW, POSITIVE, suite)
        assert not score.match and score.distance > 0.0


def test_a_suite_accepts_a_prediction_that_matches_on_every_database(positives, mixed):
    assert ExecutionScorer().score("SELECT x FROM t WHERE x >= 1", POSITIVE, [positives, mixed]) == Score(True, 0.0)


def test_a_suite_raises_gold_error_when_the_gold_fails_on_any_database(tmp_path, positives):
    other_schema = tmp_path / "other.sqlite"
    with sqlite3.connect(other_schema) as connection:
        connection.execute("CREATE TABLE u (y INT)")
    connection.close()
    with pytest.raises(GoldError, match="other.sqlite"):
        ExecutionScorer().score(POSITIVE, POSITIVE, [positives, other_schema])


def test_classical_mode_requires_the_golds_column_order(tmp_path):
    db = tmp_path / "people.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE person (name TEXT, age INT)")
        connection.executemany("INSERT INTO person VALUES (?, ?)", [("ann", 30), ("bob", 41)])
    connection.close()
    gold, swapped = "SELECT name, age FROM person", "SELECT age, name FROM person"
    assert not ExecutionScorer().score(swapped, gold, [db]).match
    assert ExecutionScorer(mode="test-suite").score(swapped, gold, [db]).match


def test_mode_override_by_replace_keeps_the_other_settings(tmp_path):
    scorer = ExecutionScorer(timeout=2.0, gold_timeout=9.0, max_rows=50)
    overridden = dataclasses.replace(scorer, mode="test-suite")
    assert (overridden.mode, overridden.timeout, overridden.gold_timeout, overridden.max_rows) == (
        "test-suite",
        2.0,
        9.0,
        50,
    )
    assert scorer.mode == "classical"


def test_ordered_gold_requires_the_order(positives):
    gold = "SELECT x FROM t ORDER BY x DESC"
    assert not ExecutionScorer().score("SELECT x FROM t ORDER BY x ASC", gold, [positives]).match
    assert ExecutionScorer().score("SELECT x FROM t ORDER BY x ASC", "SELECT x FROM t", [positives]).match


def test_distance_is_the_sql_token_distance():
    predicted, gold = "SELECT a FROM t", "SELECT b FROM t"
    assert ExecutionScorer().distance(predicted, gold) == token_distance(predicted, gold)
    assert ExecutionScorer().distance(gold, gold) == 0.0


def test_scorer_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        ExecutionScorer().mode = "test-suite"  # type: ignore[misc]


def test_unknown_mode_names_the_modes_and_the_closest():
    with pytest.raises(ValueError, match=r"Unknown execution mode 'testsuite'; accepted: classical, test-suite\. "
                                         r"Did you mean 'test-suite'\?"):
        ExecutionScorer(mode="testsuite")


@pytest.mark.parametrize("name", ["timeout", "gold_timeout"])
@pytest.mark.parametrize("value", [0, -1.0, True, "5", None])
def test_timeouts_must_be_positive_numbers_of_seconds(name, value):
    with pytest.raises(ValueError, match=f"{name} must be a positive number of seconds"):
        ExecutionScorer(**{name: value})


@pytest.mark.parametrize("value", [0, -3, 1.5, True])
def test_max_rows_must_be_a_positive_int(value):
    with pytest.raises(ValueError, match="max_rows must be a positive int"):
        ExecutionScorer(max_rows=value)
