"""Examples as the rows of a TextAttack dataset, without importing TextAttack.

A row is ``((question,), gold)``, ``((question, db_id), gold)`` on multi-database benchmarks
(Spider) or ``((question, table.to_json()), answer)`` for Table QA; the column names say which.
:class:`~textattack_semparse.datasets.text2sql_dataset.Text2SQLDataset` is built from these rows,
and ``evaluate`` reads a benchmark's split through them without building that dataset.
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.tables.table_text import QUESTION_COLUMN, TABLE_COLUMN

DB_ID_COLUMN = "db_id"

Row = tuple[tuple[str | None, ...], str]
"""One example's input column values and its gold output."""


def example_rows(examples: Iterable[SemparseExample]) -> tuple[tuple[str, ...], list[Row]]:
    """The input columns and one row per example, in order.

    Raises:
        TypeError: An item is not a :class:`SemparseExample`.
        ValueError: Some examples carry a ``db_id`` (or a ``table``) and others do not.

    Example:
        >>> example_rows([SemparseExample("rivers in spider", "SELECT 1", db_id="world_1")])
        (('question', 'db_id'), [(('rivers in spider', 'world_1'), 'SELECT 1')])
    """
    examples = tuple(examples)
    for position, example in enumerate(examples):
        if not isinstance(example, SemparseExample):
            raise TypeError(f"Expected SemparseExample records; item {position} is a {type(example).__name__}.")
    with_table = _all_or_none(examples, "table", "give every example its table or none of them")
    with_db = _all_or_none(examples, "db_id", "give every example its database id or none of them")
    if with_table:
        return (QUESTION_COLUMN, TABLE_COLUMN), [
            ((example.question, example.table.to_json()), example.gold)  # type: ignore[union-attr]
            for example in examples
        ]
    if with_db:
        return (QUESTION_COLUMN, DB_ID_COLUMN), [
            ((example.question, example.db_id), example.gold) for example in examples
        ]
    return (QUESTION_COLUMN,), [((example.question,), example.gold) for example in examples]


def _all_or_none(examples: tuple[SemparseExample, ...], field: str, fix: str) -> bool:
    """Whether the examples carry ``field``; a mix of examples with and without it is an error."""
    present = sum(getattr(example, field) is not None for example in examples)
    if 0 < present < len(examples):
        raise ValueError(f"{present} of {len(examples)} examples have a {field} and the rest do not; {fix}.")
    return present > 0
