"""A distilled test suite of fuzzed databases for a benchmark (docs/test_suites.md).

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/): fuzz SQLite databases of the benchmark's schema,
make near-miss neighbours of every gold query, and keep, greedily, each database that tells
some gold query from a neighbour the suite does not tell apart yet. Writes
``OUTPUT_DIR/<benchmark>/fuzz-<index>.sqlite`` and ``OUTPUT_DIR/<benchmark>/report.json``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.errors import ConfigurationError, SchemaError
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.seeding import DEFAULT_SEED

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark
    from textattack_semparse.test_suites.distillation import (
        DistillationProgress,
        SuiteReport,
    )
    from textattack_semparse.test_suites.schema import Schema

MAX_DATABASES = 20
"""Default size cap: each database of a suite costs one more execution of every prediction, and
on GeoQuery the first dozen fuzz databases already separate nearly all the neighbours that the
fuzzer can separate at all (docs/test_suites.md has the measurements)."""
CANDIDATES = 200
"""Default number of candidates tried: enough for the size cap at GeoQuery's keep rate, and a
few minutes at most on two cores."""
QUERY_TIMEOUT = 2.0
"""Seconds a query may run on one fuzz database while distilling."""


@dataclass(frozen=True)
class TestSuiteConfig:
    """What decides a test suite.

    Args:
        benchmark: A registered single-schema SQL benchmark (``geo-mini``, ``geoquery``, ``scholar``).
        output_dir: The suite goes to ``output_dir/<benchmark>/``.
        data_dir: Folder of the real benchmarks (default ``$SEMPARSE_DATA_DIR``).
        seed: Seed of the fuzz databases.
        max_databases: Fuzz databases kept at most.
        candidates: Fuzz databases tried at most.
        split, split_type: Use the gold queries of this split only (default: every example).
        neighbours_per_query: Neighbours made per gold query at most (``None``: all).
        timeout: Seconds a query may run on one database.
        overwrite: Replace a suite already there.
    """

    __test__ = False  # not a pytest test class, whatever its name

    benchmark: str
    output_dir: str | os.PathLike[str]
    data_dir: str | os.PathLike[str] | None = None
    seed: int = DEFAULT_SEED
    max_databases: int = MAX_DATABASES
    candidates: int = CANDIDATES
    split: str | None = None
    split_type: str = "question"
    neighbours_per_query: int | None = None
    timeout: float = QUERY_TIMEOUT
    overwrite: bool = False

    def __post_init__(self) -> None:
        for name, value in (("max_databases", self.max_databases), ("candidates", self.candidates)):
            if isinstance(value, bool) or value < 0:
                raise ConfigurationError(f"--{name.replace('_', '-')} must be 0 or a positive integer, got {value!r}.")
        if self.neighbours_per_query is not None and self.neighbours_per_query < 0:
            raise ConfigurationError(f"--neighbours-per-query must be 0 or more, got {self.neighbours_per_query}.")
        if not self.timeout > 0:
            raise ConfigurationError(f"--timeout must be a positive number of seconds, got {self.timeout!r}.")


@dataclass(frozen=True)
class TestSuiteResult:
    """The distillation's report, where the suite is, and how long building it took."""

    __test__ = False

    report: SuiteReport
    suite_dir: Path
    seconds: float


def run(config: TestSuiteConfig, context: RunContext | None = None) -> TestSuiteResult:
    """Build the test suite of ``config``."""
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.test_suites.distillation import (
        distill_test_suite,
        prepare_suite_folder,
    )
    from textattack_semparse.test_suites.fuzz_database import FuzzDatabaseGenerator
    from textattack_semparse.test_suites.neighbour_queries import neighbour_queries

    context = context or RunContext()
    started = time.monotonic()
    benchmark = load_benchmark(config.benchmark, data_dir=config.data_dir, use_test_suite=False)
    examples = benchmark.examples if config.split is None else benchmark.split(config.split_type, config.split)
    golds = sorted({example.gold for example in examples})
    schema, schema_source = benchmark_schema(benchmark)
    suite_dir = Path(config.output_dir) / benchmark.name
    prepare_suite_folder(suite_dir, overwrite=config.overwrite)  # refuse before the slow part
    schema = schema.with_join_keys(golds)
    columns = {table.name: [column.name for column in table.columns] for table in schema.tables}
    generator = FuzzDatabaseGenerator(schema, golds, original=benchmark.database, seed=config.seed)
    with context.progress(len(golds), "neighbour queries") as bar:
        neighbours = {}
        for gold in golds:
            neighbours[gold] = neighbour_queries(gold, columns=columns, limit=config.neighbours_per_query)
            bar.advance()
        bar.restart("fuzz databases", config.candidates)

        def show(progress: DistillationProgress) -> None:
            bar.set_completed(progress.tried)
            bar.describe(f"fuzz databases (kept {progress.kept}, {progress.pending} pairs pending)")

        report = distill_test_suite(
            golds,
            neighbours,
            generator.write,
            suite_dir,
            original=benchmark.database,
            max_databases=config.max_databases,
            candidates=config.candidates,
            timeout=config.timeout,
            seed=config.seed,
            benchmark=benchmark.name,
            schema_source=schema_source,
            overwrite=config.overwrite,
            progress=show,
        )
    return TestSuiteResult(report, suite_dir, time.monotonic() - started)


def benchmark_schema(benchmark: Benchmark) -> tuple[Schema, str]:
    """The schema a suite is fuzzed from: the benchmark's database, else its published schema
    file; and where it was read.

    Raises:
        SchemaError: The benchmark has neither.
    """
    from textattack_semparse.test_suites.schema import Schema

    if benchmark.database is not None:
        return Schema.from_sqlite(benchmark.database), str(benchmark.database)
    if benchmark.schema_file is not None:
        return Schema.from_text2sql_csv(benchmark.schema_file), str(benchmark.schema_file)
    raise SchemaError(
        f"Benchmark {benchmark.name!r} has neither one SQLite database nor a schema file, so no test suite can be "
        "fuzzed for it (benchmarks with one database per db_id, such as spider, and logical-form benchmarks are "
        "not supported). Use a single-schema SQL benchmark (geo-mini, geoquery, atis, scholar, advising), or give "
        "the benchmark a database or a text2sql-data '<stem>-schema.csv' (Benchmark.schema_file)."
    )
