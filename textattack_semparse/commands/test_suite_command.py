"""``textattack-semparse test-suite build``: distil a test suite of fuzzed databases for a benchmark.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/). See docs/test_suites.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.commands.output import non_negative_int, positive_seconds

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark
    from textattack_semparse.test_suites.distillation import SuiteReport
    from textattack_semparse.test_suites.schema import Schema

#: Default size cap: each database of a suite costs one more execution of every prediction, and
#: on GeoQuery the first dozen fuzz databases already separate nearly all the neighbours that
#: the fuzzer can separate at all (docs/test_suites.md has the measurements).
DEFAULT_MAX_DATABASES = 20
#: Default number of candidates tried: enough for the size cap at GeoQuery's keep rate, and a
#: few minutes at most on two cores.
DEFAULT_CANDIDATES = 200


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "test-suite",
        help="distilled test suites of fuzzed databases (Zhong et al. 2020)",
        description="Test suites for semantic (execution) evaluation of text-to-SQL: Zhong, Yu and Klein 2020, "
        "'Semantic Evaluation for Text-to-SQL with Distilled Test Suites'. See docs/test_suites.md.",
    )
    actions = parser.add_subparsers(dest="test_suite_action", required=True)
    build = actions.add_parser(
        "build",
        help="fuzz databases for a benchmark and keep those that tell gold queries from near-miss neighbours",
        description="Fuzz SQLite databases of a benchmark's schema, make near-miss neighbours of every gold query "
        "and keep, greedily, each database that distinguishes some gold query from a neighbour the suite does not "
        "distinguish yet. Writes DIR/<benchmark>/fuzz-<index>.sqlite and DIR/<benchmark>/report.json.",
    )
    build.add_argument(
        "--benchmark", required=True, metavar="NAME", help="registered benchmark (textattack-semparse list benchmark)"
    )
    build.add_argument(
        "--output-dir", required=True, type=Path, metavar="DIR", help="the suite goes to DIR/<benchmark>/"
    )
    build.add_argument(
        "--data-dir",
        metavar="DIR",
        help="folder of the real benchmarks (default: $SEMPARSE_DATA_DIR; geo-mini needs none)",
    )
    build.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the fuzz databases (default 0)")
    build.add_argument(
        "--max-databases",
        type=non_negative_int,
        default=DEFAULT_MAX_DATABASES,
        metavar="N",
        help=f"size cap: fuzz databases kept at most (default {DEFAULT_MAX_DATABASES})",
    )
    build.add_argument(
        "--candidates",
        type=non_negative_int,
        default=DEFAULT_CANDIDATES,
        metavar="N",
        help=f"fuzz databases tried at most (default {DEFAULT_CANDIDATES})",
    )
    build.add_argument(
        "--split",
        metavar="NAME",
        help="use the gold queries of this split only (train, dev, test, ...; default: all examples)",
    )
    build.add_argument(
        "--split-type", choices=("question", "query"), default="question", help="split family of --split"
    )
    build.add_argument(
        "--neighbours-per-query",
        type=non_negative_int,
        metavar="N",
        help="neighbours made per gold query at most (default: all)",
    )
    build.add_argument(
        "--timeout",
        type=positive_seconds,
        default=2.0,
        metavar="S",
        help="seconds a query may run on one database (default 2)",
    )
    build.add_argument("--overwrite", action="store_true", help="replace a suite already in DIR/<benchmark>/")
    build.add_argument("--no-progress", action="store_true", help="no progress bar")
    build.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.test_suites.distillation import distill_test_suite, prepare_suite_folder
    from textattack_semparse.test_suites.fuzz_database import FuzzDatabaseGenerator
    from textattack_semparse.test_suites.neighbour_queries import neighbour_queries

    started = time.monotonic()
    benchmark = load_benchmark(args.benchmark, data_dir=args.data_dir, use_test_suite=False)
    examples = benchmark.examples if args.split is None else benchmark.split(args.split_type, args.split)
    golds = sorted({example.gold for example in examples})
    schema, schema_source = _schema(benchmark)
    suite_dir = args.output_dir / benchmark.name
    prepare_suite_folder(suite_dir, overwrite=args.overwrite)  # refuse before the slow part
    schema = schema.with_join_keys(golds)
    columns = {table.name: [column.name for column in table.columns] for table in schema.tables}
    generator = FuzzDatabaseGenerator(schema, golds, original=benchmark.database, seed=args.seed)
    with _Bar(enabled=not args.no_progress) as bar:
        bar.start("neighbour queries", len(golds))
        neighbours = {}
        for gold in golds:
            neighbours[gold] = neighbour_queries(gold, columns=columns, limit=args.neighbours_per_query)
            bar.advance()
        bar.start("fuzz databases", args.candidates)
        report = distill_test_suite(
            golds,
            neighbours,
            generator.write,
            suite_dir,
            original=benchmark.database,
            max_databases=args.max_databases,
            candidates=args.candidates,
            timeout=args.timeout,
            seed=args.seed,
            benchmark=benchmark.name,
            schema_source=schema_source,
            overwrite=args.overwrite,
            progress=bar.distillation,
        )
    _print_report(report, suite_dir, time.monotonic() - started)
    return 0


def _schema(benchmark: Benchmark) -> tuple[Schema, str]:
    from textattack_semparse.errors import SchemaError
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


def _print_report(report: SuiteReport, suite_dir: Path, seconds: float) -> None:
    print(report.summary())
    print(f"Wrote {suite_dir / 'report.json'} and {len(report.databases)} databases in {suite_dir}")
    print(f"Built in {seconds:.1f} s (loading, neighbour queries and distillation)")


class _Bar:
    """A rich progress bar on standard error with one task at a time; silent when disabled."""

    def __init__(self, *, enabled: bool) -> None:
        self._progress: Any = None
        self._task: Any = None
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[note]}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
            )

    def __enter__(self) -> _Bar:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def start(self, description: str, total: int) -> None:
        if self._progress is not None:
            self._task = self._progress.add_task(description, total=total, note="")

    def advance(self) -> None:
        if self._progress is not None:
            self._progress.advance(self._task)

    def distillation(self, progress: Any) -> None:
        if self._progress is not None:
            self._progress.update(
                self._task, completed=progress.tried, note=f"kept {progress.kept}, {progress.pending} pairs pending"
            )
