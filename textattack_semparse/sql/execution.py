"""Execution match of a predicted query against the gold query: the goal functions' oracle."""

from __future__ import annotations

import os
from dataclasses import dataclass

from textattack_semparse.errors import DatasetError
from textattack_semparse.sql.denotation import denotations_match, query_is_ordered
from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.sql.sql_tokens import token_distance
from textattack_semparse.sql.sqlite_executor import executor_for

#: Smallest distance of a non-matching prediction, so a prediction whose tokens equal the
#: gold's but whose result differs (it timed out, say) never scores like a match.
MISMATCH_DISTANCE_FLOOR = 1e-3


@dataclass(frozen=True)
class MatchOutcome:
    """Whether a predicted query returns the gold query's result, and how far off it is.

    Original to textattack-semparse.

    Args:
        match (bool): The predicted result denotes the same answer as the gold result.
        distance (float): 0.0 when ``match``; otherwise the token edit distance of the two
            queries, at least :data:`MISMATCH_DISTANCE_FLOOR`, at most 1.0.
        predicted (ExecutionResult): Result of the predicted query (may carry an error).
        gold (ExecutionResult): Result of the gold query.
    """

    match: bool
    distance: float
    predicted: ExecutionResult
    gold: ExecutionResult


def execution_match(
    predicted_sql: str,
    gold_sql: str,
    database: str | os.PathLike[str],
    *,
    timeout: float = 5.0,
    max_rows: int = 10_000,
) -> MatchOutcome:
    """Run both queries on ``database`` and compare their denotations.

    Row order matters only when the gold query's outermost ``SELECT`` has ``ORDER BY``.
    Results are cached per (database, SQL) through :func:`executor_for`. A predicted query
    that fails or times out is a non-match, never an exception.

    Args:
        predicted_sql: SQL produced by the model; treated as hostile.
        gold_sql: The dataset's gold SQL.
        database: Path of the SQLite database both queries run on.
        timeout: Wall-clock limit per query, in seconds.
        max_rows: Rows kept per result.

    Raises:
        DatasetError: The gold query fails or times out.
        SchemaError: The database file is missing or unreadable.

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> db = pathlib.Path(tempfile.mkdtemp()) / "geo.sqlite"
        >>> with sqlite3.connect(db) as conn:
        ...     _ = conn.execute("CREATE TABLE city (city_name TEXT, population INT)")
        ...     _ = conn.executemany("INSERT INTO city VALUES (?, ?)", [("austin", 345496), ("dallas", 904078)])
        >>> gold = "SELECT city_name FROM city WHERE population > 500000"
        >>> execution_match("SELECT city_name FROM city WHERE city_name = 'dallas'", gold, db).match
        True
        >>> execution_match("SELECT city_name FROM city", gold, db).distance
        0.5
    """
    executor = executor_for(database, timeout=timeout, max_rows=max_rows)
    gold = executor.execute(gold_sql)
    if not gold.ok:
        raise DatasetError(
            f"gold SQL {gold_sql!r} failed on database {str(database)!r}: {gold.error}. "
            "Fix the gold query in the dataset or drop the example"
            + (" (or raise `timeout`)." if gold.timed_out else ".")
        )
    predicted = executor.execute(predicted_sql)
    match = denotations_match(predicted, gold, ordered=query_is_ordered(gold_sql))
    if match:
        distance = 0.0
    else:  # a non-string prediction (a broken victim) has no tokens in common with the gold
        text = predicted_sql if isinstance(predicted_sql, str) else ""
        distance = max(token_distance(text, gold_sql), MISMATCH_DISTANCE_FLOOR)
    return MatchOutcome(match=match, distance=distance, predicted=predicted, gold=gold)
