"""Greedy test-suite distillation (Zhong, Yu and Klein 2020) on small SQLite databases built here."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from textattack_semparse.errors import DatasetError
from textattack_semparse.test_suites.distillation import (
    DistillationProgress,
    SuiteReport,
    distill_test_suite,
    fuzz_file_name,
)

ABOVE_100 = "SELECT city_name FROM city WHERE population > 100"
LARGEST = "SELECT MAX(population) FROM city"
GOLDS = [ABOVE_100, LARGEST]
NEIGHBOURS = {
    ABOVE_100: [
        "SELECT city_name FROM city WHERE population >= 100",  # needs a city of exactly 100
        "SELECT city_name FROM city",  # needs a city of at most 100
        "SELECT city_name FROM city WHERE population > 100 AND nowhere = 1",  # invalid: no such column
        "SELECT DISTINCT city_name FROM city WHERE population > 100",  # the comparison drops DISTINCT
    ],
    LARGEST: ["SELECT MIN(population) FROM city"],  # needs two different populations
}


def _database(path: Path, cities: Sequence[tuple[str, int]]) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE city (city_name TEXT, population INT)")
        db.executemany("INSERT INTO city VALUES (?, ?)", cities)
    db.close()
    return path


class Candidates:
    """Candidate ``i`` holds ``contents[i]`` (deterministic in the index); records what was asked."""

    def __init__(self, contents: Sequence[Sequence[tuple[str, int]]]) -> None:
        self.contents = contents
        self.written: list[int] = []

    def __call__(self, index: int, path: Path) -> Path:
        self.written.append(index)
        return _database(path, self.contents[index % len(self.contents)])


@pytest.fixture
def original(tmp_path: Path) -> Path:
    return _database(tmp_path / "original.sqlite", [("austin", 50), ("dallas", 200)])


def test_keeps_exactly_the_databases_that_distinguish_pending_pairs(tmp_path: Path, original: Path) -> None:
    # The original distinguishes "no WHERE" and MIN; candidate 0 (one city of 300) distinguishes
    # nothing; candidate 1 (a city of exactly 100) distinguishes ">= 100"; then nothing is pending.
    candidates = Candidates([[("houston", 300)], [("waco", 100)], [("tyler", 100), ("plano", 7)]])
    suite = tmp_path / "suite"
    report = distill_test_suite(GOLDS, NEIGHBOURS, candidates, suite, original=original, benchmark="tiny")
    assert candidates.written == [0, 1]
    assert report.databases == ("fuzz-0001.sqlite",)
    assert sorted(path.name for path in suite.iterdir()) == ["fuzz-0001.sqlite", "report.json"]
    assert report.candidates_tried == 2
    assert (report.neighbours_generated, report.neighbours_identical, report.neighbours_invalid) == (5, 1, 1)
    assert report.neighbours_valid == 3
    assert (report.distinguished_by_original, report.distinguished_by_suite, report.undistinguished) == (2, 3, 0)
    assert report.gold_queries == 2 and report.gold_failing == 0
    # On fuzz-0001 the only city has population 100: ABOVE_100 is empty there, LARGEST is not.
    assert (report.gold_nonempty_on_original, report.gold_nonempty_on_every_database) == (2, 1)
    assert report.gold_nonempty_share == 0.5
    assert report.original_database == str(original)


def test_the_size_cap_stops_the_search(tmp_path: Path, original: Path) -> None:
    below_1000 = "SELECT MAX(population) FROM city WHERE population < 1000"  # needs a city of 1000 or more
    neighbours = {**NEIGHBOURS, LARGEST: [*NEIGHBOURS[LARGEST], below_1000]}
    candidates = Candidates([[("waco", 100)], [("houston", 5000)]])
    capped = distill_test_suite(GOLDS, neighbours, candidates, tmp_path / "capped", original=original, max_databases=1)
    assert capped.databases == ("fuzz-0000.sqlite",) and capped.candidates_tried == 1
    assert capped.undistinguished == 1
    assert capped.undistinguished_examples == ((LARGEST, below_1000),)

    report = distill_test_suite(GOLDS, neighbours, candidates, tmp_path / "suite", original=original, max_databases=2)
    assert report.databases == ("fuzz-0000.sqlite", "fuzz-0001.sqlite") and report.undistinguished == 0

    empty = distill_test_suite(GOLDS, neighbours, candidates, tmp_path / "empty", original=original, max_databases=0)
    assert empty.databases == () and empty.candidates_tried == 0 and empty.undistinguished == 2


def test_stops_after_the_candidate_budget(tmp_path: Path, original: Path) -> None:
    candidates = Candidates([[("houston", 300)]])
    report = distill_test_suite(GOLDS, NEIGHBOURS, candidates, tmp_path / "suite", original=original, candidates=3)
    assert candidates.written == [0, 1, 2]
    assert report.databases == () and report.candidates_tried == 3 and report.undistinguished == 1
    assert list((tmp_path / "suite").iterdir()) == [tmp_path / "suite" / "report.json"]


def test_without_an_original_the_first_candidate_decides_validity(tmp_path: Path) -> None:
    candidates = Candidates([[("austin", 50), ("dallas", 200)], [("waco", 100)]])
    report = distill_test_suite(GOLDS, NEIGHBOURS, candidates, tmp_path / "suite")
    assert report.original_database is None
    assert report.distinguished_by_original is None and report.gold_nonempty_on_original is None
    assert report.neighbours_invalid == 1
    assert report.databases == ("fuzz-0000.sqlite", "fuzz-0001.sqlite")
    assert report.distinguished_by_suite == 3


def test_a_failing_gold_query_makes_its_neighbours_invalid(tmp_path: Path, original: Path) -> None:
    broken = "SELECT city_name FROM city WHERE population > ALL (SELECT 1)"
    report = distill_test_suite(
        [broken, LARGEST],
        {broken: ["SELECT city_name FROM city"], LARGEST: NEIGHBOURS[LARGEST]},
        Candidates([[("waco", 100)]]),
        tmp_path / "suite",
        original=original,
    )
    assert report.gold_failing == 1
    assert report.gold_failing_examples[0][0] == broken
    assert "syntax error" in report.gold_failing_examples[0][1]
    assert report.neighbours_invalid == 1 and report.distinguished_by_original == 1


def test_ordered_gold_compares_in_order(tmp_path: Path, original: Path) -> None:
    gold = "SELECT city_name FROM city ORDER BY population"
    report = distill_test_suite(
        [gold],
        {gold: ["SELECT city_name FROM city ORDER BY population DESC", "SELECT city_name FROM city"]},
        Candidates([[("houston", 300)]]),
        tmp_path / "suite",
        original=original,
        candidates=1,
    )
    # Reversed order differs; no ORDER BY returns the rows in insertion order, the same here.
    assert report.distinguished_by_original == 1 and report.undistinguished == 1


def test_is_reproducible(tmp_path: Path, original: Path) -> None:
    contents = [[("houston", 300)], [("waco", 100)], [("tyler", 100)]]
    first = distill_test_suite(GOLDS, NEIGHBOURS, Candidates(contents), tmp_path / "a", original=original, seed=3)
    second = distill_test_suite(GOLDS, NEIGHBOURS, Candidates(contents), tmp_path / "b", original=original, seed=3)
    assert first.databases == second.databases
    assert {**first.__dict__, "seconds": 0} == {**second.__dict__, "seconds": 0}
    for name in first.databases:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_report_round_trips_through_json(tmp_path: Path, original: Path) -> None:
    report = distill_test_suite(GOLDS, NEIGHBOURS, Candidates([[("waco", 100)]]), tmp_path / "suite", original=original)
    written = (tmp_path / "suite" / "report.json").read_text(encoding="utf-8")
    assert SuiteReport.from_json(written) == report
    assert '"gold_nonempty_share": 0.5' in written


def test_summary_names_the_figures(tmp_path: Path, original: Path) -> None:
    report = distill_test_suite(
        GOLDS, NEIGHBOURS, Candidates([[("waco", 100)]]), tmp_path / "suite", original=original, benchmark="tiny"
    )
    summary = report.summary()
    assert "Test suite for tiny" in summary
    assert "1 fuzz databases (of 1 tried, cap 20)" in summary
    assert "2 by the original alone, 3 by the suite, 0 not" in summary


def test_not_a_report_is_a_dataset_error() -> None:
    with pytest.raises(DatasetError, match="Not a test-suite report"):
        SuiteReport.from_json('{"benchmark": "geo"}')


def test_progress_is_reported_after_each_candidate(tmp_path: Path, original: Path) -> None:
    seen: list[DistillationProgress] = []
    distill_test_suite(
        GOLDS,
        NEIGHBOURS,
        Candidates([[("houston", 300)], [("waco", 100)]]),
        tmp_path / "suite",
        original=original,
        candidates=5,
        progress=seen.append,
    )
    assert seen == [
        DistillationProgress(tried=1, kept=0, pending=1, candidates=5),
        DistillationProgress(tried=2, kept=1, pending=0, candidates=5),
    ]


def test_an_existing_suite_is_kept_unless_overwrite(tmp_path: Path, original: Path) -> None:
    suite = tmp_path / "suite"
    distill_test_suite(GOLDS, NEIGHBOURS, Candidates([[("houston", 300)], [("waco", 100)]]), suite, original=original)
    with pytest.raises(DatasetError, match="already holds a test suite.*--overwrite"):
        distill_test_suite(GOLDS, NEIGHBOURS, Candidates([[("waco", 100)]]), suite, original=original)
    assert (suite / "fuzz-0001.sqlite").is_file()
    report = distill_test_suite(
        GOLDS, NEIGHBOURS, Candidates([[("waco", 100)]]), suite, original=original, overwrite=True
    )
    assert report.databases == ("fuzz-0000.sqlite",)
    assert sorted(path.name for path in suite.iterdir()) == ["fuzz-0000.sqlite", "report.json"]


def test_repeated_gold_queries_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="distinct"):
        distill_test_suite([LARGEST, LARGEST], {}, Candidates([[]]), tmp_path / "suite")


def test_fuzz_file_names_carry_the_candidate_index() -> None:
    assert fuzz_file_name(12) == "fuzz-0012.sqlite"


def test_a_dropped_distinct_is_identical_also_with_comma_joins(tmp_path: Path) -> None:
    from textattack_semparse.test_suites.neighbour_queries import neighbour_queries

    gold = (
        'SELECT DISTINCT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 , STATE AS STATEalias0 '
        'WHERE CITYalias0.STATE_NAME = STATEalias0.STATE_NAME AND STATEalias0.STATE_NAME = "texas" ;'
    )
    dropped = [query for query in neighbour_queries(gold) if query.startswith("SELECT CITYalias0.CITY_NAME")]
    assert len(dropped) == 1
    report = distill_test_suite([gold], {gold: dropped}, Candidates([[]]), tmp_path / "suite", candidates=0)
    assert report.neighbours_identical == 1 and report.neighbours_valid == 0


def test_a_time_out_decides_nothing(tmp_path: Path, original: Path) -> None:
    endless = (
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
        "SELECT city_name FROM city WHERE population > (SELECT MAX(x) FROM n)"
    )
    report = distill_test_suite(
        [ABOVE_100], {ABOVE_100: [endless]}, Candidates([[("waco", 100)]]), tmp_path / "suite",
        original=original, candidates=1, timeout=0.2,
    )
    assert report.neighbours_invalid == 0 and report.neighbours_valid == 1
    assert report.undistinguished == 1 and report.databases == ()
