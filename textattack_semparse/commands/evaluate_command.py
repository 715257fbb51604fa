"""``textattack-semparse evaluate``: standard accuracy of a victim, without attack."""

from __future__ import annotations

import argparse

from textattack_semparse.commands.output import add_scoring_arguments


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("evaluate", help="standard (execution/exact) accuracy of a victim")
    parser.add_argument("--model", required=True, help="registered victim name or local seq2seq directory")
    parser.add_argument("--dataset", help="registered dataset (default: the victim's own)")
    parser.add_argument("--num-examples", type=int, help="evaluate the first N examples only")
    add_scoring_arguments(parser)
    parser.add_argument(
        "--test-suite-dir",
        help="folder of distilled test suites (one per benchmark, from 'test-suite build'); reports test-suite "
        "accuracy beside single-database accuracy (default: $SEMPARSE_TEST_SUITE_DIR)",
    )
    parser.add_argument("--output", help="write the report as JSON here")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, write_json
    from textattack_semparse.metrics.standard_accuracy import evaluate_victim

    report = evaluate_victim(
        args.model,
        dataset=args.dataset,
        limit=args.num_examples,
        execution_mode=args.execution_mode,
        gold_timeout=args.gold_timeout,
        test_suite_dir=args.test_suite_dir,
    )
    print_table(
        f"Standard accuracy of {args.model} on {report['dataset']}",
        ("metric", "value"),
        ((name.replace("_", " "), value) for name, value in report.items() if name not in ("dataset", "scoring", "single_database")),
    )
    print(f"Scoring: {report['scoring']}")
    write_json(args.output, report)
    return 0
