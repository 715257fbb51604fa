"""Where a benchmark's queries run: one database, a suite of one schema, or one per ``db_id``."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textattack_semparse.errors import ConfigurationError, SchemaError


@dataclass(frozen=True)
class Databases:
    """The SQLite databases gold and predicted queries of a benchmark run on.

    Three shapes, as benchmarks ship them:

    * one file (GeoQuery, ATIS): ``Databases.at("geography.sqlite")``;
    * several databases of one schema, a *test suite* (Zhong, Yu and Klein 2020,
      "Semantic Evaluation for Text-to-SQL with Distilled Test Suites",
      https://aclanthology.org/2020.emnlp-main.29/): ``Databases(files=(a, b, c))``;
      a prediction is correct only if it matches the gold on every one;
    * a root with one folder per ``db_id`` (Spider): ``Databases.at(root)``; the databases of
      an example are ``<root>/<db_id>/<db_id>.sqlite`` followed by every other ``*.sqlite``
      in that folder (a distilled test suite placed beside it, as test-suite-sql-eval lays
      out Spider). Each folder is listed once per instance, on its first example: the
      databases are assumed not to change while they are in use.

    Original to textattack-semparse.

    Args:
        files (tuple[Path, ...], default ()): Databases every example runs on.
        root (Path | None, default None): Folder of per-``db_id`` folders.

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "geo.sqlite"
        >>> sqlite3.connect(path).close()
        >>> Databases.at(path).for_example(None) == (path,)
        True
    """

    files: tuple[Path, ...] = ()
    root: Path | None = None
    _listed: dict[str, tuple[Path, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "files", tuple(Path(file) for file in self.files))
        if self.root is not None:
            object.__setattr__(self, "root", Path(self.root))
        if bool(self.files) == (self.root is not None):
            raise ConfigurationError("Databases takes either files (one database or a suite) or a root of per-db_id folders.")

    def __getstate__(self) -> dict[str, Any]:
        return {"files": self.files, "root": self.root}  # folders are listed again where unpickled

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _listed={})

    @classmethod
    def at(cls, path: str | os.PathLike[str]) -> Databases:
        """One SQLite file, or a directory of per-``db_id`` folders.

        Raises:
            SchemaError: ``path`` does not exist.
        """
        path = Path(path)
        if not path.exists():
            raise SchemaError(
                f"Database {str(path)!r} does not exist. Pass a SQLite file, or a folder holding one "
                "'<db_id>/<db_id>.sqlite' per database."
            )
        return cls(root=path) if path.is_dir() else cls(files=(path,))

    @classmethod
    def suite(cls, files: Iterable[str | os.PathLike[str]]) -> Databases:
        """Several databases of one schema; an empty list raises :class:`SchemaError`."""
        paths = tuple(Path(file) for file in files)
        if not paths:
            raise SchemaError("A database suite needs at least one SQLite file.")
        return cls(files=paths)

    @property
    def primary(self) -> Path | None:
        """The first database of a single-schema benchmark (its original); ``None`` for a root."""
        return self.files[0] if self.files else None

    def for_example(self, db_id: str | None) -> tuple[Path, ...]:
        """The databases one example runs on, original first.

        Raises:
            SchemaError: A root without a ``db_id``, or no database for ``db_id``.
        """
        if self.root is None:
            return self.files
        if db_id is None:
            raise SchemaError(
                f"Databases under {str(self.root)!r} are chosen by db_id, but the example has none; "
                "give every example its db_id (a 'db_id' input column)."
            )
        listed = self._listed.get(db_id)
        if listed is None:
            listed = self._listed[db_id] = _list_folder(self.root, db_id)
        return listed

    def describe(self) -> str:
        """One line for reports: the file, the suite's size, or the root.

        Example:
            >>> Databases(files=("a.sqlite", "b.sqlite")).describe()
            'suite of 2 databases (a.sqlite, ...)'
        """
        if self.root is not None:
            return f"{self.root} (one database per db_id)"
        if len(self.files) == 1:
            return str(self.files[0])
        return f"suite of {len(self.files)} databases ({self.files[0]}, ...)"


def _list_folder(root: Path, db_id: str) -> tuple[Path, ...]:
    """``<root>/<db_id>/<db_id>.sqlite``, then the other ``*.sqlite`` files beside it, sorted."""
    folder = root / db_id
    main = folder / f"{db_id}.sqlite"
    if not main.is_file():
        raise SchemaError(f"No database for db_id {db_id!r}: {str(main)!r} does not exist. Check the database root.")
    return (main, *sorted(path for path in folder.glob("*.sqlite") if path != main))
