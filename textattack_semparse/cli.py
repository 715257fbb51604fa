"""The ``textattack-semparse`` command: the plugin's own commands beside TextAttack's.

Each command (:mod:`textattack_semparse.commands`) turns its arguments into the configuration of
a workflow of :mod:`textattack_semparse.experiments`, runs it and prints the result;
``textattack attack`` itself sees the plugin's names through the import hook. ``--help`` and
``list`` import neither torch nor textattack.

:func:`main` is the one error boundary: a usage error, and every
:class:`~textattack_semparse.errors.SemparseError` (a bad name, file, value or run directory),
is one line on standard error naming the fix, with exit status 2; Ctrl-C is one line with the
command that continues the run (exit status 130); anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import shlex
import sys
from collections.abc import Sequence

from textattack_semparse import __version__
from textattack_semparse.commands.arguments import ArgumentParser
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
    "validate_command",
    "judge_command",
)
"""Modules of :mod:`textattack_semparse.commands`, each with ``register(subparsers)``."""


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="textattack-semparse",
        description="Meaning-preserving attacks, robustness metrics and augmentation for semantic parsers.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__} (textattack {_textattack_version()})"
    )
    parser.add_argument("--no-autoload", action="store_true", help="load no third-party plugins")
    parser.add_argument("--disable", action="append", default=[], metavar="NAME", help="skip plugin NAME")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"textattack_semparse.commands.{name}").register(subparsers)
    _record_command_names(parser)
    return parser


def _textattack_version() -> str:
    """TextAttack's installed version, read from its metadata (importing it loads torch)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("textattack")
    except PackageNotFoundError:
        return "not installed"


def _record_command_names(parser: argparse.ArgumentParser) -> None:
    """Give every (sub)command's parsed arguments its full name (``textattack-semparse robustness
    run``), for error messages."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                command.set_defaults(command_name=command.prog)
                _record_command_names(command)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:  # --help, or a usage error already printed on one line
        return exit.code if isinstance(exit.code, int) else 0
    if args.no_autoload:
        os.environ[DISABLE_AUTOLOAD_ENV] = "1"
    if args.disable:
        os.environ[DISABLED_PLUGINS_ENV] = ",".join(args.disable)
    token = COMMAND_LINE.set(tuple(argv))
    try:
        return args.func(args)
    except SemparseError as error:
        print(f"{args.command_name}: error: {_one_line(str(error))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{args.command_name}: interrupted. {_how_to_continue(args, argv)}", file=sys.stderr)
        return INTERRUPTED
    finally:
        COMMAND_LINE.reset(token)


INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT, as a shell reports it)."""


def _how_to_continue(args: argparse.Namespace, argv: Sequence[str]) -> str:
    """What a run command keeps when interrupted, and the command that continues it."""
    if not hasattr(args, "resume"):
        return "Nothing was kept."
    again = [word for word in argv if word != "--overwrite"]
    command = shlex.join(["textattack-semparse", *again, *([] if "--resume" in again else ["--resume"])])
    return f"What was finished is kept; continue with: {command}"


def _one_line(message: str) -> str:
    """``message`` with its line breaks and runs of spaces folded into single spaces."""
    return " ".join(message.split())


if __name__ == "__main__":
    sys.exit(main())
