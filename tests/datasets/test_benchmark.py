"""Tests for named benchmarks: geo-mini, the real GeoQuery and the "geo" fallback."""

from __future__ import annotations

import pickle
import re
import shutil
from collections import Counter
from pathlib import Path
from types import MappingProxyType

import pytest

from textattack_semparse.datasets.benchmark import Benchmark, benchmark_names, load_benchmark
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError, RecipeError, RegistryError
from textattack_semparse.registry import get_registry
from textattack_semparse.scoring import Databases, ExactMatchScorer, ExecutionScorer, Scoring
from textattack_semparse.sql.mysql_dump import cached_sqlite_from_dump
from textattack_semparse.sql.schema_perturbation import SCHEMA_PERTURBATIONS
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor


@pytest.fixture
def no_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SEMPARSE_DATA_DIR", raising=False)


def outcome_counts(examples: tuple[SemparseExample, ...], database: Path) -> Counter[str]:
    executor = SQLiteExecutor(database, timeout=30.0)
    counts: Counter[str] = Counter()
    for example in examples:
        result = executor.execute(example.gold)
        counts["error" if result.error else "non-empty" if result.rows else "empty"] += 1
    return counts


def test_names() -> None:
    schema_variants = {f"{base}-schema-{kind}" for base in ("geoquery", "spider") for kind in SCHEMA_PERTURBATIONS}
    assert benchmark_names() == tuple(sorted({
        "advising", "atis", "atis-lambda", "geo", "geo-lambda", "geo-mini", "geoquery", "jobs-lambda", "scholar",
        "spider", "sqa", "wikisql-weak", "wtq", "spider-hub", "wikisql-weak-hub", "wtq-hub", *schema_variants,
        "drspider", "robut-wtq", "robut-wikisql", "robut-sqa",  # released robustness benchmarks
        *(f"huang2021-{kind}{domain}" for kind in ("", "adversarial-", "black-box-") for domain in ("geo", "atis", "jobs")),
    }))
    assert all(get_registry().get("benchmark", name).description for name in benchmark_names())


def test_unknown_name_lists_names_and_closest_match() -> None:
    # More benchmarks than LISTED_NAMES: the message counts them and names the command that lists them.
    with pytest.raises(RegistryError, match=rf"Unknown benchmark 'geoqurey'\. Did you mean 'geoquery'\? "
                                            rf"{len(benchmark_names())} are registered\. Run `textattack-semparse list benchmark`"):
        load_benchmark("geoqurey")


def test_name_is_case_and_underscore_insensitive() -> None:
    assert load_benchmark("GEO_MINI").name == "geo-mini"


def test_geo_mini_benchmark(no_data_dir: None) -> None:
    geo = load_benchmark("geo-mini")
    assert geo.scoring.scorer == ExecutionScorer() and geo.database is not None and geo.database.is_file()
    assert len(geo.examples) >= 80 and isinstance(geo.examples, tuple)
    assert "written by textattack-semparse" in geo.source


def test_geo_falls_back_to_geo_mini_without_data_dir(no_data_dir: None) -> None:
    assert load_benchmark("geo").name == "geo-mini"


def test_geoquery_without_data_dir_names_the_fix(no_data_dir: None) -> None:
    with pytest.raises(DatasetError, match=r"'geoquery' reads the real data.*SEMPARSE_DATA_DIR.*--data-dir.*geo-mini"):
        load_benchmark("geoquery")


def test_geoquery_with_empty_data_dir_names_the_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"text2sql/geography\.json' does not exist"):
        load_benchmark("geoquery", data_dir=tmp_path)


def test_loads_are_cached(no_data_dir: None) -> None:
    assert load_benchmark("geo-mini") is load_benchmark("geo-mini")


def test_split_and_dataset(no_data_dir: None) -> None:
    geo = load_benchmark("geo-mini")
    test = geo.split("question", "test")
    assert test and all(example.question_split == "test" for example in test)
    assert len(geo.split("query", None)) == len(geo.examples)
    dataset = geo.dataset("question", "test")
    assert len(dataset) == len(test)
    assert dataset[0][0]["question"] == test[0].question and dataset[0][1] == test[0].gold


def test_unknown_split_lists_available(no_data_dir: None) -> None:
    with pytest.raises(DatasetError, match=r"'validation' does not exist.*benchmark 'geo-mini'.*dev, test, train"):
        load_benchmark("geo-mini").split("question", "validation")


def test_execution_scoring_without_databases_is_refused() -> None:
    with pytest.raises(RecipeError, match="ExecutionScorer runs queries and needs databases"):
        Scoring(ExecutionScorer())


def test_benchmark_without_database_scores_by_exact_match() -> None:
    benchmark = Benchmark("x", (), Scoring(ExactMatchScorer()))
    assert benchmark.database is None and benchmark.databases is None


def test_benchmark_with_database_root_has_no_single_database(tmp_path: Path) -> None:
    benchmark = Benchmark("x", (), Scoring(ExecutionScorer(), Databases.at(tmp_path)))
    assert benchmark.database is None and benchmark.databases.root == tmp_path


def test_benchmark_and_its_examples_pickle(no_data_dir: None) -> None:
    geo = load_benchmark("geo-mini")
    clone = pickle.loads(pickle.dumps(geo))
    assert clone == geo and clone.scoring == geo.scoring
    with_variables = next(example for example in clone.examples if example.variables)
    assert isinstance(with_variables.variables, MappingProxyType)


def test_benchmark_repr_is_short(no_data_dir: None) -> None:
    assert re.fullmatch(r"Benchmark\('geo-mini', \d+ examples, execution match \(classical\) on .*\.sqlite\)", repr(load_benchmark("geo-mini")))


@pytest.mark.parametrize("name", ["atis", "scholar", "advising", "spider", "geo-lambda", "jobs-lambda", "atis-lambda"])
def test_real_data_benchmarks_without_data_dir_name_the_fix(no_data_dir: None, name: str) -> None:
    with pytest.raises(DatasetError, match=rf"'{name}' reads the real data.*SEMPARSE_DATA_DIR"):
        load_benchmark(name)


def test_logical_form_benchmark_with_empty_data_dir_names_the_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"lambda/jobs/job_lambda_train\.tsv' does not exist"):
        load_benchmark("jobs-lambda", data_dir=tmp_path)


def test_spider_without_database_folder_names_it(tmp_path: Path) -> None:
    (tmp_path / "spider-dev").mkdir()
    (tmp_path / "spider-dev" / "dev.json").write_text("[]", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"spider-dev/database' .*does not exist"):
        load_benchmark("spider", data_dir=tmp_path)


# real data (SEMPARSE_DATA_DIR)


@pytest.mark.real_data
def test_geoquery_sizes_and_splits(data_dir: Path) -> None:
    geo = load_benchmark("geoquery", data_dir=data_dir)
    assert len(geo.examples) == 877
    assert [len(geo.split("question", s)) for s in ("train", "dev", "test")] == [549, 49, 279]
    assert [len(geo.split("query", s)) for s in ("train", "dev", "test")] == [536, 159, 182]
    assert geo.database == data_dir / "text2sql" / "geography.sqlite"


@pytest.mark.real_data
def test_geo_is_geoquery_with_data_dir(data_dir: Path) -> None:
    assert load_benchmark("geo", data_dir=data_dir).name == "geoquery"


@pytest.mark.real_data
def test_geoquery_gold_outcomes_on_shipped_sqlite(data_dir: Path) -> None:
    geo = load_benchmark("geoquery", data_dir=data_dir)
    assert geo.database is not None
    assert outcome_counts(geo.examples, geo.database) == Counter({"non-empty": 843, "empty": 29, "error": 5})


@pytest.mark.real_data
def test_geoquery_gold_outcomes_on_converted_dump(data_dir: Path) -> None:
    geo = load_benchmark("geoquery", data_dir=data_dir)
    database = cached_sqlite_from_dump(data_dir / "text2sql" / "geography-db.sql")
    assert outcome_counts(geo.examples, database) == Counter({"non-empty": 843, "empty": 29, "error": 5})


@pytest.mark.real_data
def test_geoquery_without_sqlite_uses_the_dump(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "text2sql"
    folder.mkdir()
    for name in ("geography.json", "geography-db.sql"):
        shutil.copy(data_dir / "text2sql" / name, folder / name)
    geo = load_benchmark("geoquery", data_dir=tmp_path)
    assert geo.database == cached_sqlite_from_dump(folder / "geography-db.sql")
    assert geo.database is not None and geo.database.is_file()


def split_sizes(name: str, data_dir: Path, split_type: str, splits: tuple[str, ...]) -> list[int]:
    benchmark = load_benchmark(name, data_dir=data_dir)
    return [len(benchmark.split(split_type, split)) for split in splits]


@pytest.mark.real_data
def test_atis_sizes_splits_and_database(data_dir: Path) -> None:
    atis = load_benchmark("atis", data_dir=data_dir)
    assert len(atis.examples) == 5280 and atis.scoring.scorer.name == "execution"
    assert atis.database == data_dir / "text2sql" / "atis.sqlite"
    assert split_sizes("atis", data_dir, "query", ("train", "dev", "test")) == [4812, 121, 347]
    assert split_sizes("atis", data_dir, "question", ("train", "dev", "test")) == [4347, 486, 447]


@pytest.mark.real_data
def test_scholar_has_no_database_and_scores_by_exact_match(data_dir: Path) -> None:
    scholar = load_benchmark("scholar", data_dir=data_dir)
    assert (len(scholar.examples), scholar.database, scholar.scoring.scorer.name) == (817, None, "exact")
    assert split_sizes("scholar", data_dir, "query", ("train", "dev", "test")) == [408, 94, 315]
    assert split_sizes("scholar", data_dir, "question", ("train", "dev", "test")) == [499, 100, 218]


@pytest.mark.real_data
def test_advising_has_no_database_and_an_exclude_split(data_dir: Path) -> None:
    advising = load_benchmark("advising", data_dir=data_dir)
    assert (len(advising.examples), advising.database, advising.scoring.scorer.name) == (4387, None, "exact")
    assert split_sizes("advising", data_dir, "query", ("train", "dev", "test")) == [2040, 515, 1832]
    assert split_sizes("advising", data_dir, "question", ("train", "dev", "test", "exclude")) == [2629, 229, 573, 956]


@pytest.mark.real_data
@pytest.mark.parametrize(
    ("name", "splits", "sizes"),
    [
        ("geo-lambda", ("train", "test"), [600, 280]),
        ("jobs-lambda", ("train", "test"), [500, 140]),
        ("atis-lambda", ("train", "dev", "test"), [4434, 491, 448]),
    ],
)
def test_logical_form_benchmarks_sizes_and_exact_metric(
    data_dir: Path, name: str, splits: tuple[str, ...], sizes: list[int]
) -> None:
    benchmark = load_benchmark(name, data_dir=data_dir)
    assert (benchmark.scoring.scorer.name, benchmark.databases) == ("exact", None)
    assert split_sizes(name, data_dir, "question", splits) == sizes
    assert len(benchmark.examples) == sum(sizes)


@pytest.mark.real_data
def test_logical_form_benchmarks_have_no_query_split(data_dir: Path) -> None:
    with pytest.raises(DatasetError, match=r"'test' does not exist in the query split.*available: none"):
        load_benchmark("geo-lambda", data_dir=data_dir).split("query", "test")


@pytest.mark.real_data
@pytest.mark.slow
def test_atis_query_split_test_gold_outcomes_at_the_default_timeout(data_dir: Path) -> None:
    """309 of the 347 gold queries return rows and 32 none; 6 (cross products of ``OR``-ed
    joins) do not finish within the goal functions' default 5 s (nor in minutes), so an
    attack or evaluation skips them as gold errors. The margins are wide: every other gold
    query takes under 2 s on a loaded 2-core machine."""
    atis = load_benchmark("atis", data_dir=data_dir)
    assert atis.database is not None
    executor = SQLiteExecutor(atis.database, timeout=5.0)
    counts: Counter[str] = Counter()
    for example in atis.split("query", "test"):
        result = executor.execute(example.gold)
        counts["timeout" if result.timed_out else "error" if result.error else "non-empty" if result.rows else "empty"] += 1
    assert counts == Counter({"non-empty": 309, "empty": 32, "timeout": 6})
