"""The ``textattack-semparse`` command: the plugin's own commands beside TextAttack's.

``textattack-semparse attack ...`` runs any registered recipe as ``textattack attack`` does,
sharded over workers and resumable (:mod:`~textattack_semparse.commands.attack_command`);
``textattack attack`` itself sees the plugin's names through the import hook. ``--help`` and
``list`` import neither torch nor textattack.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from textattack_semparse.errors import SemparseError
from textattack_semparse.registry import DISABLE_AUTOLOAD_ENV, DISABLED_PLUGINS_ENV
from textattack_semparse.runs.provenance import COMMAND_LINE

COMMAND_MODULES = (
    "list_command",
    "attack_command",
    "evaluate_command",
    "metrics_command",
    "augment_command",
    "robustness_command",
    "fit_grammar_errors_command",
    "grammar_attack_command",
    "test_suite_command",
    "train_command",
    "icl_command",
    "report_command",
)
"""Modules of :mod:`textattack_semparse.commands`, each with ``register(subparsers)``."""

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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.no_autoload:
        os.environ[DISABLE_AUTOLOAD_ENV] = "1"
    if args.disable:
        os.environ[DISABLED_PLUGINS_ENV] = ",".join(args.disable)
    token = COMMAND_LINE.set(tuple(argv))
    try:
        return args.func(args)
    except SemparseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        COMMAND_LINE.reset(token)


if __name__ == "__main__":
    sys.exit(main())
