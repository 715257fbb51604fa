"""What an SQLite database declares: its tables, their columns, foreign keys and indexes.

The one place that reads ``sqlite_master`` and the ``table_info``, ``foreign_key_list``,
``index_list`` and ``index_info`` pragmas, and quotes identifiers for them. Test-suite schemas
(:meth:`textattack_semparse.test_suites.schema.Schema.from_sqlite`), the fuzz databases that
copy an original's rows and the schema-perturbed copies
(:mod:`textattack_semparse.sql.schema_perturbation`) all read a database through it, so they
agree on which tables exist, in which order, and what their columns are.

Tables are listed in ``sqlite_master`` rowid order (the order they were created), views and
SQLite's internal tables (``sqlite_sequence``, ``sqlite_stat1``; names ``LIKE 'sqlite_%'``) left
out. Records keep what the pragmas report, unchanged: the declared type as written (``""``
when none), the default as SQL text, a column's position in the primary key.

Example:
    >>> import sqlite3, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "geo.sqlite"
    >>> with sqlite3.connect(path) as db:
    ...     _ = db.execute("CREATE TABLE state (state_name TEXT PRIMARY KEY, area REAL NOT NULL DEFAULT 0)")
    ...     _ = db.execute("CREATE TABLE city (city_name TEXT, state_name TEXT REFERENCES state)")
    >>> connection = connect_read_only(path)
    >>> [table.name for table in read_tables(connection)]
    ['state', 'city']
    >>> read_columns(connection, "state")[1]
    SQLiteColumn(name='area', type='REAL', not_null=True, default='0', primary_key=0)
    >>> read_foreign_keys(connection, "city")
    (SQLiteForeignKey(id=0, seq=0, ref_table='state', column='state_name', ref_column=None),)
    >>> connection.close()
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import SchemaError


def quote_identifier(name: str) -> str:
    """SQL identifier in double quotes, inner quotes doubled.

    Example:
        >>> quote_identifier('a"b')
        '"a""b"'
    """
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class SQLiteColumn:
    """One column as ``PRAGMA table_info`` reports it.

    Args:
        name (str): Column name as declared.
        type (str): Declared type as written (``"INT(11)"``), ``""`` when none is declared.
        not_null (bool): Whether the column is declared ``NOT NULL``.
        default (str | None): The ``DEFAULT`` expression as SQL text, ``None`` when there is none.
        primary_key (int): 1-based position of the column in the primary key, 0 when not part of it.
    """

    name: str
    type: str
    not_null: bool
    default: str | None
    primary_key: int


@dataclass(frozen=True)
class SQLiteForeignKey:
    """One column pair of a foreign key as ``PRAGMA foreign_key_list`` reports it.

    Args:
        id (int): Number of the foreign key in its table; SQLite counts from the last declared.
        seq (int): Position of the pair within a multi-column foreign key.
        ref_table (str): The referenced table, as written in the declaration.
        column (str): The referencing column of this table.
        ref_column (str | None): The referenced column, ``None`` when the declaration names
            only the table (``REFERENCES state``: its primary key).
    """

    id: int
    seq: int
    ref_table: str
    column: str
    ref_column: str | None


@dataclass(frozen=True)
class SQLiteIndex:
    """One index of a table as ``PRAGMA index_list`` and ``PRAGMA index_info`` report it.

    Args:
        name (str): Index name (``sqlite_autoindex_...`` for those SQLite makes itself).
        unique (bool): Whether the index is unique.
        origin (str): ``"c"`` for ``CREATE INDEX``, ``"u"`` for a UNIQUE constraint, ``"pk"``
            for a PRIMARY KEY constraint.
        partial (bool): Whether the index has a ``WHERE`` clause.
        columns (tuple[str | None, ...]): Indexed columns in order; ``None`` for an expression.
    """

    name: str
    unique: bool
    origin: str
    partial: bool
    columns: tuple[str | None, ...]


@dataclass(frozen=True)
class SQLiteTable:
    """A table: its name, columns in declaration order and foreign keys in pragma order."""

    name: str
    columns: tuple[SQLiteColumn, ...]
    foreign_keys: tuple[SQLiteForeignKey, ...]


def connect_read_only(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A connection to the SQLite file ``path`` that cannot write it (``mode=ro``, ``query_only``).

    Raises:
        SchemaError: ``path`` cannot be opened or is not an SQLite database.
    """
    path = Path(path)
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        connection.execute("PRAGMA query_only = ON")
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        raise unreadable_database(path, error) from error
    return connection


def unreadable_database(path: str | os.PathLike[str], error: sqlite3.Error) -> SchemaError:
    """The error for a database that could not be read (``error`` is SQLite's reason)."""
    return SchemaError(f"{str(path)!r} is not a readable SQLite database ({error}).")


def table_names(connection: sqlite3.Connection) -> list[str]:
    """Names of the database's tables in creation (rowid) order, without views and internal tables."""
    return [
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    ]


def read_columns(connection: sqlite3.Connection, table: str) -> tuple[SQLiteColumn, ...]:
    """The columns of ``table`` in declaration order (empty when there is no such table)."""
    return tuple(
        SQLiteColumn(row[1], row[2] or "", bool(row[3]), row[4], row[5])
        for row in connection.execute(f"PRAGMA table_info({quote_identifier(table)})")
    )


def read_foreign_keys(connection: sqlite3.Connection, table: str) -> tuple[SQLiteForeignKey, ...]:
    """The foreign-key column pairs of ``table`` in the order the pragma lists them."""
    return tuple(
        SQLiteForeignKey(row[0], row[1], row[2], row[3], row[4])
        for row in connection.execute(f"PRAGMA foreign_key_list({quote_identifier(table)})")
    )


def read_indexes(connection: sqlite3.Connection, table: str) -> tuple[SQLiteIndex, ...]:
    """The indexes of ``table`` in the order the pragma lists them, with their columns."""
    indexes = []
    for _, name, unique, origin, partial in connection.execute(f"PRAGMA index_list({quote_identifier(table)})").fetchall():
        columns = tuple(row[2] for row in connection.execute(f"PRAGMA index_info({quote_identifier(name)})"))
        indexes.append(SQLiteIndex(name, bool(unique), origin, bool(partial), columns))
    return tuple(indexes)


def read_tables(connection: sqlite3.Connection) -> tuple[SQLiteTable, ...]:
    """Every table of :func:`table_names` with its columns and foreign keys."""
    return tuple(
        SQLiteTable(name, read_columns(connection, name), read_foreign_keys(connection, name))
        for name in table_names(connection)
    )
