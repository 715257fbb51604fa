"""Scoring a victim's predictions against gold outputs: one oracle for every evaluation.

Used by ``textattack-semparse evaluate`` (standard accuracy) and by the robustness
evaluation (originals and perturbed utterances alike), so both score the same way:
execution match on a database, exact match of normalised outputs without one. No
TextAttack import here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError, SchemaError

BATCH_SIZE = 64
"""Inputs per victim call."""

VictimInput = str | tuple[str, str]
"""What a victim is called with: the question, or ``(question, db_id)``."""


def victim_input(question: str, db_id: str | None) -> VictimInput:
    """The victim input for a question, with its ``db_id`` column when it has one.

    Example:
        >>> victim_input("how many singers", "concert_singer"), victim_input("rivers in texas", None)
        (('how many singers', 'concert_singer'), 'rivers in texas')
    """
    return question if db_id is None else (question, db_id)


def predict(victim: Callable[[list[Any]], list[str]], inputs: Sequence[VictimInput], *, batch_size: int = BATCH_SIZE) -> list[str]:
    """The victim's prediction for each input, in order; each distinct input is parsed once.

    Example:
        >>> predict(lambda batch: [q.upper() for q in batch], ["a", "b", "a"], batch_size=1)
        ['A', 'B', 'A']
    """
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}.")
    distinct = list(dict.fromkeys(inputs))
    outputs: list[str] = []
    for start in range(0, len(distinct), batch_size):
        outputs.extend(victim(distinct[start : start + batch_size]))
    by_input = dict(zip(distinct, outputs))
    return [by_input[item] for item in inputs]


def scoring_method(database: str | os.PathLike[str] | None) -> str:
    """``"execution"`` when there is a database to run queries on, else ``"exact"``."""
    return "exact" if database is None else "execution"


def example_database(database: str | os.PathLike[str], db_id: str | None) -> Path:
    """The SQLite file of one example: ``database`` itself, or ``<database>/<db_id>/<db_id>.sqlite``
    when ``database`` is a directory of databases (Spider).

    Raises:
        SchemaError: A directory of databases without a ``db_id``, or a missing database file.
    """
    path = Path(database)
    if not path.is_dir():
        return path
    if db_id is None:
        raise SchemaError(
            f"Database {str(path)!r} is a directory of databases, but the example has no db_id; "
            "pass the SQLite file of a single-database benchmark instead."
        )
    file = path / db_id / f"{db_id}.sqlite"
    if not file.is_file():
        raise SchemaError(f"No database for db_id {db_id!r}: {str(file)!r} does not exist. Check the database directory.")
    return file


def score_predictions(
    predictions: Sequence[str],
    golds: Sequence[str],
    *,
    database: str | os.PathLike[str] | None = None,
    db_ids: Sequence[str | None] | None = None,
    timeout: float = 5.0,
) -> list[bool | None]:
    """Whether each prediction is correct; ``None`` where the gold query fails to execute.

    With a ``database`` (a SQLite file, or a directory of per-``db_id`` databases), a
    prediction is correct when it returns the gold query's denotation
    (:func:`~textattack_semparse.sql.execution.execution_match`); a gold query that fails
    or times out makes its example unscorable (``None``), to be excluded and counted by the
    caller. Without a database, a prediction is correct when its normalised tokens equal the
    gold's (:func:`~textattack_semparse.goal_functions.exact_match.normalize_logical_form`).

    Example:
        >>> score_predictions(["(a (b))", "(a c)"], ["( a ( b ) )", "(a b)"])
        [True, False]
    """
    from textattack_semparse.goal_functions.exact_match import normalize_logical_form
    from textattack_semparse.sql.execution import execution_match

    if len(predictions) != len(golds) or (db_ids is not None and len(db_ids) != len(golds)):
        raise ValueError(
            f"score_predictions needs one gold (and db_id) per prediction, got {len(predictions)} predictions, "
            f"{len(golds)} golds and {'no' if db_ids is None else len(db_ids)} db_ids."
        )
    if database is None:
        return [normalize_logical_form(p) == normalize_logical_form(g) for p, g in zip(predictions, golds)]
    scores: list[bool | None] = []
    for index, (prediction, gold) in enumerate(zip(predictions, golds)):
        path = example_database(database, None if db_ids is None else db_ids[index])
        try:
            scores.append(execution_match(prediction, gold, path, timeout=timeout).match)
        except DatasetError:
            scores.append(None)
    return scores
