"""Results of slow gold queries, kept on disk so that the next process does not wait for them again.

A benchmark's gold queries are run once per process to judge predictions against them. Most take
milliseconds, but a few take minutes: ATIS's question-split test #317 runs into its 300 s limit
every time and #272 takes about 40 s, so every `evaluate`, `attack` or `robustness run` on ATIS
waited more than five minutes for two queries whose outcome never changes. A gold query that ran
for at least :data:`SLOW_SECONDS` (or into its limit) is remembered here, by the database file
(path, size and modification time), the query, its time limit, row cap and text decoding; a
process that meets it again reads the result instead of running the query. Fast queries are not
stored: running them costs less than reading them.

A query that ran into its limit is remembered as such for that limit: run it again with a
larger ``gold_timeout`` (the fix the gold error names), or delete the file
(``$TEXTATTACK_SEMPARSE_CACHE/slow_gold_queries.sqlite``). Predicted queries, a model's output,
are never stored. The store is an optimisation only: when it cannot be read or written (a
read-only or corrupt file) queries simply run. Original to textattack-semparse.

Example:
    >>> import sqlite3, tempfile, pathlib
    >>> database = pathlib.Path(tempfile.mkdtemp()) / "db.sqlite"
    >>> sqlite3.connect(database).close()
    >>> from textattack_semparse.sql.execution_result import ExecutionResult
    >>> key = GoldQueryKey.of(database, "SELECT 1", limit=60.0, max_rows=10, text_errors="strict")
    >>> remember(key, ExecutionResult(rows=((1,),), columns=("1",), seconds=0.01))  # fast: not stored
    >>> recall(key) is None
    True
"""

from __future__ import annotations

import ast
import contextlib
import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.cache import cache_dir, file_version, store_transaction
from textattack_semparse.sql.execution_result import ExecutionResult

logger = logging.getLogger(__name__)

SLOW_SECONDS = 1.0
"""A gold query that ran at least this long (or into its limit) is remembered."""

MAX_ENTRIES = 10_000
"""Results kept; beyond it the oldest are dropped."""

STORE_NAME = "slow_gold_queries.sqlite"
"""The file under :func:`~textattack_semparse.cache.cache_dir`."""

_LOCK = threading.Lock()
_identities: dict[object, str] = {}
"""Each database as given (a relative path with the working directory) -> its file's identity (path, size, modification time), found once per
process (:func:`forget_recalled` forgets it, as :func:`~textattack_semparse.sql.execution.clear_caches`
forgets the results of a file that changed)."""
_recalled: dict[GoldQueryKey, ExecutionResult] = {}
"""Results this process read or wrote."""
_read_databases: set[str] = set()
"""The database identities whose stored results this process has read."""


@dataclass(frozen=True)
class GoldQueryKey:
    """What a gold query's result depends on: the database file as it is (``database``: its path,
    size and modification time), the query as run, and the executor's limit, row cap and decoding."""

    database: str
    sql: str
    limit: float
    max_rows: int
    text_errors: str

    @classmethod
    def of(
        cls, database: str | os.PathLike[str], sql: str, *, limit: float, max_rows: int, text_errors: str
    ) -> GoldQueryKey:
        given = database if os.path.isabs(database) else (os.getcwd(), database)
        identity = _identities.get(given)
        if identity is None:
            path = Path(database).resolve()
            identity = json.dumps([str(path), *file_version(path)])
            with _LOCK:
                _identities[given] = identity
        return cls(identity, sql, float(limit), max_rows, text_errors)


def recall(key: GoldQueryKey) -> ExecutionResult | None:
    """The stored result of the gold query ``key`` names, or ``None``. The first look-up of a
    database reads all of its stored results at once, so a gold query that was fast (never
    stored) costs a dictionary look-up, not a file access."""
    with _LOCK:
        unread = key.database not in _read_databases
        _read_databases.add(key.database)
    if unread:
        _read(key.database)
    with _LOCK:
        return _recalled.get(key)


def remember(key: GoldQueryKey, result: ExecutionResult) -> None:
    """Store ``result`` for ``key`` when the query was slow (:data:`SLOW_SECONDS`) or ran into its limit."""
    if not result.timed_out and result.seconds < SLOW_SECONDS:
        return
    with _LOCK:
        _recalled[key] = result
    try:
        with _store() as connection:
            connection.execute(
                "INSERT OR REPLACE INTO results (database, sql, time_limit, max_rows, text_errors, result) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (key.database, key.sql, key.limit, key.max_rows, key.text_errors, _encode(result)),
            )
            connection.execute(
                "DELETE FROM results WHERE rowid NOT IN (SELECT rowid FROM results ORDER BY rowid DESC LIMIT ?)",
                (MAX_ENTRIES,),
            )
    except (sqlite3.Error, OSError) as error:
        logger.debug("slow gold queries: not written (%s)", error)


def forget_recalled() -> None:
    """Forget what this process read, wrote and found of the database files (the store stays):
    the next look-up finds each file again and reads the store."""
    with _LOCK:
        _identities.clear()
        _recalled.clear()
        _read_databases.clear()


def _read(database: str) -> None:
    """Put the stored results of ``database`` in :data:`_recalled` (an unreadable one is left out)."""
    try:
        with _store() as connection:
            rows = connection.execute(
                "SELECT sql, time_limit, max_rows, text_errors, result FROM results WHERE database = ?", (database,)
            ).fetchall()
    except (sqlite3.Error, OSError) as error:
        logger.debug("slow gold queries: not read (%s)", error)
        return
    for sql, limit, max_rows, text_errors, text in rows:
        try:
            result = _decode(text)
        except (ValueError, SyntaxError, TypeError, KeyError) as error:
            logger.debug("slow gold queries: an unreadable entry left out (%s)", error)
            continue
        with _LOCK:
            _recalled.setdefault(GoldQueryKey(database, sql, float(limit), int(max_rows), text_errors), result)


def _store() -> contextlib.AbstractContextManager[sqlite3.Connection]:
    """The store's connection for one transaction (committed when the block ends), then closed."""
    return store_transaction(
        cache_dir() / STORE_NAME,
        "CREATE TABLE IF NOT EXISTS results (database TEXT NOT NULL, sql TEXT NOT NULL, time_limit REAL NOT "
        "NULL, max_rows INTEGER NOT NULL, text_errors TEXT NOT NULL, result TEXT NOT NULL, "
        "PRIMARY KEY (database, sql, time_limit, max_rows, text_errors))",
    )


def _encode(result: ExecutionResult) -> str:
    """``result`` as Python literals (rows may hold bytes, which JSON cannot)."""
    return repr(
        {
            "rows": result.rows,
            "columns": result.columns,
            "error": result.error,
            "timed_out": result.timed_out,
            "truncated": result.truncated,
            "seconds": result.seconds,
        }
    )


def _decode(text: str) -> ExecutionResult:
    fields = ast.literal_eval(text)
    return ExecutionResult(
        rows=tuple(tuple(row) for row in fields["rows"]),
        columns=tuple(fields["columns"]),
        error=fields["error"],
        timed_out=bool(fields["timed_out"]),
        truncated=bool(fields["truncated"]),
        seconds=float(fields["seconds"]),
    )
