"""Printing command results."""

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


def print_written(*paths: str | Path | None) -> None:
    """``Wrote PATH`` for each file written (``None``: not asked for)."""
    for path in paths:
        if path is not None:
            print(f"Wrote {path}")


def write_json(path: str | Path | None, data: Any) -> None:
    """Write ``data`` as indented JSON when ``path`` is given, and say where."""
    if path is None:
        return
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print_written(path)
