"""The ``textattack-semparse`` command: the plugin's own commands beside TextAttack's.

``textattack-semparse attack ...`` is ``textattack attack ...`` with the plugin registered
(as it is anyway, through the import hook). ``--help`` and ``list`` import neither torch nor
textattack.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from textattack_semparse.errors import SemparseError
from textattack_semparse.registry import DISABLE_AUTOLOAD_ENV, DISABLED_PLUGINS_ENV, KIND_HOOKS, get_registry

TEXTATTACK_COMMANDS = ("attack", "augment")


def _command_list(args: argparse.Namespace) -> int:
    registry = get_registry()
    kinds = [args.kind] if args.kind else list(KIND_HOOKS)
    for kind in kinds:
        print(f"{kind}s:")
        for entry in registry.entries(kind):
            options = f" {dict(entry.options)}" if entry.options else ""
            dataset = f" [dataset: {entry.dataset}]" if entry.dataset else ""
            print(f"  {entry.name:32} {entry.target}{options}{dataset}  ({entry.provider})")
    return 0


def _print_table(title: str, rows: list[tuple[str, str]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in rows:
        table.add_row(name, value)
    Console().print(table)


def _format(value: float | int | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _command_metrics(args: argparse.Namespace) -> int:
    from textattack_semparse.metrics.attack_metrics import read_attack_log

    metrics = read_attack_log(args.log).to_dict()
    _print_table(f"Robustness metrics of {args.log}", [(name.replace("_", " "), _format(v)) for name, v in metrics.items()])
    if args.output:
        Path(args.output).write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
        print(f"Wrote {args.output}")
    return 0


def _command_evaluate(args: argparse.Namespace) -> int:
    from textattack_semparse.metrics.standard_accuracy import evaluate_victim

    report = evaluate_victim(args.model, dataset=args.dataset, limit=args.num_examples)
    _print_table(
        f"Standard accuracy of {args.model} on {report['dataset']}",
        [(name.replace("_", " "), _format(value)) for name, value in report.items() if name != "dataset"],
    )
    if args.output:
        Path(args.output).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"Wrote {args.output}")
    return 0


def _run_textattack(command: str, argv: Sequence[str]) -> int:
    from textattack.commands.textattack_cli import main as textattack_main

    saved = sys.argv
    sys.argv = ["textattack", command, *argv]
    try:
        textattack_main()
    finally:
        sys.argv = saved
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="textattack-semparse",
        description="Meaning-preserving attacks, robustness metrics and augmentation for semantic parsers.",
    )
    parser.add_argument("--no-autoload", action="store_true", help="load no third-party plugins")
    parser.add_argument("--disable", action="append", default=[], metavar="NAME", help="skip plugin NAME")
    commands = parser.add_subparsers(dest="command", required=True)

    listing = commands.add_parser("list", help="list registered recipes, victims and datasets")
    listing.add_argument("kind", nargs="?", choices=list(KIND_HOOKS))
    listing.set_defaults(func=_command_list)

    metrics = commands.add_parser("metrics", help="robustness metrics from a TextAttack attack log")
    metrics.add_argument("log", help="CSV log (--log-to-csv) or summary JSON (--log-summary-to-json)")
    metrics.add_argument("--output", help="write the metrics as JSON here")
    metrics.set_defaults(func=_command_metrics)

    evaluate = commands.add_parser("evaluate", help="standard (execution/exact) accuracy of a victim")
    evaluate.add_argument("--model", required=True, help="registered victim name or local seq2seq directory")
    evaluate.add_argument("--dataset", help="registered dataset (default: the victim's own)")
    evaluate.add_argument("--num-examples", type=int, help="evaluate the first N examples only")
    evaluate.add_argument("--output", help="write the report as JSON here")
    evaluate.set_defaults(func=_command_evaluate)

    for command in TEXTATTACK_COMMANDS:
        passthrough = commands.add_parser(
            command, help=f"`textattack {command}` with the plugin registered", add_help=False
        )
        passthrough.set_defaults(func=None, textattack_command=command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if args.no_autoload:
        os.environ[DISABLE_AUTOLOAD_ENV] = "1"
    if args.disable:
        os.environ[DISABLED_PLUGINS_ENV] = ",".join(args.disable)
    try:
        if args.func is None:
            return _run_textattack(args.textattack_command, rest)
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        return args.func(args)
    except SemparseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
