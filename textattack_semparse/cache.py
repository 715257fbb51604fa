"""Where the plugin keeps files it derives (converted databases, NLTK resources), and how it tells
the versions of a source file apart (:func:`file_version`)."""

from __future__ import annotations

import os
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
