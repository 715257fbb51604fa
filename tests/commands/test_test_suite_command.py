"""``textattack-semparse test-suite build``: a distilled test suite for a benchmark, end to end."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.cli import main
from textattack_semparse.errors import SchemaError
from textattack_semparse.test_suites.distillation import SuiteReport


def _build(tmp_path: Path, *extra: str) -> int:
    return main(["test-suite", "build", "--benchmark", "geo-mini", "--output-dir", str(tmp_path), *extra])


def test_builds_a_suite_for_geo_mini(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the progress bar shows on a terminal
    assert _build(tmp_path, "--candidates", "8") == 0
    out, err = capsys.readouterr()
    suite = tmp_path / "geo-mini"
    report = SuiteReport.from_json((suite / "report.json").read_text(encoding="utf-8"))
    assert report.benchmark == "geo-mini" and report.seed == 0 and report.candidates_tried <= 8
    assert report.databases, "the first fuzz databases separate some neighbours the original does not"
    assert sorted(path.name for path in suite.glob("*.sqlite")) == list(report.databases)
    assert all(name.startswith("fuzz-") for name in report.databases)
    assert report.original_database is not None and Path(report.original_database).is_file()
    assert report.gold_queries == 101 and report.neighbours_generated > 500
    assert report.distinguished_by_original <= report.distinguished_by_suite <= report.neighbours_valid
    assert report.gold_nonempty_on_every_database <= report.gold_nonempty_on_original
    assert "Test suite for geo-mini" in out and f"Wrote {suite / 'report.json'}" in out
    assert "fuzz databases" in err  # the progress bar
    for name in report.databases:  # the kept databases have the original's tables
        with sqlite3.connect(suite / name) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"state", "city", "border_info"} <= {table.lower() for table in tables}


def test_same_seed_same_suite_other_seed_other_databases(tmp_path: Path) -> None:
    assert _build(tmp_path / "a", "--candidates", "4", "--no-progress", "--seed", "5") == 0
    assert _build(tmp_path / "b", "--candidates", "4", "--no-progress", "--seed", "5") == 0
    assert _build(tmp_path / "c", "--candidates", "4", "--no-progress", "--seed", "6") == 0
    reports = [json.loads((tmp_path / run / "geo-mini" / "report.json").read_text()) for run in "abc"]
    for report in reports:
        report.pop("seconds")
    assert reports[0] == reports[1]
    assert reports[2]["seed"] == 6
    for name in reports[0]["databases"]:
        assert (tmp_path / "a" / "geo-mini" / name).read_bytes() == (tmp_path / "b" / "geo-mini" / name).read_bytes()


def test_refuses_to_overwrite_a_suite_without_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _build(tmp_path, "--candidates", "2", "--no-progress") == 0
    capsys.readouterr()
    assert _build(tmp_path, "--candidates", "2", "--no-progress") == 2
    assert "already holds a test suite" in capsys.readouterr().err
    assert _build(tmp_path, "--candidates", "2", "--no-progress", "--overwrite") == 0


def test_size_cap_and_neighbour_limit(tmp_path: Path) -> None:
    flags = ("--candidates", "10", "--max-databases", "1", "--neighbours-per-query", "3", "--no-progress")
    assert _build(tmp_path, *flags) == 0
    report = SuiteReport.from_json((tmp_path / "geo-mini" / "report.json").read_text())
    assert len(report.databases) <= 1 and report.max_databases == 1
    assert report.neighbours_generated <= 3 * report.gold_queries


def test_a_negative_count_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _build(tmp_path, "--candidates", "-1") == 2
    assert "non-negative integer" in capsys.readouterr().err


def test_a_benchmark_without_database_or_schema_is_refused() -> None:
    from textattack_semparse.experiments.test_suite import benchmark_schema
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
    from textattack_semparse.scoring.scoring import Scoring

    no_database = dataclasses.replace(
        load_benchmark("geo-mini"), name="logical-forms", scoring=Scoring(scorer=ExactMatchScorer())
    )
    with pytest.raises(SchemaError, match="'logical-forms' has neither one SQLite database nor a schema file"):
        benchmark_schema(no_database)


@pytest.mark.real_data
@pytest.mark.slow
def test_real_geoquery_and_scholar(tmp_path: Path, real_data_dir: Path) -> None:
    for name in ("geoquery", "scholar"):
        assert main([
            "test-suite", "build", "--benchmark", name, "--output-dir", str(tmp_path), "--data-dir", str(real_data_dir),
            "--candidates", "3", "--split-type", "query", "--split", "test", "--no-progress",
        ]) == 0
    geo = SuiteReport.from_json((tmp_path / "geoquery" / "report.json").read_text())
    scholar = SuiteReport.from_json((tmp_path / "scholar" / "report.json").read_text())
    assert geo.original_database is not None and geo.distinguished_by_original > 0
    assert geo.distinguished_by_suite >= geo.distinguished_by_original
    assert scholar.original_database is None and scholar.schema_source.endswith("scholar-schema.csv")
    assert scholar.databases and scholar.distinguished_by_suite > 0


def test_the_suite_is_what_load_benchmark_scores_on(tmp_path: Path) -> None:
    from textattack_semparse.datasets.benchmark import load_benchmark

    assert _build(tmp_path, "--candidates", "6", "--no-progress") == 0
    report = SuiteReport.from_json((tmp_path / "geo-mini" / "report.json").read_text())
    scored = load_benchmark("geo-mini", test_suite_dir=tmp_path)
    assert scored.databases.files == (
        Path(report.original_database),
        *(tmp_path / "geo-mini" / name for name in report.databases),
    )
    assert scored.database == Path(report.original_database)


def test_a_configured_suite_directory_does_not_stop_a_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A suite folder that kept no database (only report.json) would make scoring refuse the benchmark;
    building loads the benchmark as published."""
    from textattack_semparse.datasets.benchmark import clear_benchmark_cache

    assert _build(tmp_path, "--candidates", "0", "--no-progress") == 0
    assert not list((tmp_path / "geo-mini").glob("*.sqlite"))
    monkeypatch.setenv("SEMPARSE_TEST_SUITE_DIR", str(tmp_path))
    clear_benchmark_cache()
    assert _build(tmp_path, "--candidates", "2", "--no-progress", "--overwrite") == 0
    clear_benchmark_cache()
