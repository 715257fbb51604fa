"""Schema perturbations of an SQLite database, written to a copy, with the mapping that rewrites its SQL.

Dr.Spider (Chang, Shuaichen et al. 2023, "Dr.Spider: A Diagnostic Evaluation Benchmark towards
Text-to-SQL Robustness", https://arxiv.org/abs/2301.08881) publishes schema-synonym,
schema-abbreviation and column-equivalence perturbations of Spider as static data; RobuT (Zhao,
Yilun et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against Human-Annotated
Adversarial Perturbations", https://arxiv.org/abs/2306.14321) applies header synonyms and
abbreviations, column shuffling and column adding to tables. Here they are generated for any
SQLite database: the original is read through a read-only connection and a new file is written,
table by table (declared types, ``NOT NULL``, defaults, primary and foreign keys, rows in rowid
order, rowids kept, explicit column indexes). Every choice comes from a ``random.Random(seed)``:
the same database, kind and seed give the same copy.

Kinds (:data:`SCHEMA_PERTURBATIONS`):

* ``synonym`` / ``abbreviation``: columns renamed with
  :func:`~textattack_semparse.tables.header_names.header_synonyms` /
  :func:`~textattack_semparse.tables.header_names.header_abbreviations`;
* ``table-rename``: tables renamed with a synonym of their name, else an abbreviation;
* ``column-shuffle``: each table's columns in a new order;
* ``column-adding``: each table gains a distractor column, copied from a column of another table
  (row *i* takes that column's value in row *i* modulo its length), at a random position.

A name is changed the same way wherever it occurs (``state_name`` becomes the same name in every
table that has it), and a new name is never a name the original database uses, nor a new name of
another old one: which tables share a column name is unchanged, so no reference of a rewritten
query can be captured by another table. Candidate names are reduced to SQL identifiers
(``"pop."`` -> ``pop``); SQL keywords are skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlglot.tokens import Tokenizer

from textattack_semparse.cache import cache_dir, file_version
from textattack_semparse.errors import SchemaError, closest_match_hint
from textattack_semparse.sql.schema_mapping import SchemaMapping
from textattack_semparse.sql.sqlite_schema import (
    SQLiteColumn,
    SQLiteForeignKey,
    connect_read_only,
    quote_identifier,
    read_indexes,
    read_tables,
)

#: The schema perturbations :func:`perturb_schema` applies.
SCHEMA_PERTURBATIONS = ("synonym", "abbreviation", "table-rename", "column-shuffle", "column-adding")

NameCandidates = Callable[[str], Iterable[str]]


@dataclass(frozen=True)
class PerturbedDatabase:
    """A perturbed copy of a database and the mapping from the original schema.

    Args:
        path (Path): The perturbed SQLite file.
        mapping (SchemaMapping): Old -> new names; ``mapping.rewrite(sql)`` rewrites a query.
        kind (str): One of :data:`SCHEMA_PERTURBATIONS`.
    """

    path: Path
    mapping: SchemaMapping
    kind: str


def perturb_schema(
    source: str | os.PathLike[str],
    kind: str,
    output: str | os.PathLike[str],
    *,
    seed: int = 0,
    names: NameCandidates | None = None,
) -> PerturbedDatabase:
    """Write the ``kind`` perturbation of database ``source`` to ``output`` (replaced if present).

    Args:
        source: The original SQLite database; opened read-only, never written.
        kind: One of :data:`SCHEMA_PERTURBATIONS`.
        output: Where the perturbed copy is written (its folder is created).
        seed: Seed of every random choice.
        names: For renaming kinds, a function giving candidate new names of a name (default:
            the kind's function of :mod:`textattack_semparse.tables.header_names`).

    Raises:
        ValueError: Unknown ``kind``.
        SchemaError: ``source`` is missing or unreadable, or ``output`` is ``source``.

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> with sqlite3.connect(folder / "geo.sqlite") as db:
        ...     _ = db.execute("CREATE TABLE state (state_name TEXT, population INT)")
        >>> names = {"population": ["pop."], "state_name": ["state"]}  # "state" is taken: kept
        >>> copy = perturb_schema(folder / "geo.sqlite", "abbreviation", folder / "abbr.sqlite",
        ...                       names=lambda name: names.get(name, []))
        >>> copy.mapping.rewrite("SELECT population FROM state WHERE state_name = 'population'").sql
        "SELECT pop FROM state WHERE state_name = 'population'"
    """
    output = Path(output)
    plan = _plan(Path(source), kind, seed, names)
    if output.resolve() == plan.source.resolve():
        raise SchemaError(f"The perturbed copy must not overwrite the original {str(source)!r}; pick another output.")
    _write_copy(plan, output)
    return PerturbedDatabase(output, plan.mapping, kind)


def cached_perturbed_database(source: str | os.PathLike[str], kind: str, *, seed: int = 0) -> PerturbedDatabase:
    """:func:`perturb_schema` with the default names, written once under the plugin's cache directory.

    The copy is kept at ``<cache>/schema_perturbations/<key>/<name of source>``, where the key
    digests the source file (path, size, modification time) and the planned perturbation, so a
    changed database or lexicon gives a new copy.

    Raises:
        ValueError: Unknown ``kind``.
        SchemaError: ``source`` is missing or unreadable.
    """
    plan = _plan(Path(source), kind, seed, None)
    identity = [str(plan.source.resolve()), *file_version(plan.source), kind, seed, plan.mapping.to_json(), plan.layout]
    key = hashlib.sha256(json.dumps(identity, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    output = cache_dir() / "schema_perturbations" / key / plan.source.name
    if not output.is_file():
        _write_copy(plan, output)
    return PerturbedDatabase(output, plan.mapping, kind)


@dataclass(frozen=True)
class _Plan:
    """Everything a perturbed copy is written from."""

    source: Path
    tables: Mapping[str, tuple[SQLiteColumn, ...]]
    foreign_keys: Mapping[str, tuple[SQLiteForeignKey, ...]]
    orders: Mapping[str, list[str]]
    added: Mapping[str, list[tuple[int, str, str, str]]]
    mapping: SchemaMapping

    @property
    def layout(self) -> dict[str, object]:
        return {"orders": dict(self.orders), "added": dict(self.added)}


def _plan(source: Path, kind: str, seed: int, names: NameCandidates | None) -> _Plan:
    if kind not in SCHEMA_PERTURBATIONS:
        raise ValueError(
            f"Unknown schema perturbation {kind!r}; accepted: {', '.join(SCHEMA_PERTURBATIONS)}."
            + (closest_match_hint(kind, SCHEMA_PERTURBATIONS) if isinstance(kind, str) else "")
        )
    if not source.is_file():
        raise SchemaError(f"SQLite database {str(source)!r} does not exist; pass an existing .sqlite file.")
    rng = random.Random(f"{kind}:{seed}")
    original = connect_read_only(source)
    try:
        declared = read_tables(original)
        tables = {table.name: table.columns for table in declared}
        foreign_keys = {table.name: table.foreign_keys for table in declared}
        table_names = {table: table for table in tables}
        column_names = {table: {column.name: column.name for column in columns} for table, columns in tables.items()}
        orders = {table: [column.name for column in columns] for table, columns in tables.items()}
        added: dict[str, list[tuple[int, str, str, str]]] = {}
        used = {name.lower() for name in tables} | {c.name.lower() for cols in tables.values() for c in cols}
        if kind in ("synonym", "abbreviation"):
            renames = _renames(sorted({c.name for cols in tables.values() for c in cols}), _names(kind, names), used, rng)
            column_names = {t: {old: renames.get(old.lower(), old) for old in cols} for t, cols in column_names.items()}
        elif kind == "table-rename":
            renames = _renames(list(tables), names or _table_names, used, rng)
            table_names = {table: renames.get(table.lower(), table) for table in tables}
        elif kind == "column-shuffle":
            for order in orders.values():
                _shuffle(order, rng)
        else:
            added = _distractors(original, tables, used, rng)
    finally:
        original.close()
    mapping = SchemaMapping(
        table_names,
        column_names,
        layout_changed=kind in ("column-shuffle", "column-adding"),
        added={table_names[t]: tuple(name for _, name, _, _ in columns) for t, columns in added.items()},
    )
    return _Plan(source, tables, foreign_keys, orders, added, mapping)


def _names(kind: str, names: NameCandidates | None) -> NameCandidates:
    if names is not None:
        return names
    from textattack_semparse.tables.header_names import header_abbreviations, header_synonyms

    return header_synonyms if kind == "synonym" else header_abbreviations


def _table_names(name: str) -> list[str]:
    from textattack_semparse.tables.header_names import header_abbreviations, header_synonyms

    return list(header_synonyms(name)) or list(header_abbreviations(name))


_KEYWORDS = frozenset(word.lower() for word in Tokenizer.KEYWORDS if re.fullmatch(r"[A-Za-z_]+", word))
_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]+")


def as_identifier(candidate: str) -> str | None:
    """``candidate`` as a plain SQL identifier, or ``None`` when nothing usable is left.

    Example:
        >>> as_identifier("pop."), as_identifier("no. of pets"), as_identifier("select"), as_identifier("2nd")
        ('pop', 'no_of_pets', None, None)
    """
    name = _NOT_IDENTIFIER.sub("_", candidate.strip()).strip("_")
    name = re.sub("_{2,}", "_", name)
    if not name or name[0].isdigit() or name.lower() in _KEYWORDS:
        return None
    return name


def _renames(names: list[str], candidates: NameCandidates, used: set[str], rng: random.Random) -> dict[str, str]:
    """One new name per distinct (case-insensitive) old name, never a used or already given name."""
    renames: dict[str, str] = {}
    taken = set(used)
    for name in sorted({name.lower(): name for name in names}.values(), key=str.lower):
        options = []
        for candidate in candidates(name):
            identifier = as_identifier(candidate)
            if identifier is not None and identifier.lower() not in taken and identifier not in options:
                options.append(identifier)
        if options:
            chosen = rng.choice(options)
            renames[name.lower()] = chosen
            taken.add(chosen.lower())
    return renames


def _shuffle(order: list[str], rng: random.Random) -> None:
    """Shuffle ``order`` in place into an order different from the original (when it can be)."""
    if len(order) < 2:
        return
    original = list(order)
    while order == original:
        rng.shuffle(order)


def _distractors(
    connection: sqlite3.Connection, tables: Mapping[str, tuple[SQLiteColumn, ...]], used: set[str], rng: random.Random
) -> dict[str, list[tuple[int, str, str, str]]]:
    """Per table: ``(position, new name, donor table, donor column)`` of its distractor column."""
    added: dict[str, list[tuple[int, str, str, str]]] = {}
    for table, columns in tables.items():
        donors = [(other, column) for other, cols in tables.items() if other != table for column in cols]
        donors = [(other, column) for other, column in donors if _count(connection, other)] or [
            (table, column) for column in columns
        ]
        donor_table, donor = rng.choice(donors)
        base = as_identifier(f"{donor_table}_{donor.name}") or "extra"
        name, number = base, 2
        while name.lower() in used:
            name, number = f"{base}_{number}", number + 1
        used.add(name.lower())
        added[table] = [(rng.randint(0, len(columns)), name, donor_table, donor.name)]
    return added


def _count(connection: sqlite3.Connection, table: str) -> int:
    return connection.execute(f"SELECT count(*) FROM {quote_identifier(table)}").fetchone()[0]


def _write_copy(plan: _Plan, output: Path) -> None:
    source, tables, foreign_keys, orders, added, mapping = (
        plan.source, plan.tables, plan.foreign_keys, plan.orders, plan.added, plan.mapping
    )
    output.parent.mkdir(parents=True, exist_ok=True)
    temporary = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    original = connect_read_only(source)
    copy = sqlite3.connect(temporary, isolation_level=None)
    try:
        copy.execute("BEGIN")
        for table, columns in tables.items():
            by_name = {column.name: column for column in columns}
            layout: list[tuple[str, str | None]] = [(name, name) for name in orders[table]]
            for position, name, _, _ in added.get(table, []):
                layout.insert(position, (name, None))
            copy.execute(_create_statement(table, by_name, layout, foreign_keys[table], mapping))
            donors = [
                [
                    row[0]
                    for row in original.execute(f"SELECT {quote_identifier(col)} FROM {quote_identifier(t)} ORDER BY rowid")
                ]
                for _, _, t, col in added.get(table, [])
            ]
            kept = [old for _, old in layout if old is not None]
            selected = ", ".join(map(quote_identifier, kept))
            reader = original.execute(f"SELECT rowid, {selected} FROM {quote_identifier(table)} ORDER BY rowid")
            new_table = mapping.tables[table]
            names = ["rowid"] + [
                mapping.columns[table][old] if old is not None else new for new, old in layout
            ]
            insert = (
                f"INSERT INTO {quote_identifier(new_table)} ({', '.join(map(quote_identifier, names))}) "
                f"VALUES ({', '.join('?' * len(names))})"
            )
            copy.executemany(insert, _rows(reader, layout, donors))
            for statement in _index_statements(original, table, mapping):
                copy.execute(statement)
        copy.execute("COMMIT")
    except sqlite3.Error as error:
        raise SchemaError(f"Could not write the perturbed copy of {str(source)!r} to {str(output)!r}: {error}.") from error
    finally:
        copy.close()
        original.close()
    temporary.replace(output)
    output.with_suffix(".mapping.json").write_text(json.dumps(mapping.to_json(), indent=1), encoding="utf-8")


def _rows(
    reader: sqlite3.Cursor, layout: list[tuple[str, str | None]], donors: list[list[object]]
) -> Iterator[list[object]]:
    for index, row in enumerate(reader):
        values, kept, extra = [row[0]], iter(row[1:]), iter(donors)
        for _, old in layout:
            column = next(extra) if old is None else None
            values.append(next(kept) if old is not None else column[index % len(column)] if column else None)
        yield values


def _create_statement(
    table: str,
    columns: Mapping[str, SQLiteColumn],
    layout: list[tuple[str, str | None]],
    foreign_keys: tuple[SQLiteForeignKey, ...],
    mapping: SchemaMapping,
) -> str:
    parts = []
    for new, old in layout:
        if old is None:
            parts.append(quote_identifier(new))
            continue
        column = columns[old]
        definition = f"{quote_identifier(mapping.columns[table][old])} {column.type}".rstrip()
        if column.not_null:
            definition += " NOT NULL"
        if column.default is not None:
            definition += f" DEFAULT ({column.default})"
        parts.append(definition)
    keys = sorted((column for column in columns.values() if column.primary_key), key=lambda c: c.primary_key)
    if keys:
        parts.append(f"PRIMARY KEY ({', '.join(quote_identifier(mapping.columns[table][c.name]) for c in keys)})")
    grouped: dict[int, list[SQLiteForeignKey]] = {}
    for pair in foreign_keys:
        grouped.setdefault(pair.id, []).append(pair)
    for pairs in grouped.values():
        target = pairs[0].ref_table
        new_target = mapping.table_name(target) or target
        here = ", ".join(quote_identifier(mapping.column_name(table, pair.column) or pair.column) for pair in pairs)
        referenced = [pair.ref_column for pair in pairs if pair.ref_column is not None]  # empty: REFERENCES t
        there = ""
        if referenced:
            there = f" ({', '.join(quote_identifier(mapping.column_name(target, c) or c) for c in referenced)})"
        parts.append(f"FOREIGN KEY ({here}) REFERENCES {quote_identifier(new_target)}{there}")
    return f"CREATE TABLE {quote_identifier(mapping.tables[table])} (\n  " + ",\n  ".join(parts) + "\n)"


def _index_statements(connection: sqlite3.Connection, table: str, mapping: SchemaMapping) -> list[str]:
    """``CREATE INDEX`` statements of the table's explicit column indexes, under the new names.

    Indexes keep the original's query plans and time limits (ATIS' joins need them); partial and
    expression indexes are not reproduced.
    """
    statements = []
    for index in read_indexes(connection, table):
        columns = [column for column in index.columns if column is not None]
        if index.origin != "c" or index.partial or len(columns) < len(index.columns):
            continue
        listed = ", ".join(quote_identifier(mapping.column_name(table, column) or column) for column in columns)
        unique = "UNIQUE " if index.unique else ""
        statements.append(
            f"CREATE {unique}INDEX {quote_identifier(index.name)} ON {quote_identifier(mapping.tables[table])} ({listed})"
        )
    return statements
