"""Execution match of a predicted query against the gold query: the goal functions' oracle."""

from __future__ import annotations

import os
from dataclasses import dataclass

from textattack_semparse.errors import DatasetError, closest_match_hint
from textattack_semparse.sql.denotation import (
    denotations_match,
    denotations_match_test_suite,
    query_is_ordered,
    query_is_ordered_test_suite,
)
from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.sql.sql_tokens import token_distance
from textattack_semparse.sql.sqlite_executor import _check_positive_number, executor_for
from textattack_semparse.sql.suite_preparation import prepare_for_test_suite

#: Smallest distance of a non-matching prediction, so a prediction whose tokens equal the
#: gold's but whose result differs (it timed out, say) never scores like a match.
MISMATCH_DISTANCE_FLOOR = 1e-3

#: How :func:`execution_match` compares results (``docs/sql.md``, "How denotations compare"):
#: ``classical`` is :func:`~textattack_semparse.sql.denotation.denotations_match`;
#: ``test-suite`` follows test-suite-sql-eval (Zhong, Yu and Klein 2020).
MODES = ("classical", "test-suite")


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
    mode: str = "classical",
    timeout: float = 5.0,
    gold_timeout: float = 60.0,
    max_rows: int = 10_000,
) -> MatchOutcome:
    """Run both queries on ``database`` and compare their denotations.

    ``mode`` chooses the comparison (one of :data:`MODES`):

    - ``"classical"``: :func:`~textattack_semparse.sql.denotation.denotations_match`. Rows
      compare as multisets with numeric tolerance, in order only when the gold query's
      outermost ``SELECT`` has ``ORDER BY``; columns must come in the gold's order.
    - ``"test-suite"``: the execution match of Zhong, Yu and Klein 2020, "Semantic
      Evaluation for Text-to-SQL with Distilled Test Suites"
      (https://aclanthology.org/2020.emnlp-main.29/), as its evaluator ``eval_exec_match``
      runs it with Spider's defaults. Both queries are first rewritten by
      :func:`~textattack_semparse.sql.suite_preparation.prepare_for_test_suite` (first
      statement only, ``DISTINCT`` removed, ``> =`` repaired); results compare with
      :func:`~textattack_semparse.sql.denotation.denotations_match_test_suite` (columns in
      any order, exact values), in order when the gold's text contains ``order by``
      (:func:`~textattack_semparse.sql.denotation.query_is_ordered_test_suite`); text that
      is not valid UTF-8 is decoded with errors ignored.

    Both modes run the queries in the same sandbox. The gold query runs with its own time
    limit, ``gold_timeout``, and the prediction with ``timeout``; results are cached per
    (database, settings, SQL) through :func:`executor_for`, so a gold query runs once per
    database. A predicted query that fails or times out is a non-match, never an exception.

    Args:
        predicted_sql: SQL produced by the model; treated as hostile.
        gold_sql: The dataset's gold SQL.
        database: Path of the SQLite database both queries run on.
        mode: ``"classical"`` or ``"test-suite"``.
        timeout: Wall-clock limit of the predicted query, in seconds.
        gold_timeout: Wall-clock limit of the gold query, in seconds.
        max_rows: Rows kept per result.

    Raises:
        ValueError: ``mode`` is not one of :data:`MODES`.
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
        >>> gold = "SELECT city_name, population FROM city"
        >>> swapped = "SELECT population, city_name FROM city"
        >>> execution_match(swapped, gold, db).match, execution_match(swapped, gold, db, mode="test-suite").match
        (False, True)
    """
    _check_mode(mode)
    _check_positive_number("gold_timeout", gold_timeout)
    test_suite = mode == "test-suite"
    text_errors = "ignore" if test_suite else "strict"
    gold_executor = executor_for(
        database, timeout=gold_timeout, max_rows=max_rows, text_errors=text_errors
    )
    predicted_executor = executor_for(
        database, timeout=timeout, max_rows=max_rows, text_errors=text_errors
    )
    gold_run = _prepare(gold_sql) if test_suite else gold_sql
    gold = gold_executor.execute(gold_run)
    if not gold.ok:
        ran_as = f" (run as {gold_run!r})" if gold_run != gold_sql else ""
        raise DatasetError(
            f"gold SQL {gold_sql!r}{ran_as} failed on database {str(database)!r}: {gold.error}. "
            "Fix the gold query in the dataset or drop the example"
            + (" (or raise `gold_timeout`)." if gold.timed_out else ".")
        )
    if test_suite:
        predicted = predicted_executor.execute(_prepare(predicted_sql))
        match = denotations_match_test_suite(
            predicted, gold, ordered=query_is_ordered_test_suite(gold_run)
        )
    else:
        predicted = predicted_executor.execute(predicted_sql)
        match = denotations_match(predicted, gold, ordered=query_is_ordered(gold_sql))
    if match:
        distance = 0.0
    else:  # a non-string prediction (a broken victim) has no tokens in common with the gold
        text = predicted_sql if isinstance(predicted_sql, str) else ""
        distance = max(token_distance(text, gold_sql), MISMATCH_DISTANCE_FLOOR)
    return MatchOutcome(match=match, distance=distance, predicted=predicted, gold=gold)


def _prepare(sql: object) -> object:
    """Test-suite rewriting of SQL text; anything else is left for the executor to reject."""
    return prepare_for_test_suite(sql) if isinstance(sql, str) else sql


def _check_mode(mode: object) -> None:
    if mode not in MODES:
        hint = closest_match_hint(mode, MODES) if isinstance(mode, str) else ""
        raise ValueError(
            f"Unknown execution-match mode {mode!r}; accepted modes: "
            f"{', '.join(repr(name) for name in MODES)}.{hint}"
        )
