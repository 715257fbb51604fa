"""Loader for WikiSQL in its released format, as weakly supervised Table QA (WikiSQL-Weak).

Zhong, Xiong and Socher (2017), "Seq2SQL: Generating Structured Queries from Natural
Language using Reinforcement Learning", https://arxiv.org/abs/1709.00103 ;
https://github.com/salesforce/WikiSQL. WikiSQL-Weak keeps the question and the table and
replaces the SQL by its denotation (the answer), the setting of TAPAS (Herzig et al. 2020)
and of RobuT (Zhao et al. 2023, https://arxiv.org/abs/2306.14321).

Files: ``<split>.jsonl``, one question a line (``phase``, ``table_id``, ``question``,
``sql`` = ``{"sel": column, "agg": operator, "conds": [[column, operator, value], ...]}``),
and ``<split>.tables.jsonl``, one table a line (``id``, ``header``, ``types`` of ``"text"``
or ``"real"``, ``rows``). The answer is computed as WikiSQL's engine runs the query on the
table's SQLite copy (``lib/dbengine.py``): ``SELECT agg(col_sel) FROM table WHERE col op value
AND ...`` with aggregations ``['', 'MAX', 'MIN', 'COUNT', 'SUM', 'AVG']`` and conditions
``['=', '>', '<']``; text is compared lowercased, a condition on a ``real`` column compares
numbers (cells and the value read as decimals, thousands separators allowed; a value that is
not one gives its first number), and SQLite's ordering puts a non-numeric cell of a ``real``
column above every number.

This module does not import TextAttack.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table

AGGREGATIONS = ("", "MAX", "MIN", "COUNT", "SUM", "AVG")
CONDITIONS = ("=", ">", "<")
_FIRST_NUMBER = re.compile(r"[-+]?\d*\.\d+|\d+")
_NUMERIC_PREFIX = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


class _Number(float):
    """A numeric cell or value (SQLite orders every number below every text)."""


def wikisql_denotation(table: Table, types: Sequence[str], sql: Mapping[str, Any]) -> list[str]:
    """The answer of a WikiSQL query on ``table`` (column ``types`` ``"text"``/``"real"``).

    Raises:
        ValueError: An operator or column index out of range, or a number expected and none found.

    Example:
        >>> table = Table(["Player", "Goals"], [["Ann", "3"], ["Bo", "12"], ["Cy", "7"]])
        >>> wikisql_denotation(table, ["text", "real"], {"sel": 0, "agg": 0, "conds": [[1, 1, "5"]]})
        ['Bo', 'Cy']
        >>> wikisql_denotation(table, ["text", "real"], {"sel": 1, "agg": 4, "conds": []})
        ['22']
    """
    select, aggregation = int(sql["sel"]), int(sql["agg"])
    if not 0 <= aggregation < len(AGGREGATIONS) or not 0 <= select < table.num_columns:
        raise ValueError(f"aggregation {aggregation} or selected column {select} out of range")
    conditions = [_condition(table, types, *condition) for condition in sql.get("conds", ())]
    rows = [row for row in table.rows if all(holds(row) for holds in conditions)]
    cells = [row[select] for row in rows]
    operator = AGGREGATIONS[aggregation]
    if operator == "":
        return cells
    if operator == "COUNT":
        return [str(len(cells))]
    if not cells:
        return []  # MAX, MIN, SUM and AVG of no rows are NULL
    if operator in ("MAX", "MIN"):
        key = _reader(types[select])
        pick = max if operator == "MAX" else min
        return [pick(cells, key=lambda cell: _sqlite_order(key(cell)))]
    amounts = [_sqlite_numeric(cell) for cell in cells]
    total = math.fsum(amounts)
    return [_format_number(total if operator == "SUM" else total / len(amounts))]


def load_wikisql_weak(
    questions: str | Path, tables: str | Path | None = None, *, split: str | None = None
) -> list[SemparseExample]:
    """Read ``<split>.jsonl`` and its ``<split>.tables.jsonl`` into examples answered by their SQL.

    Each example's gold is the query's denotation in WTQ's answer format, its ``db_id`` the
    ``table_id`` and its ``table`` the table.

    Args:
        questions (str | Path): The ``<split>.jsonl`` file.
        tables (str | Path | None, default None): Its tables; default ``<split>.tables.jsonl`` beside it.
        split (str | None, default None): The question-split label of every example.

    Raises:
        DatasetError: A file is missing; a line is not JSON, lacks a field, names an unknown
            table or holds a query that cannot run; the message names ``file:line``.
    """
    questions = Path(questions)
    tables = questions.with_suffix(".tables.jsonl") if tables is None else Path(tables)
    by_id = {}
    for where, record in _json_lines(tables):
        table_id, header, types, rows = (_field(record, name, where) for name in ("id", "header", "types", "rows"))
        if len(types) != len(header) or any(kind not in ("text", "real") for kind in types):
            raise DatasetError(f"{where}: 'types' must give 'text' or 'real' for each of the {len(header)} columns.")
        cells = tuple(tuple(_cell(cell) for cell in row) for row in rows)
        by_id[table_id] = (Table(header, cells, name=table_id), types)
    examples = []
    for where, record in _json_lines(questions):
        question, table_id, sql = (_field(record, name, where) for name in ("question", "table_id", "sql"))
        if table_id not in by_id:
            raise DatasetError(
                f"{where}: table {table_id!r} is not in {tables}; use the tables file of the same split."
            )
        table, types = by_id[table_id]
        examples.append(wikisql_weak_example(question, table, types, sql, where=where, split=split))
    return examples


def wikisql_weak_example(
    question: Any, table: Table, types: Sequence[str], sql: Mapping[str, Any], *, where: str, split: str | None
) -> SemparseExample:
    """A WikiSQL question answered by the denotation of its ``sql`` on ``table`` (named by its id,
    which becomes the ``db_id``), as an example of ``split``; ``where`` names it in errors.

    Raises:
        DatasetError: The question is empty, or the query cannot run on the table.

    Example:
        >>> table = Table(["Player", "Goals"], [["Ann", "3"], ["Bo", "12"]], name="1-1")
        >>> wikisql_weak_example("Who scored 12?", table, ["text", "real"],
        ...                      {"sel": 0, "agg": 0, "conds": [[1, 0, "12"]]}, where="row 0", split="dev").gold
        'Bo'
    """
    if not str(question).strip():
        raise DatasetError(f"{where}: empty 'question'; fill it in or remove the line.")
    try:
        answer = wikisql_denotation(table, types, sql)
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise DatasetError(f"{where}: the query {sql!r} cannot run on table {table.name!r} ({error}).") from None
    return SemparseExample(
        question=str(question).strip(), gold=format_answer(answer), db_id=table.name, table=table, question_split=split
    )


def _condition(
    table: Table, types: Sequence[str], column: int, operator: int, value: Any
) -> Callable[[Sequence[str]], bool]:
    """Whether a row satisfies ``column operator value``, as WikiSQL's SQLite engine decides."""
    symbol = CONDITIONS[operator] if 0 <= operator < len(CONDITIONS) else None
    if symbol is None or not 0 <= column < table.num_columns:
        raise ValueError(f"condition operator {operator} or column {column} out of range")
    read = _reader(types[column])
    if types[column] == "real":
        target: object = _Number(value if isinstance(value, (int, float)) else _decimal(str(value)))
    else:
        # A text column gives a numeric value text affinity (SQLite renders 1998 as '1998', 1998.0 as '1998.0').
        target = str(value).lower()
    compare = {"=": lambda a, b: a == b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}[symbol]

    def holds(row: Sequence[str]) -> bool:
        return compare(_sqlite_order(read(row[column])), _sqlite_order(target))

    return holds


def _reader(kind: str) -> Callable[[str], object]:
    """How a column's cells are stored: ``real`` cells as numbers when they are, text lowercased."""
    return _real_cell if kind == "real" else str.lower


def _real_cell(cell: str) -> object:
    try:
        return _Number(float(cell.replace(",", "")))
    except ValueError:
        return cell.lower()


def _sqlite_order(value: object) -> tuple[int, object]:
    """SQLite's order across storage classes: numbers before text."""
    return (0, value) if isinstance(value, _Number) else (1, value)


def _decimal(text: str) -> float:
    """A condition value as a number: a decimal (``1,000.5``), else the first number in it."""
    try:
        return float(text.replace(",", ""))
    except ValueError:
        numbers = _FIRST_NUMBER.findall(text)
        if not numbers:
            raise ValueError(f"no number in condition value {text!r} on a real column") from None
        return float(numbers[0])


def _sqlite_numeric(cell: str) -> float:
    """A cell as SUM/AVG read it: its number, else SQLite's numeric prefix (0 when none)."""
    value = _real_cell(cell)
    if isinstance(value, _Number):
        return float(value)
    prefix = _NUMERIC_PREFIX.match(cell)
    return float(prefix.group()) if prefix else 0.0


def _format_number(amount: float) -> str:
    return str(int(amount)) if amount.is_integer() else repr(amount)


def _cell(value: Any) -> str:
    """A JSON cell as text (``real`` cells may be JSON numbers: 1998 -> ``"1998"``)."""
    if isinstance(value, float):
        return _format_number(value)
    return str(value)


def _field(record: Mapping[str, Any], name: str, where: str) -> Any:
    if name not in record:
        raise DatasetError(f"{where}: no {name!r} field; every line needs it (WikiSQL's released format).")
    return record[name]


def _json_lines(path: Path) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(file:line, record)`` for each non-blank line of a JSON-lines file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(
            f"WikiSQL file {str(path)!r} does not exist. Put WikiSQL's '<split>.jsonl' and '<split>.tables.jsonl' "
            "under '<SEMPARSE_DATA_DIR>/wikisql/'."
        ) from None
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise DatasetError(f"{where}: not a JSON object ({error.msg}); fix or remove the line.") from None
        if not isinstance(record, dict):
            raise DatasetError(f"{where}: a JSON {type(record).__name__}, not an object; fix or remove the line.")
        yield where, record
