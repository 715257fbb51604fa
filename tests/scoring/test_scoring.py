"""Scoring.judge outcomes and scoring_for precedence (real SQLite databases and geo-mini)."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import Benchmark, load_benchmark
from textattack_semparse.errors import RecipeError, SchemaError
from textattack_semparse.scoring import Databases, ExactMatchScorer, ExecutionScorer, Judgement, Outcome, Scoring
from textattack_semparse.scoring.outcome import left_out_outcome
from textattack_semparse.scoring.scoring import scoring_for
from textattack_semparse.victims.prediction import Prediction

TEXAS = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "texas" ;'
OHIO = "SELECT capital FROM state WHERE state_name = 'ohio'"
BROKEN_GOLD = "SELECT capital FROM no_such_table"


@pytest.fixture(scope="module")
def geo() -> Benchmark:
    return load_benchmark("geo-mini")


@pytest.fixture
def geo_scoring(geo) -> Scoring:
    return geo.scoring


def numbers_db(path: Path, values: list[int]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x INT)")
        connection.executemany("INSERT INTO t VALUES (?)", [(value,) for value in values])
    connection.close()
    return path


class Victim:
    """Something scoring_for can inspect: a victim with or without a benchmark and database."""

    def __init__(self, benchmark=None, database=None) -> None:
        self.benchmark = benchmark
        self.database = database


class Bare:
    """A victim with neither attribute at all (e.g. a TextAttack classifier wrapper)."""


# --- judge -----------------------------------------------------------------------------------


def test_correct_prediction(geo_scoring):
    equivalent = "SELECT capital FROM state WHERE state_name = 'texas'"
    assert geo_scoring.judge(equivalent, TEXAS) == Judgement(Outcome.CORRECT, 0.0)


def test_wrong_prediction_carries_its_distance(geo_scoring):
    judgement = geo_scoring.judge(OHIO, TEXAS)
    assert judgement.outcome is Outcome.WRONG and 0.0 < judgement.distance <= 1.0 and judgement.detail == ""


def test_a_wrong_judgement_tokenises_the_queries_only_when_its_distance_is_read(geo_scoring, monkeypatch):
    from textattack_semparse.sql import execution as execution_module

    calls = []
    real = execution_module.token_distance
    monkeypatch.setattr(execution_module, "token_distance", lambda a, b: calls.append((a, b)) or real(a, b))
    execution_module.clear_caches()
    judgement = geo_scoring.judge(OHIO, TEXAS)
    assert judgement.outcome is Outcome.WRONG and calls == []  # what evaluate reads costs no tokenising
    assert judgement.distance == judgement.distance == max(real(OHIO, TEXAS), execution_module.MISMATCH_DISTANCE_FLOOR)
    assert calls == [(OHIO, TEXAS)]  # measured once, then kept


def test_a_judgement_measured_later_equals_pickles_and_hashes_as_the_measured_one():
    import pickle

    later, now = Judgement(Outcome.WRONG, lambda: 0.25), Judgement(Outcome.WRONG, 0.25)
    assert later == now and hash(later) == hash(now) and repr(later) == repr(now)
    assert pickle.loads(pickle.dumps(Judgement(Outcome.WRONG, lambda: 0.5))) == Judgement(Outcome.WRONG, 0.5)
    assert later != Judgement(Outcome.WRONG, 0.5) and later != Judgement(Outcome.CORRECT, 0.25)
    with pytest.raises(AttributeError, match="immutable"):
        now.outcome = Outcome.CORRECT


def test_prediction_that_fails_to_run_is_wrong(geo_scoring):
    assert geo_scoring.judge("SELECT nonsense", TEXAS).outcome is Outcome.WRONG


def test_empty_prediction_without_an_error_is_wrong(geo_scoring):
    assert geo_scoring.judge(Prediction(""), TEXAS).outcome is Outcome.WRONG


def test_victim_error_is_left_out_with_its_reason(geo_scoring):
    judgement = geo_scoring.judge(Prediction.failure(ValueError("no template")), TEXAS)
    assert judgement == Judgement(Outcome.VICTIM_ERROR, 0.0, "ValueError: no template")
    assert judgement.outcome.left_out


def test_victim_error_wins_over_a_gold_error(geo_scoring):
    judgement = geo_scoring.judge(Prediction.failure(RuntimeError("boom")), BROKEN_GOLD)
    assert judgement.outcome is Outcome.VICTIM_ERROR


def test_victim_error_is_judged_without_running_anything(tmp_path):
    scoring = Scoring(ExecutionScorer(), Databases.at(tmp_path))  # a root: would need a db_id
    assert scoring.judge(Prediction.failure(ValueError("x")), "SELECT 1").outcome is Outcome.VICTIM_ERROR


def test_gold_error_is_left_out_with_its_reason(geo_scoring):
    judgement = geo_scoring.judge(TEXAS, BROKEN_GOLD)
    assert judgement.outcome is Outcome.GOLD_ERROR and judgement.outcome.left_out
    assert "no_such_table" in judgement.detail and judgement.distance == 0.0


def test_gold_error_reports_why_and_none_for_a_good_gold(geo_scoring):
    assert "no_such_table" in geo_scoring.gold_error(BROKEN_GOLD)
    assert geo_scoring.gold_error(TEXAS) is None


def test_exact_match_has_no_gold_errors():
    assert Scoring(ExactMatchScorer()).gold_error("anything (") is None


def test_exact_match_judges_normalised_tokens():
    scoring = Scoring(ExactMatchScorer())
    assert scoring.judge("( A (b ))", "(a (b))").outcome is Outcome.CORRECT
    assert scoring.judge("(a c)", "(a b)").outcome is Outcome.WRONG


def test_per_db_id_root_judges_on_the_examples_database(tmp_path):
    numbers_db(tmp_path / "one" / "one.sqlite", [1])
    numbers_db(tmp_path / "two" / "two.sqlite", [2])
    scoring = Scoring(ExecutionScorer(), Databases.at(tmp_path))
    assert scoring.judge("SELECT 1", "SELECT x FROM t", "one").outcome is Outcome.CORRECT
    assert scoring.judge("SELECT 1", "SELECT x FROM t", "two").outcome is Outcome.WRONG


def test_per_db_id_root_without_a_db_id_is_a_configuration_error_not_a_gold_error(tmp_path):
    numbers_db(tmp_path / "one" / "one.sqlite", [1])
    scoring = Scoring(ExecutionScorer(), Databases.at(tmp_path))
    with pytest.raises(SchemaError, match="has none"):
        scoring.judge("SELECT 1", "SELECT x FROM t")
    with pytest.raises(SchemaError, match="'three'"):
        scoring.judge("SELECT 1", "SELECT x FROM t", "three")


def test_suite_judges_on_every_database(tmp_path):
    suite = Databases.suite([numbers_db(tmp_path / "a.sqlite", [1, 2]), numbers_db(tmp_path / "b.sqlite", [1, -2])])
    scoring = Scoring(ExecutionScorer(), suite)
    assert scoring.judge("SELECT x FROM t", "SELECT x FROM t WHERE x > 0").outcome is Outcome.WRONG
    assert scoring.judge("SELECT x FROM t WHERE x >= 1", "SELECT x FROM t WHERE x > 0").outcome is Outcome.CORRECT


def test_execution_scorer_without_databases_is_refused():
    with pytest.raises(RecipeError, match="ExecutionScorer runs queries and needs databases"):
        Scoring(ExecutionScorer())


def test_exact_match_needs_no_databases():
    assert Scoring(ExactMatchScorer()).databases is None


def test_describe_execution_on_one_file(geo_scoring, geo):
    assert geo_scoring.describe() == f"execution match (classical) on {geo.database}"


def test_describe_test_suite_on_a_root(tmp_path):
    scoring = Scoring(ExecutionScorer(mode="test-suite"), Databases.at(tmp_path))
    assert scoring.describe() == f"execution match (test-suite) on {tmp_path} (one database per db_id)"


def test_describe_exact_match():
    assert Scoring(ExactMatchScorer()).describe() == "exact match (no database)"


def test_markers_of_left_out_outcomes_are_recognised_in_logs():
    assert left_out_outcome("[victim error] ValueError: boom") is Outcome.VICTIM_ERROR
    assert left_out_outcome("[gold error] gold SQL failed") is Outcome.GOLD_ERROR
    assert left_out_outcome("SELECT 1") is None
    assert left_out_outcome("[wrong] looks like a marker") is None
    assert not Outcome.CORRECT.left_out and not Outcome.WRONG.left_out


# --- scoring_for -----------------------------------------------------------------------------


def exact_benchmark(name: str = "lambda-like") -> Benchmark:
    return Benchmark(name, (), Scoring(ExactMatchScorer()))


def test_benchmark_argument_wins_over_everything(geo, tmp_path):
    other = numbers_db(tmp_path / "other.sqlite", [1])
    victim = Victim(benchmark=exact_benchmark(), database=other)
    assert scoring_for(victim, benchmark=geo) is geo.scoring


def test_victims_benchmark_wins_over_its_database(geo, tmp_path):
    other = numbers_db(tmp_path / "other.sqlite", [1])
    assert scoring_for(Victim(benchmark=geo, database=other)) is geo.scoring


def test_victims_database_gives_classical_execution_match(tmp_path):
    database = numbers_db(tmp_path / "own.sqlite", [1])
    assert scoring_for(Victim(database=database)) == Scoring(ExecutionScorer(), Databases.at(database))


def test_victims_database_directory_is_a_per_db_id_root(tmp_path):
    assert scoring_for(Victim(database=tmp_path)).databases == Databases(root=tmp_path)


def test_victim_with_nothing_gets_exact_match():
    assert scoring_for(Victim()) == Scoring(ExactMatchScorer())
    assert scoring_for(Bare()) == Scoring(ExactMatchScorer())


def test_exact_match_benchmark_argument_wins_over_the_victims_database(tmp_path):
    database = numbers_db(tmp_path / "own.sqlite", [1])
    assert scoring_for(Victim(database=database), benchmark=exact_benchmark()).scorer == ExactMatchScorer()


def test_mode_override_changes_only_the_mode(geo):
    scoring = scoring_for(Victim(benchmark=geo), mode="test-suite")
    assert scoring.scorer == dataclasses.replace(geo.scoring.scorer, mode="test-suite")
    assert scoring.databases == geo.databases
    assert geo.scoring.scorer.mode == "classical"  # the benchmark is left as it was


def test_timeout_and_gold_timeout_overrides(geo):
    scorer = scoring_for(Victim(), benchmark=geo, timeout=1.5, gold_timeout=7.0).scorer
    assert (scorer.mode, scorer.timeout, scorer.gold_timeout) == ("classical", 1.5, 7.0)


def test_no_override_returns_the_benchmarks_own_scoring(geo):
    assert scoring_for(Victim(), benchmark=geo, mode=None, timeout=None, gold_timeout=None) is geo.scoring


def test_invalid_override_is_rejected_by_the_scorer(geo):
    with pytest.raises(ValueError, match="Unknown execution mode 'fast'"):
        scoring_for(Victim(), benchmark=geo, mode="fast")
    with pytest.raises(ValueError, match="gold_timeout must be a positive number"):
        scoring_for(Victim(), benchmark=geo, gold_timeout=0)


def test_overrides_are_refused_for_exact_match_benchmarks():
    with pytest.raises(RecipeError, match=r"benchmark 'lambda-like' is scored by exact match; mode applies only to "
                                          r"execution-scored benchmarks"):
        scoring_for(Victim(), benchmark=exact_benchmark(), mode="test-suite")


def test_overrides_are_refused_for_a_victim_without_database():
    with pytest.raises(RecipeError, match=r"Victim \(no database\) is scored by exact match; gold_timeout and timeout"):
        scoring_for(Victim(), timeout=1.0, gold_timeout=2.0)
