"""Database schemas for fuzzing: tables, declared column types, primary and foreign keys.

A test suite (Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled
Test Suites", https://aclanthology.org/2020.emnlp-main.29/) is a set of random databases of one
schema. :class:`Schema` is that schema, read from an SQLite file (:meth:`Schema.from_sqlite`)
or from a text2sql-data ``<stem>-schema.csv`` (:meth:`Schema.from_text2sql_csv`), which lists
key flags but no foreign-key targets; :meth:`Schema.with_join_keys` adds the foreign keys that
the gold queries' equality joins imply, so fuzzed rows of joined tables connect.

Example:
    >>> schema = Schema((
    ...     Table("state", (Column("state_name", "text", primary_key=True), Column("area", "double"))),
    ...     Table("city", (Column("city_name", "text"), Column("state_name", "text"))),
    ... ))
    >>> schema.with_join_keys(["SELECT 1 FROM city AS c, state AS s WHERE c.state_name = s.state_name"]).foreign_keys
    (ForeignKey(table='city', column='state_name', ref_table='state', ref_column='state_name'),)
    >>> Column("area", "double").affinity
    'REAL'
"""

from __future__ import annotations

import csv
import os
import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from textattack_semparse.errors import SchemaError
from textattack_semparse.sql.sqlite_schema import (
    connect_read_only,
    quote_identifier,
    read_tables,
    unreadable_database,
)

# Column constraints that follow the type name in a declaration ("INT(11) NOT NULL DEFAULT 0").
_CONSTRAINT = re.compile(
    r"\s+(?:NOT\s+NULL|NULL|DEFAULT|PRIMARY|REFERENCES|UNIQUE|CHECK|COLLATE|AUTO_INCREMENT|CONSTRAINT|GENERATED)\b.*$",
    re.IGNORECASE | re.DOTALL,
)
# What a declared type may contain once written into a CREATE TABLE statement.
SQLITE_COLLATIONS = ("BINARY", "NOCASE", "RTRIM")
"""SQLite's built-in collations, the ones a column may name."""
_SAFE_TYPE = re.compile(r"^[A-Za-z0-9_ (),.+-]*$")
_YES = frozenset({"y", "yes", "true", "1"})


def affinity_of(declared_type: str) -> str:
    """SQLite's type affinity of a declared type (rules of section 3.1 of "Datatypes In SQLite").

    Example:
        >>> [affinity_of(t) for t in ("INT(11)", "varchar(255)", "double", "", "decimal(5,2)")]
        ['INTEGER', 'TEXT', 'REAL', 'BLOB', 'NUMERIC']
    """
    upper = declared_type.upper()
    if "INT" in upper:
        return "INTEGER"
    if "CHAR" in upper or "CLOB" in upper or "TEXT" in upper:
        return "TEXT"
    if "BLOB" in upper or not upper.strip():
        return "BLOB"
    if "REAL" in upper or "FLOA" in upper or "DOUB" in upper:
        return "REAL"
    return "NUMERIC"


@dataclass(frozen=True)
class Column:
    """One column: its name, declared type (constraints stripped) and primary-key flag.

    Part of the schema of a test suite's databases (Zhong et al. 2020).

    Args:
        name (str): Column name as declared.
        type (str): Declared type as written, without constraints (``"INT(11)"``).
        primary_key (bool, default False): Whether the column is (part of) the primary key.
        collation (str | None, default None): SQLite collation of the column (``"NOCASE"``),
            ``None`` for SQLite's default (``BINARY``, case-sensitive).
    """

    name: str
    type: str
    primary_key: bool = False
    collation: str | None = None

    @property
    def affinity(self) -> str:
        """SQLite's type affinity: ``"INTEGER"``, ``"REAL"``, ``"TEXT"``, ``"NUMERIC"``, or ``"BLOB"``
        for an empty declared type (SQLite's rules)."""
        return affinity_of(self.type)


@dataclass(frozen=True)
class ForeignKey:
    """``table.column`` takes values of ``ref_table.ref_column`` (Zhong et al. 2020 keep keys consistent)."""

    table: str
    column: str
    ref_table: str
    ref_column: str


@dataclass(frozen=True)
class Table:
    """A table: its name and columns in declaration order."""

    name: str
    columns: tuple[Column, ...]

    def column(self, name: str) -> Column | None:
        """The column called ``name`` (case-insensitive), or None."""
        lowered = name.lower()
        return next((column for column in self.columns if column.name.lower() == lowered), None)

    @property
    def primary_key(self) -> tuple[str, ...]:
        """Names of the primary-key columns (empty when none is declared)."""
        return tuple(column.name for column in self.columns if column.primary_key)


@dataclass(frozen=True)
class Schema:
    """Tables and foreign keys shared by every database of a test suite (Zhong et al. 2020).

    Args:
        tables (tuple[Table, ...]): The tables.
        foreign_keys (tuple[ForeignKey, ...], default ()): Declared or inferred foreign keys.
    """

    tables: tuple[Table, ...]
    foreign_keys: tuple[ForeignKey, ...] = ()

    def table(self, name: str) -> Table | None:
        """The table called ``name`` (case-insensitive), or None."""
        lowered = name.lower()
        return next((table for table in self.tables if table.name.lower() == lowered), None)

    @classmethod
    def from_sqlite(cls, path: str | os.PathLike[str]) -> Schema:
        """Read tables, declared types, primary keys and declared foreign keys of an SQLite file.

        Raises:
            SchemaError: ``path`` is missing or is not a readable SQLite database.
        """
        path = Path(path)
        if not path.is_file():
            raise SchemaError(f"SQLite database {str(path)!r} does not exist; pass the path of an existing .sqlite file.")
        connection = connect_read_only(path)
        try:
            declared = read_tables(connection)
        except sqlite3.DatabaseError as error:
            raise unreadable_database(path, error) from error
        finally:
            connection.close()
        tables = [
            Table(table.name, tuple(Column(column.name, column.type, column.primary_key > 0) for column in table.columns))
            for table in declared
        ]
        foreign_keys = [
            (table.name, key.column, key.ref_table, key.ref_column)
            for table in declared
            for key in sorted(table.foreign_keys, key=lambda key: (-key.id, key.seq))  # ids count from the last declared
        ]
        schema = cls(tuple(tables))
        resolved = []
        for table, column, ref_table, ref_column in foreign_keys:
            target = schema.table(ref_table)
            if ref_column is None and target is not None and len(target.primary_key) == 1:
                ref_column = target.primary_key[0]
            if ref_column is not None and target is not None:
                resolved.append(ForeignKey(table, column, target.name, ref_column))
        return replace(schema, foreign_keys=tuple(dict.fromkeys(resolved)))

    @classmethod
    def from_text2sql_csv(cls, path: str | os.PathLike[str]) -> Schema:
        """Read a text2sql-data ``<stem>-schema.csv`` (Finegan-Dollak et al. 2018).

        Rows are ``Table Name, Field Name, Is Primary Key, Is Foreign Key, Type``; ``-`` rows
        separate tables. The file flags foreign keys without targets, so a column is taken as a
        foreign key of the table whose single-column primary key has the same name. The schemas
        describe MySQL tables (text2sql-data, Finegan-Dollak et al. 2018), whose default collation
        compares strings case-insensitively (``'Noah A Smith' = 'noah a smith'``); text columns get
        SQLite's ``NOCASE`` collation so the benchmark's SQL compares on SQLite as it did there.

        Raises:
            SchemaError: ``path`` is missing or has no table rows.
        """
        path = Path(path)
        if not path.is_file():
            raise SchemaError(f"Schema file {str(path)!r} does not exist; pass a text2sql-data '<stem>-schema.csv'.")
        columns: dict[str, list[Column]] = {}
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle, skipinitialspace=True))
        for row in rows[1:]:
            cells = [cell.strip() for cell in row]
            if len(cells) < 5 or cells[0] in ("", "-") or cells[1] in ("", "-"):
                continue
            declared = _CONSTRAINT.sub("", cells[4]).strip()
            collation = "NOCASE" if affinity_of(declared) == "TEXT" else None
            columns.setdefault(cells[0], []).append(Column(cells[1], declared, cells[2].lower() in _YES, collation))
        if not columns:
            raise SchemaError(f"Schema file {str(path)!r} has no table rows; expected 'Table Name, Field Name, ...' rows.")
        schema = cls(tuple(Table(name, tuple(cols)) for name, cols in columns.items()))
        keyed: dict[str, list[Table]] = defaultdict(list)
        for table in schema.tables:
            if len(table.primary_key) == 1:
                keyed[table.primary_key[0].lower()].append(table)
        foreign_keys = []
        for table in schema.tables:
            for column in table.columns:
                candidates = keyed.get(column.name.lower(), [])
                owners = [target for target in candidates if owns_column(target.name, column.name)]
                targets = owners or candidates
                if table in owners or len(targets) != 1 or targets[0] is table:
                    continue
                foreign_keys.append(ForeignKey(table.name, column.name, targets[0].name, targets[0].primary_key[0]))
        return replace(schema, foreign_keys=tuple(foreign_keys))

    def with_join_keys(self, queries: Iterable[str]) -> Schema:
        """This schema plus the foreign keys implied by equality joins ``a.x = b.y`` of two tables.

        A join needs a key-like side: a table's sole primary key, or a column named after its
        table (``STATE.STATE_NAME``, ``VENUE.VENUEID``). Each side is first followed along known
        foreign keys to the column it refers to; of those two, the more key-like one (then the
        one joined with more distinct columns) is referenced. Joins of two columns that already
        refer to one key add nothing; queries that do not parse are ignored.
        """
        pairs: dict[tuple[tuple[str, str], tuple[str, str]], None] = {}
        for sql in queries:
            for left, right in _join_pairs(self, sql):
                if left[0] != right[0]:
                    first, second = sorted((left, right))
                    pairs[first, second] = None
        degree: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
        for left, right in pairs:
            degree[left].add(right)
            degree[right].add(left)
        references = {(fk.table, fk.column): (fk.ref_table, fk.ref_column) for fk in self.foreign_keys}
        ranked = sorted(
            pairs, key=lambda pair: -max(self._key_score(pair[0]), self._key_score(pair[1]))
        )
        added = []
        for left, right in ranked:
            if max(self._key_score(left), self._key_score(right)) == 0:
                continue  # no key on either side (HIGHLOW.HIGHEST_POINT = STATE.CAPITAL)
            roots = (_root(left, references), _root(right, references))
            if roots[0] == roots[1]:
                continue  # already linked, or both refer to one key (CITE.CITEDPAPERID = WRITES.PAPERID)
            scores = [(self._key_score(root), len(degree[root])) for root in roots]
            referencing, referenced = roots if scores[1] > scores[0] else roots[::-1]
            added.append(ForeignKey(referencing[0], referencing[1], referenced[0], referenced[1]))
            references[referencing] = referenced
        return replace(self, foreign_keys=self.foreign_keys + tuple(added))

    def _key_score(self, side: tuple[str, str]) -> int:
        table = self.table(side[0])
        if table is None:
            return 0
        if table.primary_key == (side[1],):
            return 2
        return 1 if owns_column(table.name, side[1]) else 0

    def create_statements(self) -> list[str]:
        """``CREATE TABLE`` statements, identifiers quoted, with primary and foreign keys.

        Raises:
            SchemaError: A declared type contains characters other than letters, digits,
                spaces and ``_(),.+-`` (it would be pasted into SQL), or a collation is not one
                of :data:`SQLITE_COLLATIONS`.
        """
        statements = []
        for table in self.tables:
            parts = []
            for column in table.columns:
                if not _SAFE_TYPE.match(column.type):
                    raise SchemaError(
                        f"Declared type {column.type!r} of {table.name}.{column.name} is not a plain SQL type; "
                        "use letters, digits, spaces and '_(),.+-' only."
                    )
                if column.collation is not None and column.collation.upper() not in SQLITE_COLLATIONS:
                    raise SchemaError(
                        f"Collation {column.collation!r} of {table.name}.{column.name} is not one of SQLite's "
                        f"built-in collations {', '.join(SQLITE_COLLATIONS)}."
                    )
                collation = f" COLLATE {column.collation.upper()}" if column.collation else ""
                parts.append(f"{quote_identifier(column.name)} {column.type}".rstrip() + collation)
            if table.primary_key:
                parts.append(f"PRIMARY KEY ({', '.join(map(quote_identifier, table.primary_key))})")
            for fk in self.foreign_keys:
                if fk.table == table.name:
                    parts.append(
                        f"FOREIGN KEY ({quote_identifier(fk.column)}) "
                        f"REFERENCES {quote_identifier(fk.ref_table)} ({quote_identifier(fk.ref_column)})"
                    )
            statements.append(f"CREATE TABLE {quote_identifier(table.name)} (\n  " + ",\n  ".join(parts) + "\n)")
        return statements


def owns_column(table: str, column: str) -> bool:
    """Whether ``column`` is named after ``table`` (``STATE_NAME`` of STATE, ``PAPERID`` of PAPER).

    Example:
        >>> owns_column("state", "STATE_NAME"), owns_column("city", "state_name")
        (True, False)
    """
    name = re.sub(r"[^a-z0-9]", "", column.lower())
    stem = re.sub(r"[^a-z0-9]", "", table.lower())
    return name in {stem + "id", stem + "name", stem + "key", stem + "code"}


def _root(column: tuple[str, str], references: dict[tuple[str, str], tuple[str, str]]) -> tuple[str, str]:
    """The key ``column`` refers to, following foreign keys (cycles stop at the first repeat)."""
    seen = {column}
    while column in references and references[column] not in seen:
        column = references[column]
        seen.add(column)
    return column


def _join_pairs(schema: Schema, sql: str) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Column pairs ``(table, column)`` equated in ``sql``, resolved through each SELECT's aliases."""
    try:
        tree = sqlglot.parse_one(sql, read="mysql")
    except SqlglotError:
        return []
    if tree is None:
        return []
    pairs = []
    for select in tree.find_all(exp.Select):
        aliases: dict[str, Table] = {}
        for source in select.find_all(exp.Table):
            if source.parent_select is not select:
                continue
            table = schema.table(source.name)
            if table is not None:
                aliases[source.alias_or_name.lower()] = table
        for equality in select.find_all(exp.EQ):
            if equality.parent_select is not select:
                continue
            sides = [_resolve(equality.left, aliases), _resolve(equality.right, aliases)]
            if sides[0] is not None and sides[1] is not None:
                pairs.append((sides[0], sides[1]))
    return pairs


def _resolve(node: exp.Expr, aliases: dict[str, Table]) -> tuple[str, str] | None:
    if not isinstance(node, exp.Column):
        return None
    if node.table:
        table = aliases.get(node.table.lower())
        candidates = [table] if table is not None else []
    else:
        candidates = [table for table in aliases.values() if table.column(node.name) is not None]
    if len(candidates) != 1:
        return None
    column = candidates[0].column(node.name)
    if column is None:
        return None
    return candidates[0].name, column.name
