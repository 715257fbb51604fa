"""The command line's shared parts: one-line usage errors, argument types, the parent parsers of
the options every long command takes, and the run context they describe.

Every option shared by several commands is defined here once, with one default (``--seed``:
:data:`~textattack_semparse.runs.seeding.DEFAULT_SEED`) and one check (``--num-examples``).
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Sequence
from typing import Any, NoReturn

from textattack_semparse.arguments import literal_value
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.runs.backends import BACKENDS
from textattack_semparse.runs.run_context import RunContext, RunOptions
from textattack_semparse.runs.seeding import DEFAULT_SEED


class ArgumentParser(argparse.ArgumentParser):
    """argparse with usage errors on one line: what is wrong and where ``--help`` is, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive_int(value: str) -> int:
    """An argparse type: a positive whole number (a usage error otherwise)."""
    return _whole_number(value, minimum=1, description="a positive integer")


def non_negative_int(value: str) -> int:
    """An argparse type: zero or a positive whole number (a usage error otherwise)."""
    return _whole_number(value, minimum=0, description="a non-negative integer")


def example_count(value: str) -> int:
    """An argparse type for ``--num-examples`` of the attacks: ``-1`` (all) or a positive number."""
    return (
        -1 if value.strip() == "-1" else _whole_number(value, minimum=1, description="-1 (all) or a positive integer")
    )


def count_or_all(value: str) -> int | str:
    """An argparse type: a positive whole number, or ``all``."""
    return value if value == "all" else _whole_number(value, minimum=1, description="a positive integer or 'all'")


def _whole_number(value: str, *, minimum: int, description: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise argparse.ArgumentTypeError(f"expected {description}, got {value!r}")
    return number


def positive_seconds(value: str) -> float:
    """An argparse type: a positive number of seconds (a usage error otherwise, not a traceback)."""
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not number > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}")
    return number


def fraction(value: str) -> float:
    """An argparse type: a number in [0, 1]."""
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value!r}")
    return number


def comma_list(value: str) -> list[str]:
    """An argparse type: comma-separated names."""
    return value.split(",")


def recipe_options(entries: Sequence[str]) -> dict[str, Any]:
    """``--recipe-option KEY=VALUE`` entries as build keywords, each VALUE read as a Python
    literal (a bare string such as a path stays a string).

    Example:
        >>> recipe_options(["beam_width=3", "error_model=/tmp/m.json"])
        {'beam_width': 3, 'error_model': '/tmp/m.json'}
    """
    options: dict[str, Any] = {}
    for entry in entries:
        key, separator, value = entry.partition("=")
        if not separator or not key.isidentifier():
            raise ConfigurationError(f"--recipe-option {entry!r} is not KEY=VALUE (e.g. --recipe-option beam_width=3).")
        options[key] = literal_value(value)
    return options


@functools.cache
def run_parent(*, distributed: bool = True) -> argparse.ArgumentParser:
    """``--resume``, ``--overwrite``, ``--no-progress``; with ``distributed`` also ``--backend``,
    ``--ray-address`` and ``--workers``: how a long run is computed (never part of its results)."""
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("running")
    resume = group.add_mutually_exclusive_group()
    resume.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in the output directory (re-running the same command there does too); finished "
        "items are never recomputed, and a changed configuration is refused",
    )
    resume.add_argument(
        "--overwrite", action="store_true", help="delete the run the output directory holds and start afresh"
    )
    group.add_argument("--no-progress", action="store_true", help="no progress bar (it shows on a terminal only)")
    if distributed:
        group.add_argument(
            "--backend",
            choices=BACKENDS,
            default="serial",
            help="'serial' (this process) or 'ray' (workers holding a victim each; pip install "
            "'textattack-semparse[ray]'); the files written are the same",
        )
        group.add_argument(
            "--ray-address",
            help="Ray cluster to join, e.g. auto or ray://head:10001 (default: a local Ray for the run)",
        )
        group.add_argument("--workers", type=positive_int, default=2, help="Ray workers (default 2)")
    return parser


@functools.cache
def seed_parent() -> argparse.ArgumentParser:
    """``--seed``, with the package's one default."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"seed of everything the run draws (default {DEFAULT_SEED})"
    )
    return parser


@functools.cache
def examples_parent() -> argparse.ArgumentParser:
    """``--num-examples N``: the first N examples of the dataset only (validated: N >= 1)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--num-examples", type=positive_int, metavar="N", help="use the first N examples of the dataset only"
    )
    return parser


@functools.cache
def scoring_parent(*, prediction_timeout: bool = True) -> argparse.ArgumentParser:
    """``--execution-mode``, ``--gold-timeout`` (and ``--timeout``): overrides of the benchmark's scoring."""
    from textattack_semparse.scoring.execution_scorer import (
        GOLD_TIMEOUT,
        MODES,
        TIMEOUT,
    )

    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("scoring")
    group.add_argument(
        "--execution-mode",
        choices=MODES,
        help="compare query results as 'classical' or as test-suite-sql-eval does (default: the benchmark's)",
    )
    group.add_argument(
        "--gold-timeout",
        type=positive_seconds,
        help=f"seconds a gold query may run (default: the benchmark's, {GOLD_TIMEOUT:g})",
    )
    if prediction_timeout:
        group.add_argument(
            "--timeout",
            type=positive_seconds,
            help=f"seconds each predicted SQL query may run (default: the benchmark's, {TIMEOUT:g})",
        )
    return parser


@functools.cache
def judge_parent() -> argparse.ArgumentParser:
    """``--judge NAME`` (repeatable) and ``--no-judge``: which meaning judge keeps a rewrite."""
    from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE

    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("meaning judge").add_mutually_exclusive_group()
    group.add_argument(
        "--judge",
        action="append",
        metavar="NAME",
        help=f"keep only the rewrites this judge calls the same question (default {DEFAULT_JUDGE!r}; repeat to "
        "require several; llm:<LLM victim name>, nli:<model>; textattack-semparse list judge)",
    )
    group.add_argument(
        "--no-judge", action="store_true", help="no meaning judge: the perturbations' raw output, unchecked"
    )
    return parser


def judge_names(args: argparse.Namespace) -> tuple[str, ...]:
    """The judges the options of :func:`judge_parent` name (empty: no judge)."""
    from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE

    if args.no_judge:
        return ()
    return tuple(args.judge) if args.judge else (DEFAULT_JUDGE,)


def run_options(args: argparse.Namespace) -> RunOptions:
    """The :class:`RunOptions` the parsed options of :func:`run_parent` ask for."""
    return RunOptions(
        backend=getattr(args, "backend", "serial"),
        workers=getattr(args, "workers", 2),
        ray_address=getattr(args, "ray_address", None),
        resume=getattr(args, "resume", False),
        overwrite=getattr(args, "overwrite", False),
        progress=False if getattr(args, "no_progress", False) else None,
    )


def run_context(args: argparse.Namespace) -> RunContext:
    """The context of a command's run: its options, messages printed on standard output."""
    return RunContext(run_options(args), say=print)
