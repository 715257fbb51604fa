"""Where the plugin keeps files it derives (converted databases, NLTK resources), how it tells
the versions of a source file apart (:func:`file_version`), and how its SQLite stores are opened
(:func:`store_transaction`)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

CACHE_ENV = "TEXTATTACK_SEMPARSE_CACHE"


def cache_dir() -> Path:
    """``$TEXTATTACK_SEMPARSE_CACHE`` or ``~/.cache/textattack_semparse`` (not created here)."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path.home() / ".cache" / "textattack_semparse"


def file_version(path: str | os.PathLike[str]) -> tuple[int, int]:
    """``(size, modification time in ns)`` of ``path``: what everything derived from a file and kept
    (a converted database, stored gold results, a materialised test set) tells its versions apart
    by, so a changed file gets new entries.

    Raises:
        OSError: ``path`` cannot be read.
    """
    status = os.stat(path)
    return status.st_size, status.st_mtime_ns


def write_atomically(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    temporary.replace(path)
    return path


@contextlib.contextmanager
def store_transaction(path: Path, *schema: str) -> Iterator[sqlite3.Connection]:
    """A connection to the SQLite store ``path`` (its folder made, its ``schema`` statements run)
    for one transaction, committed when the block ends, then closed; another process writing the
    same store is waited for up to 10 s.

    Raises:
        sqlite3.Error, OSError: The store cannot be opened or written (its callers go on without it).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, timeout=10.0)
    try:
        with connection:
            for statement in schema:
                connection.execute(statement)
            yield connection
    finally:
        connection.close()
