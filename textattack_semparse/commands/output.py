"""Printing and writing command results."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.report.formatting import format_value


def print_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """A rich table on standard output."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*(format_value(value) for value in row))
    Console().print(table)


def write_json(path: str | Path | None, data: Any) -> None:
    """Write ``data`` as indented JSON when ``path`` is given, and say where."""
    if path is None:
        return
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"Wrote {path}")


def add_scoring_arguments(parser: Any) -> None:
    """``--execution-mode`` and ``--gold-timeout``: overrides of the benchmark's execution scorer."""
    parser.add_argument(
        "--execution-mode",
        choices=("classical", "test-suite"),
        help="compare query results as 'classical' or as test-suite-sql-eval does (default: the benchmark's; "
        "docs/sql.md)",
    )
    parser.add_argument(
        "--gold-timeout", type=positive_seconds, help="seconds a gold query may run (default: the benchmark's, 60)"
    )


def positive_int(value: str) -> int:
    """An argparse type: a positive whole number (a usage error otherwise)."""
    return _whole_number(value, minimum=1, description="a positive integer")


def non_negative_int(value: str) -> int:
    """An argparse type: zero or a positive whole number (a usage error otherwise)."""
    return _whole_number(value, minimum=0, description="a non-negative integer")


def _whole_number(value: str, *, minimum: int, description: str) -> int:
    import argparse

    try:
        number = int(value)
    except ValueError:
        number = minimum - 1
    if number < minimum:
        raise argparse.ArgumentTypeError(f"expected {description}, got {value!r}")
    return number


def positive_seconds(value: str) -> float:
    """An argparse type: a positive number of seconds (a usage error otherwise, not a traceback)."""
    import argparse

    try:
        number = float(value)
    except ValueError:
        number = 0.0
    if not number > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {value!r}")
    return number
