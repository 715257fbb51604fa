"""Benchmarks scored on a distilled test suite (Zhong, Yu and Klein 2020), as Zhuo et al. (2023) score.

The rule under test, from Zhong et al. §2: "a predicted query is counted as correct only if
its denotation matches the gold's on every database of the test suite".
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import Benchmark, clear_benchmark_cache, load_benchmark
from textattack_semparse.errors import SchemaError
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
from textattack_semparse.scoring.execution_scorer import ExecutionScorer
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.scoring.scoring import Scoring

LARGEST_STATE = "SELECT state_name FROM state ORDER BY population DESC LIMIT 1"


@pytest.fixture
def geo_mini(monkeypatch: pytest.MonkeyPatch) -> Benchmark:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    clear_benchmark_cache()
    return load_benchmark("geo-mini")


def largest_state(database: Path) -> str:
    with sqlite3.connect(database) as connection:
        return connection.execute(LARGEST_STATE).fetchone()[0]


@pytest.fixture
def suite_root(tmp_path: Path, geo_mini: Benchmark) -> Path:
    """A suite for geo-mini: a copy of its database where a new state outgrows every other."""
    folder = tmp_path / "suites" / "geo-mini"
    folder.mkdir(parents=True)
    fuzz = folder / "fuzz-0000.sqlite"
    shutil.copyfile(geo_mini.database, fuzz)
    with sqlite3.connect(fuzz) as connection:
        connection.execute(
            "INSERT INTO state (state_name, population, area, country_name, capital, density) "
            "VALUES ('atlantis', 999999999, 1.0, 'usa', 'poseidonia', 1.0)"
        )
    return tmp_path / "suites"


def test_the_suite_is_the_original_then_the_folders_databases(geo_mini: Benchmark, suite_root: Path):
    scored = load_benchmark("geo-mini", test_suite_dir=suite_root)
    assert scored.test_suite == suite_root / "geo-mini"
    assert scored.databases.files == (geo_mini.database, suite_root / "geo-mini" / "fuzz-0000.sqlite")
    assert scored.database == geo_mini.database
    assert isinstance(scored.scoring.scorer, ExecutionScorer) and scored.scoring.scorer.mode == "test-suite"
    assert scored.scoring.scorer.gold_timeout == geo_mini.scoring.scorer.gold_timeout
    assert scored.source.endswith(f"test suite {suite_root / 'geo-mini'}")


def test_a_prediction_right_on_one_database_only_is_wrong_on_the_suite(geo_mini: Benchmark, suite_root: Path):
    original_answer = largest_state(geo_mini.database)
    assert largest_state(suite_root / "geo-mini" / "fuzz-0000.sqlite") == "atlantis" != original_answer
    prediction = f"SELECT state_name FROM state WHERE state_name = '{original_answer}'"
    single = Scoring(ExecutionScorer(mode="test-suite"), Databases.at(geo_mini.database))
    assert single.judge(prediction, LARGEST_STATE).outcome is Outcome.CORRECT
    suite = load_benchmark("geo-mini", test_suite_dir=suite_root).scoring
    assert suite.judge(prediction, LARGEST_STATE).outcome is Outcome.WRONG
    assert suite.judge("SELECT state_name FROM state ORDER BY population DESC LIMIT 1", LARGEST_STATE).outcome is (
        Outcome.CORRECT
    )


def test_the_environment_variable_names_the_suite_folder(
    suite_root: Path, monkeypatch: pytest.MonkeyPatch, geo_mini: Benchmark
):
    monkeypatch.setenv("SEMPARSE_TEST_SUITE_DIR", str(suite_root))
    clear_benchmark_cache()
    assert load_benchmark("geo-mini").test_suite == suite_root / "geo-mini"
    clear_benchmark_cache()


def test_a_suite_folder_for_another_benchmark_changes_nothing(tmp_path: Path, geo_mini: Benchmark):
    (tmp_path / "scholar").mkdir()
    assert load_benchmark("geo-mini", test_suite_dir=tmp_path).test_suite is None


def test_an_empty_suite_folder_names_the_build_command(tmp_path: Path, geo_mini: Benchmark):
    with pytest.raises(SchemaError, match=r"holds no \*\.sqlite.*test-suite build --benchmark geo-mini"):
        geo_mini.with_test_suite(tmp_path)


def test_a_benchmark_without_a_database_becomes_execution_scored(tmp_path: Path, geo_mini: Benchmark):
    fuzz = tmp_path / "fuzz-0000.sqlite"
    shutil.copyfile(geo_mini.database, fuzz)
    exact = Benchmark("schema-only", geo_mini.examples, Scoring(ExactMatchScorer()))
    scored = exact.with_test_suite(tmp_path)
    assert scored.scoring.scorer == ExecutionScorer(mode="test-suite")
    assert scored.databases.files == (fuzz,)
    # Fuzzed databases are not the benchmark's own: victims must not read their planted values.
    assert scored.database is None


def test_per_db_id_benchmarks_keep_their_suites_beside_each_database(tmp_path: Path, geo_mini: Benchmark):
    shutil.copyfile(geo_mini.database, tmp_path / "fuzz-0000.sqlite")
    spider_like = Benchmark("per-db", (), Scoring(ExecutionScorer(), Databases(root=tmp_path)))
    with pytest.raises(SchemaError, match="one database per db_id"):
        spider_like.with_test_suite(tmp_path)
