"""``textattack-semparse test-suite build``: distil a test suite of fuzzed databases for a benchmark
(:mod:`textattack_semparse.experiments.test_suite`; docs/test_suites.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from textattack_semparse.commands.arguments import (
    non_negative_int,
    positive_seconds,
    run_context,
    seed_parent,
)
from textattack_semparse.experiments import test_suite
from textattack_semparse.project import docs_url


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "test-suite",
        epilog=f"Documentation: {docs_url('test_suites.md')}",
        help="distilled test suites of fuzzed databases (Zhong et al. 2020)",
        description="Test suites for semantic (execution) evaluation of text-to-SQL: Zhong, Yu and Klein 2020, "
        "'Semantic Evaluation for Text-to-SQL with Distilled Test Suites'.",
    )
    actions = parser.add_subparsers(dest="test_suite_action", required=True)
    build = actions.add_parser(
        "build",
        help="fuzz databases for a benchmark and keep those that tell gold queries from near-miss neighbours",
        description=test_suite.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[seed_parent()],
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
    build.add_argument(
        "--max-databases",
        type=non_negative_int,
        default=test_suite.MAX_DATABASES,
        metavar="N",
        help=f"size cap: fuzz databases kept at most (default {test_suite.MAX_DATABASES})",
    )
    build.add_argument(
        "--candidates",
        type=non_negative_int,
        default=test_suite.CANDIDATES,
        metavar="N",
        help=f"fuzz databases tried at most (default {test_suite.CANDIDATES})",
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
        default=test_suite.QUERY_TIMEOUT,
        metavar="S",
        help=f"seconds a query may run on one database (default {test_suite.QUERY_TIMEOUT:g})",
    )
    build.add_argument("--overwrite", action="store_true", help="replace a suite already in DIR/<benchmark>/")
    build.add_argument("--no-progress", action="store_true", help="no progress bar")
    build.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    config = test_suite.TestSuiteConfig(
        benchmark=args.benchmark,
        output_dir=args.output_dir,
        data_dir=args.data_dir,
        seed=args.seed,
        max_databases=args.max_databases,
        candidates=args.candidates,
        split=args.split,
        split_type=args.split_type,
        neighbours_per_query=args.neighbours_per_query,
        timeout=args.timeout,
        overwrite=args.overwrite,
    )
    result = test_suite.run(config, run_context(args))
    print(result.report.summary())
    print(f"Wrote {result.suite_dir / 'report.json'} and {len(result.report.databases)} databases in {result.suite_dir}")
    print(f"Built in {result.seconds:.1f} s (loading, neighbour queries and distillation)")
    return 0
