"""``textattack-semparse metrics LOG``: the papers' robustness metrics from a TextAttack log."""

from __future__ import annotations

import argparse

from textattack_semparse.project import docs_url


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("metrics",
        epilog=f"Documentation: {docs_url('robustness.md')}", help="robustness metrics from a TextAttack attack log")
    parser.add_argument("log", help="CSV log (--log-to-csv) or summary JSON (--log-summary-to-json)")
    parser.add_argument("--output", help="write the metrics as JSON here")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, write_json
    from textattack_semparse.metrics.attack_metrics import read_attack_log

    metrics = read_attack_log(args.log).to_dict()
    print_table(f"Robustness metrics of {args.log}", ("metric", "value"), ((k.replace("_", " "), v) for k, v in metrics.items()))
    write_json(args.output, metrics)
    return 0
