"""Execution match of a predicted query against the gold query: the goal functions' oracle."""

from __future__ import annotations

import functools
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from textattack_semparse.errors import ConfigurationTypeError, DatasetError
from textattack_semparse.sql import slow_gold_results
from textattack_semparse.sql.denotation import (
    denotations_match,
    denotations_match_test_suite,
    query_is_ordered,
    query_is_ordered_test_suite,
)
from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.sql.sql_tokens import clear_token_cache, token_distance
from textattack_semparse.sql.sqlite_executor import (
    SQLiteExecutor,
    _check_positive_number,
    clear_shared_caches,
    executor_for,
)
from textattack_semparse.sql.suite_preparation import prepare_for_test_suite

#: Smallest distance of a non-matching prediction, so a prediction whose tokens equal the
#: gold's but whose result differs (it timed out, say) never scores like a match.
MISMATCH_DISTANCE_FLOOR = 1e-3

#: Judgments :func:`execution_match` remembers (the oldest is forgotten first).
MEMO_SIZE = 4096

_OUTCOMES: dict[tuple[Any, ...], MatchOutcome] = {}
_EXECUTORS: dict[tuple[Any, ...], tuple[SQLiteExecutor, SQLiteExecutor]] = {}
_MEMO_LOCK = threading.Lock()


@dataclass(frozen=True)
class MatchOutcome:
    """Whether a predicted query returns the gold query's result, and how far off it is.

    Original to textattack-semparse.

    Args:
        match (bool): The predicted result denotes the same answer as the gold result.
        predicted (ExecutionResult): Result of the predicted query (may carry an error).
        gold (ExecutionResult): Result of the gold query.
        predicted_sql (str): The predicted query's text ("" for a non-string prediction).
        gold_sql (str): The gold query's text.
    """

    match: bool
    predicted: ExecutionResult
    gold: ExecutionResult
    predicted_sql: str = field(default="", repr=False, compare=False)
    gold_sql: str = field(default="", repr=False, compare=False)

    @functools.cached_property
    def distance(self) -> float:
        """0.0 when :attr:`match`; otherwise the token edit distance of the two queries, at least
        :data:`MISMATCH_DISTANCE_FLOOR`, at most 1.0. Computed when first asked: an evaluation
        that only counts matches never tokenises a query."""
        if self.match:
            return 0.0
        return max(token_distance(self.predicted_sql, self.gold_sql), MISMATCH_DISTANCE_FLOOR)


def execution_match(
    predicted_sql: str,
    gold_sql: str,
    database: str | os.PathLike[str],
    *,
    test_suite: bool,
    timeout: float,
    gold_timeout: float,
    max_rows: int = 10_000,
) -> MatchOutcome:
    """Run both queries on ``database`` and compare their denotations.

    ``test_suite`` chooses the comparison; which one a benchmark uses, and the default time
    limits, are the scorer's policy (:mod:`textattack_semparse.scoring.execution_scorer`, whose
    modes ``classical`` and ``test-suite`` map to False and True):

    - False: :func:`~textattack_semparse.sql.denotation.denotations_match`. Rows
      compare as multisets with numeric tolerance, in order only when the gold query's
      outermost ``SELECT`` has ``ORDER BY``; columns must come in the gold's order.
    - True: the execution match of Zhong, Yu and Klein 2020, "Semantic
      Evaluation for Text-to-SQL with Distilled Test Suites"
      (https://aclanthology.org/2020.emnlp-main.29/), as its evaluator ``eval_exec_match``
      runs it with Spider's defaults. Both queries are first rewritten by
      :func:`~textattack_semparse.sql.suite_preparation.prepare_for_test_suite` (first
      statement only, ``DISTINCT`` removed, ``> =`` repaired); results compare with
      :func:`~textattack_semparse.sql.denotation.denotations_match_test_suite` (columns in
      any order, exact values), in order when the gold's text contains ``order by``
      (:func:`~textattack_semparse.sql.denotation.query_is_ordered_test_suite`); text that
      is not valid UTF-8 is decoded with errors ignored.

    Both comparisons run the queries in the same sandbox. The gold query runs with its own time
    limit, ``gold_timeout``, and the prediction with ``timeout``; results are cached per
    (database, settings, SQL) through :func:`executor_for`, so a gold query runs once per
    database; a query both executors would run (a prediction equal to a gold query) runs once
    when that run finished within the other's time limit. The last :data:`MEMO_SIZE`
    judgments are remembered per (database as given, settings, predicted SQL, gold SQL), so
    asking again costs one dictionary look-up. The caches assume the database files do not
    change while the process runs (else call :func:`clear_caches`). A predicted query that
    fails or times out is a non-match, never an exception.

    Args:
        predicted_sql: SQL produced by the model; treated as hostile.
        gold_sql: The dataset's gold SQL.
        database: Path of the SQLite database both queries run on.
        test_suite: Compare as test-suite-sql-eval does (else the classical comparison).
        timeout: Wall-clock limit of the predicted query, in seconds.
        gold_timeout: Wall-clock limit of the gold query, in seconds.
        max_rows: Rows kept per result.

    Raises:
        TypeError: ``test_suite`` is not a bool.
        DatasetError: The gold query fails or times out.
        SchemaError: The database file is missing or unreadable.

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> db = pathlib.Path(tempfile.mkdtemp()) / "geo.sqlite"
        >>> with sqlite3.connect(db) as conn:
        ...     _ = conn.execute("CREATE TABLE city (city_name TEXT, population INT)")
        ...     _ = conn.executemany("INSERT INTO city VALUES (?, ?)", [("austin", 345496), ("dallas", 904078)])
        >>> limits = {"timeout": 1.0, "gold_timeout": 10.0}
        >>> gold = "SELECT city_name FROM city WHERE population > 500000"
        >>> predicted = "SELECT city_name FROM city WHERE city_name = 'dallas'"
        >>> execution_match(predicted, gold, db, test_suite=False, **limits).match
        True
        >>> execution_match("SELECT city_name FROM city", gold, db, test_suite=False, **limits).distance
        0.5
        >>> gold = "SELECT city_name, population FROM city"
        >>> swapped = "SELECT population, city_name FROM city"
        >>> [execution_match(swapped, gold, db, test_suite=flag, **limits).match for flag in (False, True)]
        [False, True]
    """
    key = (_database_key(database), test_suite, timeout, gold_timeout, max_rows, predicted_sql, gold_sql)
    try:
        outcome = _OUTCOMES.get(key)
    except TypeError:  # an unhashable prediction (a broken victim) or setting: judged, not remembered
        return _judge(predicted_sql, gold_sql, database, test_suite, timeout, gold_timeout, max_rows)
    if outcome is None:
        outcome = _judge(predicted_sql, gold_sql, database, test_suite, timeout, gold_timeout, max_rows)
        with _MEMO_LOCK:
            _OUTCOMES[key] = outcome
            while len(_OUTCOMES) > MEMO_SIZE:
                del _OUTCOMES[next(iter(_OUTCOMES))]
    return outcome


def clear_caches() -> None:
    """Forget every remembered judgment, query result, parse and tokenization.

    Call it when a database file changed while the process runs; benchmarks call it to
    measure cold judgments.

    Example:
        >>> clear_caches()
    """
    with _MEMO_LOCK:
        _OUTCOMES.clear()
        _EXECUTORS.clear()
    clear_shared_caches()
    slow_gold_results.forget_recalled()
    query_is_ordered.cache_clear()
    prepare_for_test_suite.cache_clear()
    clear_token_cache()


def _judge(
    predicted_sql: str,
    gold_sql: str,
    database: str | os.PathLike[str],
    test_suite: bool,
    timeout: float,
    gold_timeout: float,
    max_rows: int,
) -> MatchOutcome:
    """:func:`execution_match` without the memo."""
    if not isinstance(test_suite, bool):
        raise ConfigurationTypeError(f"test_suite must be a bool, got {type(test_suite).__name__}: {test_suite!r}")
    _check_positive_number("gold_timeout", gold_timeout)
    gold_executor, predicted_executor = _executors(
        database, timeout=timeout, gold_timeout=gold_timeout, max_rows=max_rows, test_suite=test_suite
    )
    gold_run = _prepare(gold_sql) if test_suite else gold_sql
    gold = _gold_result(gold_run, database, gold_executor, predicted_executor)
    if not gold.ok:
        ran_as = f" (run as {gold_run!r})" if gold_run != gold_sql else ""
        raise DatasetError(
            f"gold SQL {gold_sql!r}{ran_as} failed on database {str(database)!r}: {gold.error}. "
            "Fix the gold query in the dataset or drop the example"
            + (" (or raise `gold_timeout`)." if gold.timed_out else ".")
        )
    predicted_run = _prepare(predicted_sql) if test_suite else predicted_sql
    if predicted_run == gold_run and gold.seconds < timeout:
        predicted = gold  # the gold query itself, and it ran within the prediction's time limit
    else:
        predicted = _execute(predicted_run, predicted_executor, gold_executor, timeout)
    if test_suite:
        match = denotations_match_test_suite(
            predicted, gold, ordered=query_is_ordered_test_suite(gold_run)
        )
    else:
        match = denotations_match(predicted, gold, ordered=query_is_ordered(gold_sql))
    # a non-string prediction (a broken victim) has no tokens in common with the gold
    text = predicted_sql if isinstance(predicted_sql, str) else ""
    return MatchOutcome(match=match, predicted=predicted, gold=gold, predicted_sql=text, gold_sql=gold_sql)


def _database_key(database: Any) -> Any:
    """``database`` as given, with the working directory when it is a relative path."""
    try:
        absolute = os.path.isabs(database)
    except TypeError:  # not a path: the executor rejects it
        return database
    return database if absolute else (os.getcwd(), database)


def _executors(
    database: str | os.PathLike[str], *, timeout: float, gold_timeout: float, max_rows: int, test_suite: bool
) -> tuple[SQLiteExecutor, SQLiteExecutor]:
    """The shared gold and prediction executors of ``database`` (found once per path as given)."""
    key = (_database_key(database), timeout, gold_timeout, max_rows, test_suite)
    pair = _EXECUTORS.get(key)
    if pair is None:
        text_errors = "ignore" if test_suite else "strict"
        pair = (
            executor_for(database, timeout=gold_timeout, max_rows=max_rows, text_errors=text_errors),
            executor_for(database, timeout=timeout, max_rows=max_rows, text_errors=text_errors),
        )
        with _MEMO_LOCK:
            _EXECUTORS[key] = pair
    return pair


def _execute(sql: str, executor: SQLiteExecutor, other: SQLiteExecutor, limit: float) -> ExecutionResult:
    """``executor``'s result of ``sql``, or ``other``'s cached one when that run finished within
    ``limit`` seconds: the two differ only in their time limits, so the query is not run twice."""
    known = other.cached(sql)
    if known is not None and known.ok and known.seconds < limit:
        return known
    return executor.execute(sql)


def _gold_result(
    gold_run: str, database: str | os.PathLike[str], gold_executor: SQLiteExecutor, predicted_executor: SQLiteExecutor
) -> ExecutionResult:
    """The gold query's result: this process's, else the one a slow run left on disk
    (:mod:`~textattack_semparse.sql.slow_gold_results`), else a new run (remembered when slow)."""
    limit = gold_executor.timeout
    key = None
    if isinstance(gold_run, str) and gold_executor.cached(gold_run) is None:
        try:
            key = slow_gold_results.GoldQueryKey.of(
                database, gold_run, limit=limit, max_rows=gold_executor.max_rows, text_errors=gold_executor.text_errors
            )
        except (OSError, TypeError):  # no such file, or not a path: the executor says so
            key = None
    stored = slow_gold_results.recall(key) if key is not None else None
    if stored is not None:
        return stored
    result = _execute(gold_run, gold_executor, predicted_executor, limit)
    if key is not None:
        slow_gold_results.remember(key, result)
    return result


def _prepare(sql: str) -> str:
    """Test-suite rewriting of SQL text; anything else is left for the executor to reject."""
    return prepare_for_test_suite(sql) if isinstance(sql, str) else sql
