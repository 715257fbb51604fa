"""Schema reading and join-key inference for test-suite fuzzing (Zhong et al. 2020)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.helpers import distinct_golds
from textattack_semparse.errors import SchemaError
from textattack_semparse.test_suites.schema import Column, ForeignKey, Schema, Table


@pytest.fixture
def library(tmp_path: Path) -> Path:
    path = tmp_path / "library.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE author (authorid INT(11) NOT NULL PRIMARY KEY, name varchar(50) DEFAULT NULL)")
        db.execute(
            "CREATE TABLE writes (paperid INT(11), authorid INT(11) REFERENCES author, "
            "share double, FOREIGN KEY (paperid) REFERENCES paper (paperid))"
        )
        db.execute("CREATE TABLE paper (paperid INTEGER PRIMARY KEY, title TEXT, year NUMERIC)")
    return path


def test_from_sqlite_reads_declared_types_keys_and_foreign_keys(library: Path):
    schema = Schema.from_sqlite(library)
    assert [table.name for table in schema.tables] == ["author", "writes", "paper"]
    author = schema.table("AUTHOR")
    assert author.columns == (Column("authorid", "INT(11)", True), Column("name", "varchar(50)"))
    assert schema.table("paper").primary_key == ("paperid",)
    assert set(schema.foreign_keys) == {
        ForeignKey("writes", "authorid", "author", "authorid"),  # REFERENCES author: its primary key
        ForeignKey("writes", "paperid", "paper", "paperid"),
    }


def test_affinity_follows_sqlite_rules():
    types = {"INT(11)": "INTEGER", "bigint": "INTEGER", "varchar(255)": "TEXT", "CLOB": "TEXT", "double": "REAL",
             "FLOAT": "REAL", "decimal(5,2)": "NUMERIC", "date": "NUMERIC", "": "BLOB",
             "FLOATING POINT": "INTEGER"}  # SQLite's documented quirk: rule 1 ("INT") comes first
    assert {declared: Column("c", declared).affinity for declared in types} == types


def test_from_sqlite_rejects_missing_and_non_database_files(tmp_path: Path):
    with pytest.raises(SchemaError, match="does not exist"):
        Schema.from_sqlite(tmp_path / "nowhere.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database " * 100)
    with pytest.raises(SchemaError, match="not a readable SQLite database"):
        Schema.from_sqlite(junk)


CSV = """Table Name, Field Name, Is Primary Key, Is Foreign Key, Type
AUTHOR, AUTHORID, Y, -, INT(11) NOT NULL
AUTHOR, AUTHORNAME, N, Y, VARCHAR(50) DEFAULT NULL
-, -, -, -, -
PAPER, PAPERID, Y, -, INT(11) NOT NULL
PAPER, TITLE, -, -, VARCHAR(300) DEFAULT NULL
PAPER, VENUEID, -, -, INT(11) DEFAULT NULL
WRITES, PAPERID, -, -, INT(11) DEFAULT NULL
WRITES, AUTHORID, -, -, INT(11) DEFAULT NULL
VENUE, VENUEID, -, -, INT(11) NOT NULL
VENUE, VENUENAME, -, -, VARCHAR(100) DEFAULT NULL
"""


def test_from_text2sql_csv_strips_constraints_and_links_columns_named_like_a_primary_key(tmp_path: Path):
    path = tmp_path / "toy-schema.csv"
    path.write_text(CSV)
    schema = Schema.from_text2sql_csv(path)
    assert [table.name for table in schema.tables] == ["AUTHOR", "PAPER", "WRITES", "VENUE"]
    assert schema.table("AUTHOR").columns == (
        Column("AUTHORID", "INT(11)", True),
        Column("AUTHORNAME", "VARCHAR(50)", collation="NOCASE"),
    )
    # VENUE has no primary-key flag, so PAPER.VENUEID is not linked by name.
    assert schema.foreign_keys == (
        ForeignKey("WRITES", "PAPERID", "PAPER", "PAPERID"),
        ForeignKey("WRITES", "AUTHORID", "AUTHOR", "AUTHORID"),
    )


def test_text2sql_csv_text_compares_as_mysql_does_without_case(tmp_path: Path):
    """text2sql-data's SQL ran on MySQL, whose default collation ignores case in string comparisons."""
    path = tmp_path / "toy-schema.csv"
    path.write_text(CSV)
    connection = sqlite3.connect(":memory:")
    for statement in Schema.from_text2sql_csv(path).create_statements():
        connection.execute(statement)
    connection.execute("INSERT INTO AUTHOR VALUES (1, 'noah a smith')")
    assert connection.execute("SELECT AUTHORID FROM AUTHOR WHERE AUTHORNAME = 'Noah A Smith'").fetchall() == [(1,)]
    assert connection.execute("SELECT COUNT(*) FROM PAPER WHERE PAPERID = 1").fetchall() == [(0,)]


def test_from_text2sql_csv_without_table_rows_is_an_error(tmp_path: Path):
    path = tmp_path / "empty-schema.csv"
    path.write_text("Table Name, Field Name, Is Primary Key, Is Foreign Key, Type\n-, -, -, -, -\n")
    with pytest.raises(SchemaError, match="no table rows"):
        Schema.from_text2sql_csv(path)


def test_with_join_keys_adds_foreign_keys_of_equality_joins(tmp_path: Path):
    path = tmp_path / "toy-schema.csv"
    path.write_text(CSV)
    schema = Schema.from_text2sql_csv(path)
    queries = [
        # PAPER.VENUEID = VENUE.VENUEID: VENUEID is named after VENUE, so VENUE is referenced.
        'SELECT DISTINCT PAPERalias0.PAPERID FROM PAPER AS PAPERalias0 , VENUE AS VENUEalias0 '
        'WHERE VENUEalias0.VENUEID = PAPERalias0.VENUEID AND VENUEalias0.VENUENAME = "ACL" ;',
        # Already declared by name: adds nothing.
        "SELECT w.AUTHORID FROM WRITES AS w JOIN AUTHOR AS a ON w.AUTHORID = a.AUTHORID",
        # Same table and unparsable queries add nothing.
        "SELECT 1 FROM PAPER AS p1, PAPER AS p2 WHERE p1.PAPERID = p2.VENUEID",
        "SELECT FROM WHERE (((",
    ]
    joined = schema.with_join_keys(queries)
    assert joined.foreign_keys == schema.foreign_keys + (ForeignKey("PAPER", "VENUEID", "VENUE", "VENUEID"),)
    assert schema.with_join_keys([]) == schema


def test_with_join_keys_skips_two_columns_that_refer_to_one_key():
    schema = Schema(
        (
            Table("paper", (Column("paperid", "int", True),)),
            Table("writes", (Column("paperid", "int"),)),
            Table("cite", (Column("citedpaperid", "int"),)),
        ),
        (ForeignKey("writes", "paperid", "paper", "paperid"),),
    )
    queries = [
        "SELECT 1 FROM cite AS c, writes AS w WHERE c.citedpaperid = w.paperid",
        "SELECT 1 FROM cite AS c, paper AS p WHERE c.citedpaperid = p.paperid",
    ]
    assert schema.with_join_keys(queries).foreign_keys == schema.foreign_keys + (
        ForeignKey("cite", "citedpaperid", "paper", "paperid"),
    )


def test_create_statements_round_trip_with_awkward_identifiers(tmp_path: Path):
    schema = Schema(
        (
            Table("order", (Column('we"ird', "varchar(10)", True), Column("select", "INT(11)"))),
            Table("line item", (Column("order id", "varchar(10)"), Column("qty", "double"))),
        ),
        (ForeignKey("line item", "order id", "order", 'we"ird'),),
    )
    path = tmp_path / "round.sqlite"
    with sqlite3.connect(path) as db:
        for statement in schema.create_statements():
            db.execute(statement)
    assert Schema.from_sqlite(path) == schema


def test_create_statements_refuse_a_type_that_is_not_plain_sql():
    schema = Schema((Table("t", (Column("c", "int); DROP TABLE t; --"),)),))
    with pytest.raises(SchemaError, match="not a plain SQL type"):
        schema.create_statements()


def test_real_geography_database_and_its_join_keys(real_data_dir: Path):
    schema = Schema.from_sqlite(real_data_dir / "text2sql" / "geography.sqlite")
    assert {table.name for table in schema.tables} == {
        "state", "city", "river", "border_info", "highlow", "lake", "mountain"
    }
    assert [c.name for c in schema.table("state").columns] == [
        "state_name", "population", "area", "country_name", "capital", "density"
    ]
    assert schema.table("state").column("area").affinity == "REAL"
    foreign_keys = set(schema.with_join_keys(distinct_golds("geoquery")).foreign_keys)
    assert {
        ForeignKey("city", "state_name", "state", "state_name"),
        ForeignKey("border_info", "border", "state", "state_name"),
        ForeignKey("river", "traverse", "state", "state_name"),
        ForeignKey("state", "capital", "city", "city_name"),
    } <= foreign_keys


def test_real_scholar_schema_csv_and_its_join_keys(real_data_dir: Path):
    schema = Schema.from_text2sql_csv(real_data_dir / "text2sql" / "scholar-schema.csv")
    assert len(schema.tables) == 12
    assert schema.table("AUTHOR").primary_key == ("AUTHORID",)
    assert schema.table("PAPER").column("TITLE").type == "VARCHAR(300)"
    assert ForeignKey("WRITES", "AUTHORID", "AUTHOR", "AUTHORID") in schema.foreign_keys
    added = set(schema.with_join_keys(distinct_golds("scholar")).foreign_keys) - set(schema.foreign_keys)
    assert {
        ForeignKey("PAPER", "VENUEID", "VENUE", "VENUEID"),
        ForeignKey("CITE", "CITEDPAPERID", "PAPER", "PAPERID"),
        ForeignKey("CITE", "CITINGPAPERID", "PAPER", "PAPERID"),
    } == added
