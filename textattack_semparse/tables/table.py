"""A relational table as Table QA benchmarks give it: a header and rows of cell strings.

WikiTableQuestions (Pasupat and Liang 2015, https://arxiv.org/abs/1508.00305) publishes each
table as CSV and as TSV in its own escaping (newline -> ``\\n``, backslash -> ``\\\\``, pipe ->
``\\p``); the TSV files are rectangular, the CSV files are not always, so tables are read from
the TSV. A table travels through TextAttack as the JSON text of an input column
(:mod:`textattack_semparse.tables.table_text`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError

_ESCAPES = {"n": "\n", "p": "|", "\\": "\\"}


class TableError(DatasetError):
    """A table that is not rectangular, or text that is not a serialised table."""


def unescape_wtq(text: str) -> str:
    """Undo WikiTableQuestions' TSV escaping (``\\n``, ``\\p``, ``\\\\``).

    Example:
        >>> unescape_wtq(r"a\\pb\\nc\\\\d")
        'a|b\\nc\\\\d'
    """
    out = []
    chars = iter(text)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            out.append(_ESCAPES.get(following, "\\" + following))
        else:
            out.append(char)
    return "".join(out)


def escape_wtq(text: str) -> str:
    """WikiTableQuestions' TSV escaping of one value (inverse of :func:`unescape_wtq`).

    Example:
        >>> unescape_wtq(escape_wtq("a|b\\nc\\\\d")) == "a|b\\nc\\\\d"
        True
    """
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("|", "\\p")


@dataclass(frozen=True)
class Table:
    """A header and rows of cells, all strings, every row as long as the header.

    Original to textattack-semparse.

    Args:
        header (Sequence[str]): Column names, in order (may repeat or be empty, as in WTQ).
        rows (Sequence[Sequence[str]]): The rows, top to bottom.
        name (str | None, default None): Where the table comes from (WTQ's ``context``,
            ``"csv/204-csv/590.csv"``), kept through perturbations for reports.

    Example:
        >>> table = Table(["Year", "City"], [["2001", "Oslo"], ["2004", "Rome"]])
        >>> table.column(1), Table.from_json(table.to_json()) == table
        (('Oslo', 'Rome'), True)
    """

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    name: str | None = None

    def __post_init__(self) -> None:
        header = tuple(str(cell) for cell in self.header)
        rows = tuple(tuple(str(cell) for cell in row) for row in self.rows)
        for position, row in enumerate(rows):
            if len(row) != len(header):
                raise TableError(
                    f"Row {position} of table {self.name or '(unnamed)'} has {len(row)} cells but the header has "
                    f"{len(header)} columns; every row needs one cell per column."
                )
        object.__setattr__(self, "header", header)
        object.__setattr__(self, "rows", rows)

    @property
    def num_rows(self) -> int:
        return len(self.rows)

    @property
    def num_columns(self) -> int:
        return len(self.header)

    def column(self, index: int) -> tuple[str, ...]:
        """The cells of column ``index``, top to bottom."""
        return tuple(row[index] for row in self.rows)

    def cells(self) -> set[str]:
        """Every distinct cell value."""
        return {cell for row in self.rows for cell in row}

    def with_header(self, header: Sequence[str]) -> Table:
        """This table with another header of the same width."""
        if len(header) != self.num_columns:
            raise TableError(f"A new header needs {self.num_columns} names, got {len(header)}.")
        return Table(tuple(header), self.rows, self.name)

    def with_rows(self, rows: Iterable[Sequence[str]]) -> Table:
        """This table's header over other rows."""
        return Table(self.header, tuple(tuple(row) for row in rows), self.name)

    def select_columns(self, indices: Sequence[int]) -> Table:
        """The columns at ``indices``, in that order (drop, reorder or repeat columns)."""
        return Table(
            tuple(self.header[i] for i in indices), tuple(tuple(row[i] for i in indices) for row in self.rows), self.name
        )

    def with_columns(self, position: int, header: Sequence[str], columns: Sequence[Sequence[str]]) -> Table:
        """New columns (``header[k]`` over the cells ``columns[k]``) inserted before ``position``."""
        if len(header) != len(columns) or any(len(cells) != self.num_rows for cells in columns):
            raise TableError(f"Each new column needs a name and {self.num_rows} cells.")
        rows = tuple(
            row[:position] + tuple(cells[r] for cells in columns) + row[position:] for r, row in enumerate(self.rows)
        )
        return Table(self.header[:position] + tuple(header) + self.header[position:], rows, self.name)

    def to_record(self) -> dict[str, Any]:
        """``{"name": ..., "header": [...], "rows": [[...], ...]}``: the table as a JSON or Arrow
        record (the ``table`` struct of the WikiTableQuestions dataset on the Hugging Face Hub)."""
        return {"name": self.name, "header": list(self.header), "rows": [list(row) for row in self.rows]}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Table:
        """Read :meth:`to_record`'s record (``name`` may be absent).

        Raises:
            TableError: A row is not as long as the header.
        """
        return cls(tuple(record["header"]), tuple(tuple(row) for row in record["rows"]), record.get("name"))

    def to_json(self) -> str:
        """Compact JSON: ``{"name": ..., "header": [...], "rows": [[...], ...]}`` (the input-column text)."""
        return json.dumps(self.to_record(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Table:
        """Read :meth:`to_json`'s text.

        Raises:
            TableError: ``text`` is not a serialised table.
        """
        try:
            return cls.from_record(json.loads(text))
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            raise TableError(
                f"Not a serialised table ({type(error).__name__}: {error}): {str(text)[:120]!r}. A table input column "
                'holds Table.to_json() text: {"name": ..., "header": [...], "rows": [[...]]}.'
            ) from error

    @classmethod
    def from_wtq_tsv(cls, path: str | Path, *, name: str | None = None) -> Table:
        """Read a WikiTableQuestions ``.tsv`` table (first line the header, WTQ escaping).

        Raises:
            TableError: The file is empty or ragged (the line is named).
        """
        path = Path(path)
        lines = path.read_text(encoding="utf-8").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if not lines:
            raise TableError(f"Table file {str(path)!r} is empty; a WTQ table has a header line.")
        header = [unescape_wtq(cell) for cell in lines[0].split("\t")]
        rows = []
        for number, line in enumerate(lines[1:], start=2):
            cells = [unescape_wtq(cell) for cell in line.split("\t")]
            if len(cells) != len(header):
                raise TableError(
                    f"{path}:{number}: {len(cells)} cells under a {len(header)}-column header; fix the line or "
                    "remove the table."
                )
            rows.append(cells)
        return cls(tuple(header), tuple(tuple(row) for row in rows), name)

    def to_csv(self) -> str:
        """The table as CSV text (header first), for files a reader can diff."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows(self.rows)
        return buffer.getvalue()

    @classmethod
    def from_csv(cls, text: str, *, name: str | None = None) -> Table:
        """Read :meth:`to_csv`'s text."""
        records = list(csv.reader(io.StringIO(text)))
        if not records:
            raise TableError(f"CSV of table {name or '(unnamed)'} is empty; it needs a header line.")
        return cls(tuple(records[0]), tuple(tuple(row) for row in records[1:]), name)
