"""Tests for textattack_semparse.sql.execution.execution_match on real SQLite databases.

The calls go through ``execution_match_at_defaults``: the scorer's default time limits, the
classical comparison unless ``test_suite=True``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.helpers import execution_match_at_defaults
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.execution_scorer import GOLD_TIMEOUT, TIMEOUT
from textattack_semparse.sql import execution as execution_module
from textattack_semparse.sql.execution import MISMATCH_DISTANCE_FLOOR, MatchOutcome, clear_caches
from textattack_semparse.sql.sqlite_executor import executor_for

GOLD = "SELECT city_name FROM city WHERE state_name = 'texas'"
ORDERED_GOLD = "SELECT city_name FROM city WHERE state_name = 'texas' ORDER BY population DESC"


def test_identical_query_matches_with_zero_distance(geo_db):
    outcome = execution_match_at_defaults(GOLD, GOLD, geo_db)
    assert outcome.match and outcome.distance == 0.0
    assert outcome.predicted == outcome.gold


def test_different_query_same_denotation_matches(geo_db):
    predicted = 'SELECT city_name FROM city WHERE population > 300000 AND state_name = "texas"'
    outcome = execution_match_at_defaults(predicted, GOLD, geo_db)
    assert outcome.match and outcome.distance == 0.0


def test_wrong_result_is_a_mismatch_with_token_distance(geo_db):
    predicted = "SELECT city_name FROM city WHERE state_name = 'ohio'"
    outcome = execution_match_at_defaults(predicted, GOLD, geo_db)
    assert not outcome.match
    assert outcome.distance == pytest.approx(1 / 8)
    assert outcome.predicted.rows == (("columbus",),)


def test_the_distance_is_computed_when_first_read_and_then_kept(geo_db, monkeypatch):
    calls = []
    real = execution_module.token_distance
    monkeypatch.setattr(execution_module, "token_distance", lambda a, b: calls.append((a, b)) or real(a, b))
    clear_caches()
    predicted = "SELECT city_name FROM city WHERE state_name = 'ohio'"
    outcome = execution_match_at_defaults(predicted, GOLD, geo_db)
    assert not outcome.match and calls == []  # judging alone never tokenises the queries
    assert outcome.distance == pytest.approx(1 / 8) and outcome.distance == pytest.approx(1 / 8)
    assert calls == [(predicted, GOLD)]
    assert execution_match_at_defaults(GOLD, GOLD, geo_db).distance == 0.0 and len(calls) == 1


def test_failing_prediction_is_a_mismatch_not_an_exception(geo_db):
    outcome = execution_match_at_defaults("SELECT city_name FROM cities", GOLD, geo_db)
    assert not outcome.match and "no such table" in outcome.predicted.error
    assert 0.0 < outcome.distance <= 1.0


def test_hostile_prediction_is_a_mismatch(geo_db, file_digest):
    before = file_digest(geo_db)
    outcome = execution_match_at_defaults("DROP TABLE city", GOLD, geo_db)
    assert not outcome.match and outcome.predicted.error
    assert file_digest(geo_db) == before


def test_timed_out_prediction_is_a_mismatch(geo_db):
    runaway = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"
    outcome = execution_match_at_defaults(runaway, GOLD, geo_db, timeout=0.5)
    assert not outcome.match and outcome.predicted.timed_out


def test_same_tokens_different_result_gets_the_floor(geo_db):
    # "state_name" resolves to the column in SQLite, 'state_name' is a string; same tokens.
    outcome = execution_match_at_defaults('SELECT "state_name" FROM state', "SELECT 'state_name' FROM state", geo_db)
    assert not outcome.match
    assert outcome.distance == MISMATCH_DISTANCE_FLOOR


def test_non_string_prediction_is_a_mismatch(geo_db):
    outcome = execution_match_at_defaults(None, GOLD, geo_db)
    assert not outcome.match and outcome.distance == 1.0


def test_order_ignored_when_gold_unordered(geo_db):
    predicted = "SELECT city_name FROM city WHERE state_name = 'texas' ORDER BY city_name DESC"
    assert execution_match_at_defaults(predicted, GOLD, geo_db).match


def test_order_matters_when_gold_ordered(geo_db):
    predicted = "SELECT city_name FROM city WHERE state_name = 'texas' ORDER BY city_name"
    assert not execution_match_at_defaults(predicted, ORDERED_GOLD, geo_db).match
    predicted = "SELECT city_name FROM city WHERE state_name = 'texas' ORDER BY population DESC"
    assert execution_match_at_defaults(predicted, ORDERED_GOLD, geo_db).match


def test_numeric_tolerance_applies(geo_db):
    gold = "SELECT count(*) FROM city"
    assert execution_match_at_defaults("SELECT sum(1.0) FROM city", gold, geo_db).match


def test_empty_gold_matches_empty_prediction(geo_db):
    gold = "SELECT city_name FROM city WHERE state_name = 'atlantis'"
    assert execution_match_at_defaults("SELECT capital FROM state WHERE area < 0", gold, geo_db).match


def test_failing_gold_raises_dataset_error_naming_query_and_database(geo_db):
    with pytest.raises(DatasetError, match=r"SELECT \* FROM stat.*geo\.sqlite.*no such table"):
        execution_match_at_defaults("SELECT 1", "SELECT * FROM stat", geo_db)


def test_timed_out_gold_suggests_raising_gold_timeout(geo_db):
    runaway = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"
    with pytest.raises(DatasetError, match="raise `gold_timeout`"):
        execution_match_at_defaults("SELECT 1", runaway, geo_db, gold_timeout=0.5)


def test_gold_runs_with_gold_timeout_and_prediction_with_timeout(geo_db):
    slow = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3000000) "
        "SELECT count(*) FROM c"
    )
    outcome = execution_match_at_defaults(slow, slow, geo_db, timeout=0.01, gold_timeout=30.0)
    assert outcome.gold.rows == ((3000000,),)
    assert not outcome.match and outcome.predicted.timed_out


def test_gold_timeout_must_be_a_positive_number(geo_db):
    with pytest.raises(ValueError, match="gold_timeout"):
        execution_match_at_defaults(GOLD, GOLD, geo_db, gold_timeout=0)


def test_results_are_cached_per_database_and_sql(geo_db):
    execution_match_at_defaults("SELECT 1", GOLD, geo_db)
    predicted_before = executor_for(geo_db, timeout=TIMEOUT).cache_info()
    gold_before = executor_for(geo_db, timeout=GOLD_TIMEOUT).cache_info()
    execution_match_at_defaults("SELECT 1", GOLD, str(geo_db))
    predicted_after = executor_for(geo_db, timeout=TIMEOUT).cache_info()
    gold_after = executor_for(geo_db, timeout=GOLD_TIMEOUT).cache_info()
    assert (predicted_after.hits - predicted_before.hits, predicted_after.misses - predicted_before.misses) == (1, 0)
    assert (gold_after.hits - gold_before.hits, gold_after.misses - gold_before.misses) == (1, 0)


def test_repeated_judgment_is_remembered_without_running_anything(geo_db):
    first = execution_match_at_defaults("SELECT city_name FROM city", GOLD, geo_db)
    before = executor_for(geo_db, timeout=TIMEOUT).cache_info(), executor_for(geo_db, timeout=GOLD_TIMEOUT).cache_info()
    again = execution_match_at_defaults("SELECT city_name FROM city", GOLD, geo_db)
    assert again is first
    assert (executor_for(geo_db, timeout=TIMEOUT).cache_info(), executor_for(geo_db, timeout=GOLD_TIMEOUT).cache_info()) == before


def test_judgments_differ_by_setting(geo_db):
    first = execution_match_at_defaults("SELECT city_name FROM city", GOLD, geo_db)
    assert execution_match_at_defaults("SELECT city_name FROM city", GOLD, geo_db, max_rows=2) is not first
    assert execution_match_at_defaults("SELECT city_name FROM city", GOLD, geo_db, test_suite=True) is not first


def test_cleared_caches_run_the_queries_again(geo_db):
    first = execution_match_at_defaults("SELECT city_name FROM city", GOLD, geo_db)
    clear_caches()
    again = execution_match_at_defaults("SELECT city_name FROM city", GOLD, geo_db)
    assert again == first and again is not first
    assert executor_for(geo_db, timeout=TIMEOUT).cache_info().misses == 1
    assert executor_for(geo_db, timeout=GOLD_TIMEOUT).cache_info().misses == 1


def test_oldest_judgment_is_forgotten_first(geo_db, monkeypatch):
    monkeypatch.setattr(execution_module, "MEMO_SIZE", 2)
    first = execution_match_at_defaults("SELECT 1", GOLD, geo_db)
    second = execution_match_at_defaults("SELECT 2", GOLD, geo_db)
    execution_match_at_defaults("SELECT 3", GOLD, geo_db)
    assert execution_match_at_defaults("SELECT 2", GOLD, geo_db) is second
    assert execution_match_at_defaults("SELECT 1", GOLD, geo_db) is not first


def test_unhashable_prediction_is_judged_not_remembered(geo_db):
    outcome = execution_match_at_defaults(["SELECT 1"], GOLD, geo_db)
    assert not outcome.match and "expected SQL text" in outcome.predicted.error
    assert execution_match_at_defaults(["SELECT 1"], GOLD, geo_db) is not outcome


def test_relative_database_path_is_read_in_the_current_directory(tmp_path, monkeypatch):
    answers = []
    for folder, value in (("a", 1), ("b", 2)):
        (tmp_path / folder).mkdir()
        with sqlite3.connect(tmp_path / folder / "db.sqlite") as connection:
            connection.execute("CREATE TABLE t (x INT)")
            connection.execute("INSERT INTO t VALUES (?)", (value,))
        connection.close()
        monkeypatch.chdir(tmp_path / folder)
        answers.append(execution_match_at_defaults("SELECT 1", "SELECT x FROM t", Path("db.sqlite")).gold.rows)
    assert answers == [((1,),), ((2,),)]


def test_prediction_equal_to_the_gold_reuses_the_gold_result(geo_db):
    outcome = execution_match_at_defaults(GOLD, GOLD, geo_db)
    assert outcome.match and outcome.predicted is outcome.gold
    assert executor_for(geo_db, timeout=TIMEOUT).cache_info().misses == 0  # the prediction's executor ran nothing


def test_prediction_already_run_as_a_gold_is_not_run_again(geo_db):
    other = "SELECT city_name FROM city WHERE state_name = 'ohio'"
    execution_match_at_defaults("SELECT 1", other, geo_db)
    outcome = execution_match_at_defaults(other, GOLD, geo_db)
    assert outcome.predicted is executor_for(geo_db, timeout=GOLD_TIMEOUT).cached(other)
    assert executor_for(geo_db, timeout=TIMEOUT).cache_info().misses == 1  # "SELECT 1" only


def test_gold_already_run_as_a_prediction_is_not_run_again(geo_db):
    execution_match_at_defaults(GOLD, "SELECT 1", geo_db)
    outcome = execution_match_at_defaults("SELECT 2", GOLD, geo_db)
    assert outcome.gold is executor_for(geo_db, timeout=TIMEOUT).cached(GOLD)
    assert executor_for(geo_db, timeout=GOLD_TIMEOUT).cache_info().misses == 1  # "SELECT 1" only


def test_gold_run_longer_than_the_prediction_limit_is_not_reused(geo_db):
    slow = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 1000000) "
        "SELECT count(*) FROM c"
    )
    execution_match_at_defaults("SELECT 1", slow, geo_db, timeout=0.01, gold_timeout=30.0)
    outcome = execution_match_at_defaults(slow, "SELECT 1", geo_db, timeout=0.01, gold_timeout=30.0)
    assert outcome.predicted.timed_out and not outcome.match


def test_classical_column_permuted_prediction_is_a_mismatch(geo_db):
    outcome = execution_match_at_defaults(
        "SELECT population, city_name FROM city", "SELECT city_name, population FROM city", geo_db
    )
    assert not outcome.match


def test_comparison_flag_must_be_a_bool(geo_db):
    with pytest.raises(TypeError, match="test_suite must be a bool, got str: 'test-suite'"):
        execution_match_at_defaults(GOLD, GOLD, geo_db, test_suite="test-suite")


def test_outcome_is_frozen_and_typed(geo_db):
    outcome = execution_match_at_defaults(GOLD, GOLD, geo_db)
    assert isinstance(outcome, MatchOutcome)
    with pytest.raises(AttributeError):
        outcome.match = False


@pytest.mark.real_data
def test_geoquery_gold_matches_itself_on_real_database(data_dir):
    database = data_dir / "text2sql" / "geography.sqlite"
    gold = (
        "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION = ( SELECT MAX( "
        'CITYalias1.POPULATION ) FROM CITY AS CITYalias1 WHERE CITYalias1.STATE_NAME = "arizona" ) AND '
        'CITYalias0.STATE_NAME = "arizona" ;'
    )
    assert execution_match_at_defaults(gold, gold, database).gold.rows == (("phoenix",),)
    wrong = gold.replace("MAX", "MIN")
    outcome = execution_match_at_defaults(wrong, gold, database)
    assert not outcome.match and 0.0 < outcome.distance < 0.1
