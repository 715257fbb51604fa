"""Column extension
====================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
content perturbation "column extension": a compound column becomes several columns that
together say the same.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import TableChange
from textattack_semparse.transformations.table.answer_cells import column_holds_answer, normalize_value
from textattack_semparse.transformations.table.table_example import TableExample
from textattack_semparse.transformations.table.table_transformation import TableTransformation

_SCORE = re.compile(r"^\s*(\d+)\s*[–—-]\s*(\d+)\s*$")
_MONTH = (
    r"(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DATES = (
    re.compile(r"^\s*(?P<month>" + _MONTH + r")\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})\s*$"),
    re.compile(r"^\s*(?P<day>\d{1,2})\s+(?P<month>" + _MONTH + r"),?\s+(?P<year>\d{4})\s*$"),
    re.compile(r"^\s*(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\s*$"),
)
_PARENTHETICAL = re.compile(r"^\s*([^()]*?\S)\s*\(([^()]*\S[^()]*)\)\s*$")
_MIN_FILLED = 2

Split = tuple[str, tuple[str, ...], list[tuple[str, ...]]]
"""How a compound column splits: its kind, the new headers and the new columns."""


def _split_cells(
    cells: Sequence[str], parse: Callable[[str], tuple[str, ...] | None], width: int
) -> list[tuple[str, ...]] | None:
    """Each cell parsed into ``width`` parts (empty cells into empty parts), or ``None`` if one does not parse."""
    parts = []
    for cell in cells:
        if not cell.strip():
            parts.append(("",) * width)
            continue
        parsed = parse(cell)
        if parsed is None:
            return None
        parts.append(parsed)
    if sum(1 for cell in cells if cell.strip()) < _MIN_FILLED:
        return None
    return [tuple(part[k] for part in parts) for k in range(width)]


def _score(cell: str) -> tuple[str, ...] | None:
    match = _SCORE.match(cell)
    return match.groups() if match else None


def _date(cell: str) -> tuple[str, ...] | None:
    for pattern in _DATES:
        match = pattern.match(cell)
        if match:
            return match.group("year"), match.group("month"), match.group("day")
    return None


def _parenthetical(cell: str) -> tuple[str, ...] | None:
    if "(" not in cell and ")" not in cell:
        return cell.strip(), ""
    match = _PARENTHETICAL.match(cell)
    return match.groups() if match else None


def split_compound(header: str, cells: Sequence[str]) -> Split | None:
    """How a compound column splits into equivalent columns, or ``None`` if it is not compound.

    Every non-empty cell must parse (at least two do): a score "2–1" gives two score columns
    ("<name> (left)", "<name> (right)"); a full date ("May 12, 2001", "12 May 2001",
    "2001-05-12") gives year, month and day columns as written; "Name (Country)" gives the
    text and the parenthesised part (at least half the cells have one), named after the
    header's own parenthesis ("Athlete (Nation)" -> "Athlete", "Nation") or "<name> (in
    parentheses)".

    Example:
        >>> split_compound("Score", ["2–1", "0-3"])
        ('score', ('Score (left)', 'Score (right)'), [('2', '0'), ('1', '3')])
        >>> split_compound("Date", ["May 12, 2001", "3 June 2002"])[2]
        [('2001', '2002'), ('May', 'June'), ('12', '3')]
    """
    name = header.strip() or "Column"
    scores = _split_cells(cells, _score, 2)
    if scores is not None:
        return "score", (f"{name} (left)", f"{name} (right)"), scores
    dates = _split_cells(cells, _date, 3)
    if dates is not None:
        return "date", (f"{name} (year)", f"{name} (month)", f"{name} (day)"), dates
    parts = _split_cells(cells, _parenthetical, 2)
    if parts is not None and 2 * sum(1 for cell in parts[1] if cell) >= sum(1 for cell in cells if cell.strip()):
        own = _PARENTHETICAL.match(header)
        headers = own.groups() if own else (name, f"{name} (in parentheses)")
        return "name (detail)", (headers[0], headers[1]), parts
    return None


class ColumnExtension(TableTransformation):
    """Split one compound column into equivalent columns (RobuT's column extension).

    The issue's rule: split a compound column into equivalent columns -- "Score" ``2–1`` into
    two score columns, dates into year/month/day, "Name (Country)" into two
    (:func:`split_compound`). The new columns take the old one's place. A column holding a gold
    answer value
    (:func:`~textattack_semparse.transformations.table.answer_cells.column_holds_answer`) is
    not split, so no cell the answer needs disappears; nor is one whose new headers would
    repeat an existing header. Each candidate splits a different column, in generator order.

    Args:
        num_candidates (int, default 1): Perturbed tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.attack_attrs import record_gold_output
        >>> from textattack_semparse.tables.table import Table
        >>> from textattack_semparse.tables.table_text import table_input, table_of
        >>> table = Table(["Opponent", "Score"], [["Chile", "2–1"], ["Peru", "0–0"]])
        >>> text = AttackedText(table_input("who did they beat?", table))
        >>> record_gold_output(text, "Chile")
        >>> table_of(ColumnExtension()(text)[0]).header
        ('Opponent', 'Score (left)', 'Score (right)')
    """

    perturbation = "column-extension"
    needs_gold = True

    def _plan(self, example: TableExample, rng: random.Random) -> tuple[str | None, list[tuple[Table, TableChange]]]:
        table = example.table
        splits = {}
        for index, header in enumerate(table.header):
            split = split_compound(header, table.column(index))
            if split is not None:
                splits[index] = split
        if not splits:
            return "no compound column", []
        taken = {normalize_value(name) for name in table.header}
        usable = [
            index
            for index, (_, headers, _) in splits.items()
            if not column_holds_answer(table.column(index), example.answers or ())
            and not any(normalize_value(name) in taken - {normalize_value(table.header[index])} for name in headers)
        ]
        if not usable:
            return "compound columns hold a gold answer value or would repeat a header", []
        results = []
        for index in rng.sample(usable, len(usable)):
            kind, headers, columns = splits[index]
            rest = table.select_columns([i for i in range(table.num_columns) if i != index])
            results.append(
                (
                    rest.with_columns(index, headers, columns),
                    self.change(
                        f"{kind} column {table.header[index]!r} split into {', '.join(map(repr, headers))}",
                        "the new columns hold the split column's parts, and that column held no gold answer value",
                    ),
                )
            )
        return None, results
