"""The embedded geo-mini benchmark: GeoQuery-style questions over a small GeoQuery-schema database.

Written for textattack-semparse from public facts about US states (see the header of
``resources/geo_mini/geo-mini.sql``); nothing is copied from the GeoQuery release. It lets the
recipes, victims and tests run on a fresh clone with no data download.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.cache import CACHE_ENV, cache_dir
from textattack_semparse.errors import DatasetError

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:  # Python 3.10 has it only in importlib.abc
        from importlib.abc import Traversable

_JSON_NAME = "geo-mini.json"
_SCRIPT_NAME = "geo-mini.sql"


def _resource(name: str) -> Traversable:
    return resources.files("textattack_semparse") / "resources" / "geo_mini" / name


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _materialise(script: str, target: Path) -> None:
    """Run ``script`` into a temporary SQLite file next to ``target`` and rename it into place."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".geo-mini-", suffix=".sqlite.tmp")
    os.close(handle)
    try:
        connection = sqlite3.connect(temporary)
        try:
            connection.executescript(script)
            connection.commit()
        finally:
            connection.close()
        os.chmod(temporary, 0o644)  # mkstemp creates 0600; the cache is readable like any cache file
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def geo_mini_paths() -> tuple[Path, Path]:
    """Return ``(json_path, sqlite_path)`` of the embedded geo-mini benchmark.

    The SQLite database is built from the packaged ``geo-mini.sql`` on first use, into
    ``<cache>/sqlite/`` (``$TEXTATTACK_SEMPARSE_CACHE`` or ``~/.cache/textattack_semparse``),
    under a name keyed by the script's SHA-256, so an edited script gives a new file. The build
    writes a temporary file and renames it, so concurrent callers never see a half-written
    database.

    Raises:
        DatasetError: The cache directory cannot be written.

    Example:
        >>> json_path, sqlite_path = geo_mini_paths()
        >>> json_path.name, sqlite_path.suffix
        ('geo-mini.json', '.sqlite')
    """
    script = _resource(_SCRIPT_NAME).read_text(encoding="utf-8")
    directory = cache_dir() / "sqlite"
    database = directory / f"geo-mini-{_digest(script)}.sqlite"
    try:
        if not database.is_file():
            directory.mkdir(parents=True, exist_ok=True)
            _materialise(script, database)
        json_resource = _resource(_JSON_NAME)
        if isinstance(json_resource, Path):
            json_path = json_resource
        else:  # installed as a zip: copy the JSON next to the database
            text = json_resource.read_text(encoding="utf-8")
            json_path = directory / f"geo-mini-{_digest(text)}.json"
            if not json_path.is_file():
                json_path.write_text(text, encoding="utf-8")
    except (OSError, sqlite3.Error) as error:
        raise DatasetError(
            f"Cannot build the geo-mini database in {str(directory)!r}: {error}. "
            f"Set {CACHE_ENV} to a writable directory."
        ) from error
    return json_path, database
