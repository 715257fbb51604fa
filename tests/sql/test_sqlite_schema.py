"""Reading what an SQLite database declares: tables in creation order, columns, foreign keys, indexes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from textattack_semparse.errors import SchemaError
from textattack_semparse.sql.sqlite_schema import (
    SQLiteColumn,
    SQLiteForeignKey,
    SQLiteIndex,
    SQLiteTable,
    connect_read_only,
    quote_identifier,
    read_columns,
    read_foreign_keys,
    read_indexes,
    read_tables,
    table_names,
)


def _database(path: Path, *statements: str) -> Path:
    connection = sqlite3.connect(path)
    with connection:
        for statement in statements:
            connection.execute(statement)
    connection.close()
    return path


@pytest.fixture
def enrolment(tmp_path: Path) -> Path:
    """Composite primary keys, a two-column foreign key, a bare ``REFERENCES t``, a view, and the internal
    tables of AUTOINCREMENT (``sqlite_sequence``) and ANALYZE (``sqlite_stat1``)."""
    return _database(
        tmp_path / "enrolment.sqlite",
        "CREATE TABLE course (dept TEXT NOT NULL, number INT, title varchar(80) DEFAULT 'tba', PRIMARY KEY (number, dept))",
        "CREATE TABLE student (id INTEGER PRIMARY KEY AUTOINCREMENT, name, joined DATE DEFAULT (date('now')))",
        "CREATE TABLE takes (student INT REFERENCES student, dept TEXT, number INT, grade REAL,"
        " FOREIGN KEY (dept, number) REFERENCES course (dept, number))",
        "CREATE VIEW roster AS SELECT name, title FROM student, takes, course",
        "INSERT INTO student (name) VALUES ('ada')",
        "ANALYZE",
    )


@pytest.fixture
def opened() -> Iterator[Callable[[Path], sqlite3.Connection]]:
    """:func:`connect_read_only`, every connection closed after the test."""
    connections: list[sqlite3.Connection] = []

    def open_database(path: Path) -> sqlite3.Connection:
        connections.append(connect_read_only(path))
        return connections[-1]

    yield open_database
    for connection in connections:
        connection.close()


def test_tables_come_in_creation_order_without_views_or_internal_tables(enrolment: Path, opened):
    connection = opened(enrolment)
    names_in_master = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert {"sqlite_sequence", "sqlite_stat1", "roster"} <= names_in_master
    assert table_names(connection) == ["course", "student", "takes"]


def test_a_recreated_table_moves_to_the_end(tmp_path: Path, opened):
    path = _database(
        tmp_path / "order.sqlite",
        "CREATE TABLE b (x)",
        "CREATE TABLE a (x)",
        "DROP TABLE b",
        "CREATE TABLE b (y)",
    )
    connection = opened(path)
    assert table_names(connection) == ["a", "b"]
    assert [table.name for table in read_tables(connection)] == ["a", "b"]


def test_columns_keep_declared_type_not_null_default_and_primary_key_position(enrolment: Path, opened):
    connection = opened(enrolment)
    assert read_columns(connection, "course") == (
        SQLiteColumn("dept", "TEXT", True, None, 2),
        SQLiteColumn("number", "INT", False, None, 1),
        SQLiteColumn("title", "varchar(80)", False, "'tba'", 0),
    )
    assert read_columns(connection, "student") == (
        SQLiteColumn("id", "INTEGER", False, None, 1),
        SQLiteColumn("name", "", False, None, 0),  # no declared type
        SQLiteColumn("joined", "DATE", False, "date('now')", 0),
    )


def test_foreign_keys_keep_their_pairs_and_a_bare_reference(enrolment: Path, opened):
    connection = opened(enrolment)
    assert read_foreign_keys(connection, "takes") == (
        SQLiteForeignKey(0, 0, "course", "dept", "dept"),  # ids count from the last declared
        SQLiteForeignKey(0, 1, "course", "number", "number"),
        SQLiteForeignKey(1, 0, "student", "student", None),  # REFERENCES student: its primary key
    )
    assert read_foreign_keys(connection, "course") == ()


def test_read_tables_gathers_columns_and_foreign_keys(enrolment: Path, opened):
    connection = opened(enrolment)
    tables = read_tables(connection)
    assert [table.name for table in tables] == ["course", "student", "takes"]
    assert tables[2] == SQLiteTable("takes", read_columns(connection, "takes"), read_foreign_keys(connection, "takes"))


def test_identifiers_with_spaces_and_quotes_are_read(tmp_path: Path, opened):
    table, column, other = 'the "odd" table', "first name", 'o"k'
    path = _database(
        tmp_path / "odd.sqlite",
        f"CREATE TABLE {quote_identifier(other)} ({quote_identifier(column)} TEXT PRIMARY KEY)",
        f"CREATE TABLE {quote_identifier(table)} ({quote_identifier(column)} TEXT"
        f" REFERENCES {quote_identifier(other)} ({quote_identifier(column)}))",
        f"CREATE INDEX {quote_identifier('by ' + column)} ON {quote_identifier(table)} ({quote_identifier(column)})",
    )
    connection = opened(path)
    assert table_names(connection) == [other, table]
    assert read_columns(connection, table) == (SQLiteColumn(column, "TEXT", False, None, 0),)
    assert read_foreign_keys(connection, table) == (SQLiteForeignKey(0, 0, other, column, column),)
    assert read_indexes(connection, table) == (SQLiteIndex("by first name", False, "c", False, (column,)),)


def test_indexes_report_origin_uniqueness_partiality_and_expressions(tmp_path: Path, opened):
    path = _database(
        tmp_path / "indexed.sqlite",
        "CREATE TABLE city (name TEXT UNIQUE, state TEXT, population INT, PRIMARY KEY (state, name))",
        "CREATE UNIQUE INDEX by_population ON city (population, state)",
        "CREATE INDEX big ON city (population) WHERE population > 1000000",
        "CREATE INDEX lowered ON city (lower(name))",
    )
    connection = opened(path)
    by_name = {index.name: index for index in read_indexes(connection, "city")}
    assert by_name["by_population"] == SQLiteIndex("by_population", True, "c", False, ("population", "state"))
    assert by_name["big"] == SQLiteIndex("big", False, "c", True, ("population",))
    assert by_name["lowered"] == SQLiteIndex("lowered", False, "c", False, (None,))
    automatic = sorted((index.origin, index.columns) for index in by_name.values() if index.origin != "c")
    assert automatic == [("pk", ("state", "name")), ("u", ("name",))]


def test_a_missing_table_has_no_columns_foreign_keys_or_indexes(enrolment: Path, opened):
    connection = opened(enrolment)
    assert read_columns(connection, "nowhere") == ()
    assert read_foreign_keys(connection, "nowhere") == ()
    assert read_indexes(connection, "nowhere") == ()


def test_the_connection_cannot_write(enrolment: Path, opened):
    before = enrolment.read_bytes()
    connection = opened(enrolment)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        connection.execute("INSERT INTO student (name) VALUES ('bob')")
    with pytest.raises(sqlite3.OperationalError):
        connection.execute("CREATE TABLE extra (x)")
    assert enrolment.read_bytes() == before


def test_missing_and_non_database_files_are_schema_errors(tmp_path: Path):
    with pytest.raises(SchemaError, match="nowhere.sqlite' is not a readable SQLite database"):
        connect_read_only(tmp_path / "nowhere.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database " * 100)
    with pytest.raises(SchemaError, match=r"is not a readable SQLite database \(file is not a database\)"):
        connect_read_only(junk)


def test_quote_identifier_round_trips_through_sqlite(tmp_path: Path, opened):
    name = 'say "hi"; DROP TABLE x --'
    path = _database(tmp_path / "quoted.sqlite", f"CREATE TABLE {quote_identifier(name)} (x)")
    assert table_names(opened(path)) == [name]
