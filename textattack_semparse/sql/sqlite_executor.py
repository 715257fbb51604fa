"""Sandboxed SQLite execution of untrusted, model-produced SQL, with a result cache."""

from __future__ import annotations

import math
import os
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, SchemaError, closest_match_hint
from textattack_semparse.sql.execution_result import ExecutionResult

#: Authorizer actions a plain read-only query needs; every other action is denied.
ALLOWED_ACTIONS: frozenset[int] = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE}
)
#: SQL functions denied although reading: extension loading, file access, pointer leaks.
DENIED_FUNCTIONS: frozenset[str] = frozenset(
    {"load_extension", "fts3_tokenizer", "readfile", "writefile", "edit"}
)
#: Largest string or blob a query may build (bytes); stops ``zeroblob(1e9)``-style memory bombs.
MAX_VALUE_BYTES = 1_000_000
#: Largest total size of the text and blob values of one result (bytes).
MAX_RESULT_BYTES = 64_000_000

_PROGRESS_INTERVAL = 1_000  # virtual-machine instructions between two deadline checks
_FETCH_BATCH = 64  # rows fetched between two result-size checks
_QUERY_ERRORS = (sqlite3.Error, sqlite3.Warning, ValueError, OverflowError, MemoryError)
_UNDECODABLE = "OperationalError: Could not decode to UTF-8"  # how a strict run of non-UTF-8 TEXT fails
#: Accepted ``text_errors`` values: how TEXT that is not valid UTF-8 is decoded.
TEXT_ERRORS = ("strict", "ignore")


class CacheInfo(NamedTuple):
    """Result-cache statistics, shaped like :func:`functools.lru_cache`'s."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


class SQLiteExecutor:
    """Run untrusted SQL on one SQLite database, read-only and time-limited, with an LRU cache.

    The SQL comes from a model under attack and is treated as hostile. The database is opened
    read-only (``mode=ro`` URI and ``PRAGMA query_only``); an authorizer allows only reading
    (``SELECT``, column reads, functions, recursive CTEs) and denies writes, schema changes,
    ``ATTACH``/``DETACH``, transactions, every ``PRAGMA`` and extension loading; a progress
    handler interrupts a query at its wall-clock deadline; at most ``max_rows`` rows are kept.
    Several statements in one string are rejected. Every failure is returned as an
    :class:`ExecutionResult` with ``error`` set, never raised. Results are cached per SQL string
    (LRU); failures and time-outs are cached too. SQLite's double-quoted string literals
    (``state_name = "texas"``) keep working.

    Instances are thread-safe and picklable (the connection and cache are dropped and rebuilt
    on first use). Use :func:`executor_for` to share one instance, and its cache, per database.

    Original to textattack-semparse.

    Args:
        db_path (str | os.PathLike): Path of the SQLite database file.
        timeout (float): Wall-clock limit per query, in seconds; no default here, the limits
            are the scorer's (:mod:`textattack_semparse.scoring.execution_scorer`).
        max_rows (int, default 10_000): Rows kept per result; more sets ``truncated``.
        cache_size (int, default 4096): Results kept in the LRU cache; 0 disables caching.
        text_errors (str, default "strict"): How TEXT values that are not valid UTF-8 are
            decoded: ``"strict"`` makes such a query fail (``OperationalError: Could not
            decode to UTF-8``); ``"ignore"`` drops the undecodable bytes, as
            test-suite-sql-eval does (``"caf\\xe9"`` reads as ``"caf"``).

    Raises:
        SchemaError: The database file is missing or is not a readable SQLite database.
        ValueError: ``text_errors`` is not one of :data:`TEXT_ERRORS`.

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "geo.sqlite"
        >>> with sqlite3.connect(path) as db:
        ...     _ = db.execute("CREATE TABLE state (state_name TEXT, population INT)")
        ...     _ = db.execute("INSERT INTO state VALUES ('texas', 14229000)")
        >>> executor = SQLiteExecutor(path, timeout=1.0)
        >>> executor.execute('SELECT population FROM state WHERE state_name = "texas"').rows
        ((14229000,),)
        >>> executor.execute("DROP TABLE state").error
        'DatabaseError: not authorized'
    """

    _connection: sqlite3.Connection | None
    _connection_lock: threading.Lock
    _cache: OrderedDict[str, ExecutionResult]
    _cache_lock: threading.Lock
    _hits: int
    _misses: int
    _deadline: float
    _interrupted: bool

    def __init__(
        self,
        db_path: str | os.PathLike[str],
        *,
        timeout: float,
        max_rows: int = 10_000,
        cache_size: int = 4096,
        text_errors: str = "strict",
    ) -> None:
        _check_positive_number("timeout", timeout)
        _check_int("max_rows", max_rows, minimum=1)
        _check_int("cache_size", cache_size, minimum=0)
        _check_text_errors(text_errors)
        if not isinstance(db_path, (str, os.PathLike)):
            raise ConfigurationTypeError(
                f"db_path must be a str or os.PathLike path of an SQLite file, "
                f"got {type(db_path).__name__}: {db_path!r}"
            )
        self.db_path = Path(db_path)
        self.timeout = timeout
        self.max_rows = max_rows
        self.cache_size = cache_size
        self.text_errors = text_errors
        self._init_runtime_state()
        self._connect()

    def execute(self, sql: str) -> ExecutionResult:
        """Run one SQL query and return its rows, or the reason it failed.

        Never raises for bad SQL: syntax errors, denied operations, several statements,
        time-outs, oversized results and non-string input all come back with ``error`` set.

        Raises:
            SchemaError: The database can no longer be opened (it vanished after pickling).
        """
        if not isinstance(sql, str):
            return ExecutionResult.failure(f"expected SQL text (str), got {type(sql).__name__}")
        cached = self._cache_get(sql)
        if cached is not None:
            return cached
        result = self._run(sql)
        self._cache_put(sql, result)
        return result

    def cached(self, sql: str) -> ExecutionResult | None:
        """The cached result of ``sql``, or ``None`` (also for anything but text); runs nothing
        and leaves the statistics and the recency order as they are."""
        if not isinstance(sql, str):
            return None
        with self._cache_lock:
            return self._cache.get(sql)

    def cache_info(self) -> CacheInfo:
        """Hits, misses, capacity and current size of the result cache."""
        with self._cache_lock:
            return CacheInfo(self._hits, self._misses, self.cache_size, len(self._cache))

    def cache_clear(self) -> None:
        """Empty the result cache and reset its statistics."""
        with self._cache_lock:
            self._cache.clear()
            self._hits = self._misses = 0

    def close(self) -> None:
        """Close the connection; the next :meth:`execute` reopens it."""
        with self._connection_lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({str(self.db_path)!r}, timeout={self.timeout!r}, "
            f"max_rows={self.max_rows!r}, cache_size={self.cache_size!r}"
            + (f", text_errors={self.text_errors!r})" if self.text_errors != "strict" else ")")
        )

    def __getstate__(self) -> dict[str, Any]:
        return {
            "db_path": self.db_path,
            "timeout": self.timeout,
            "max_rows": self.max_rows,
            "cache_size": self.cache_size,
            "text_errors": self.text_errors,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("text_errors", "strict")  # pickled before the option existed
        self.__dict__.update(state)
        self._init_runtime_state()

    def _init_runtime_state(self) -> None:
        self._connection = None
        self._connection_lock = threading.Lock()
        self._cache = OrderedDict()
        self._cache_lock = threading.Lock()
        self._hits = 0
        self._misses = 0
        self._deadline = 0.0
        self._interrupted = False

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = _open_read_only(self.db_path)
            connection.set_progress_handler(self._on_progress, _PROGRESS_INTERVAL)
            self._connection = connection
        return self._connection

    def _on_progress(self) -> int:
        if time.monotonic() > self._deadline:
            self._interrupted = True
            return 1
        return 0

    def _run(self, sql: str) -> ExecutionResult:
        with self._connection_lock:
            result = self._run_decoded(sql)
            if self.text_errors != "strict" and result.error is not None and result.error.startswith(_UNDECODABLE):
                # TEXT that is not UTF-8: run again, decoding in Python (slower, so only when needed;
                # such a query may take up to twice the time limit in all)
                connection = self._connect()
                connection.text_factory = _lenient_text_decoder(self.text_errors)
                try:
                    result = self._run_decoded(sql)
                finally:
                    connection.text_factory = str
        return result

    def _run_decoded(self, sql: str) -> ExecutionResult:
        """One run of ``sql``, decoding TEXT with the connection's ``text_factory``."""
        cursor = self._connect().cursor()
        self._interrupted = False
        start = time.monotonic()
        self._deadline = start + self.timeout
        try:
            cursor.execute(sql)
            if cursor.description is None:
                return ExecutionResult.failure(
                    "statement produced no result set; only a single SELECT query is run"
                )
            columns = tuple(str(column[0]) for column in cursor.description)
            rows, truncated = self._fetch(cursor)
        except _QUERY_ERRORS as exc:
            if self._interrupted:
                return ExecutionResult.failure(
                    f"query interrupted at the {self.timeout:g} s time limit", timed_out=True
                )
            return ExecutionResult.failure(f"{type(exc).__name__}: {exc}")
        finally:
            cursor.close()
        return ExecutionResult(rows=rows, columns=columns, truncated=truncated, seconds=time.monotonic() - start)

    def _fetch(self, cursor: sqlite3.Cursor) -> tuple[tuple[tuple[Any, ...], ...], bool]:
        """Fetch up to ``max_rows + 1`` rows (one extra detects truncation), in batches whose
        size is checked against :data:`MAX_RESULT_BYTES`; a short batch is the last."""
        rows: list[tuple[Any, ...]] = []
        width = len(cursor.description or ())
        size: int | None = None  # summed from when the rows could exceed the cap (a value holds <= MAX_VALUE_BYTES)
        while len(rows) <= self.max_rows:
            wanted = min(_FETCH_BATCH, self.max_rows + 1 - len(rows))
            batch = cursor.fetchmany(wanted)
            if size is not None:
                size += sum(map(_row_bytes, batch))
            elif (len(rows) + len(batch)) * width * MAX_VALUE_BYTES > MAX_RESULT_BYTES:
                size = sum(map(_row_bytes, rows)) + sum(map(_row_bytes, batch))
            if size is not None and size > MAX_RESULT_BYTES:
                raise ValueError(f"result larger than {MAX_RESULT_BYTES} bytes")
            rows.extend(batch)
            if len(batch) < wanted:
                break
        return tuple(rows[: self.max_rows]), len(rows) > self.max_rows

    def _cache_get(self, sql: str) -> ExecutionResult | None:
        with self._cache_lock:
            result = self._cache.get(sql)
            if result is None:
                self._misses += 1
                return None
            self._hits += 1
            self._cache.move_to_end(sql)
            return result

    def _cache_put(self, sql: str, result: ExecutionResult) -> None:
        if self.cache_size == 0:
            return
        with self._cache_lock:
            self._cache[sql] = result
            self._cache.move_to_end(sql)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)


_SHARED: dict[tuple[Path, float, int, str], SQLiteExecutor] = {}
_SHARED_LOCK = threading.Lock()


def executor_for(
    db_path: str | os.PathLike[str],
    *,
    timeout: float,
    max_rows: int = 10_000,
    text_errors: str = "strict",
) -> SQLiteExecutor:
    """The process-wide :class:`SQLiteExecutor` for this database and settings.

    Callers passing the same (resolved path, timeout, max_rows, text_errors) get the same
    instance and so share its result cache.

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "db.sqlite"
        >>> sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
        >>> executor_for(path, timeout=1.0) is executor_for(str(path), timeout=1.0)
        True
    """
    _check_text_errors(text_errors)
    key = (Path(db_path).resolve(), timeout, max_rows, text_errors)
    with _SHARED_LOCK:
        executor = _SHARED.get(key)
        if executor is None:
            executor = SQLiteExecutor(
                key[0], timeout=timeout, max_rows=max_rows, text_errors=text_errors
            )
            _SHARED[key] = executor
        return executor


def clear_shared_caches() -> None:
    """Empty the result cache of every executor :func:`executor_for` has handed out."""
    with _SHARED_LOCK:
        executors = list(_SHARED.values())
    for executor in executors:
        executor.cache_clear()


def _open_read_only(path: Path) -> sqlite3.Connection:
    """Open ``path`` read-only with the authorizer and limits installed."""
    fix = (
        "Pass the path of an existing, readable SQLite database file (a MySQL dump such as "
        "GeoQuery's geography-db.sql must first be converted with "
        "textattack_semparse.sql.mysql_dump.cached_sqlite_from_dump)."
    )
    if not path.is_file():
        raise SchemaError(f"SQLite database {str(path)!r} does not exist or is not a file. {fix}")
    try:
        connection = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro",
            uri=True,
            check_same_thread=False,
            isolation_level=None,
        )
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        raise SchemaError(
            f"cannot read SQLite database {str(path)!r}: {exc}. {fix}"
        ) from exc
    connection.execute("PRAGMA query_only = ON")
    connection.execute("PRAGMA trusted_schema = OFF")
    if hasattr(connection, "enable_load_extension"):
        connection.enable_load_extension(False)
    if sys.version_info >= (3, 11):  # Connection.setlimit and its constants are new in 3.11
        connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    connection.set_authorizer(_authorize)
    return connection


def _authorize(
    action: int, arg1: str | None, arg2: str | None, database: str | None, source: str | None
) -> int:
    """SQLite authorizer: allow reading actions and functions other than :data:`DENIED_FUNCTIONS`."""
    if action in ALLOWED_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() not in DENIED_FUNCTIONS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def _row_bytes(row: tuple[Any, ...]) -> int:
    return sum(len(value) if isinstance(value, (str, bytes)) else 8 for value in row)


def _check_positive_number(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigurationTypeError(f"{name} must be a number of seconds, got {type(value).__name__}: {value!r}")
    if not (value > 0 and math.isfinite(value)):
        raise ConfigurationError(f"{name} must be a positive, finite number of seconds, got {value!r}")


def _lenient_text_decoder(errors: str) -> Callable[[bytes], str]:
    """A ``text_factory`` decoding UTF-8 with the given error handler."""

    def decode(raw: bytes) -> str:
        return raw.decode("utf-8", errors=errors)

    return decode


def _check_text_errors(value: object) -> None:
    if value not in TEXT_ERRORS:
        raise ConfigurationError(
            f"text_errors must be one of {', '.join(map(repr, TEXT_ERRORS))}, got {value!r}."
            + (closest_match_hint(value, TEXT_ERRORS) if isinstance(value, str) else "")
        )


def _check_int(name: str, value: object, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigurationTypeError(f"{name} must be an int, got {type(value).__name__}: {value!r}")
    if value < minimum:
        raise ConfigurationError(f"{name} must be >= {minimum}, got {value!r}")
