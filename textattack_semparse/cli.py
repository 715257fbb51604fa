"""The ``textattack-semparse`` command: the plugin's own commands beside TextAttack's.

``textattack-semparse attack ...`` is TextAttack's command with the plugin registered (as
it is anyway, through the import hook). ``--help`` and ``list``
import neither torch nor textattack.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from textattack_semparse.errors import SemparseError
from textattack_semparse.registry import DISABLE_AUTOLOAD_ENV, DISABLED_PLUGINS_ENV

COMMAND_MODULES = (
    "list_command",
    "evaluate_command",
    "metrics_command",
    "augment_command",
    "robustness_command",
    "fit_grammar_errors_command",
    "grammar_attack_command",
    "test_suite_command",
    "train_command",
    "icl_command",
)
"""Modules of :mod:`textattack_semparse.commands`, each with ``register(subparsers)``."""

TEXTATTACK_COMMANDS = ("attack",)


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
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"textattack_semparse.commands.{name}").register(subparsers)
    for command in TEXTATTACK_COMMANDS:
        passthrough = subparsers.add_parser(
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
