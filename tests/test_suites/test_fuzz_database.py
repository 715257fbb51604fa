"""Fuzzed test-suite databases (Zhong et al. 2020): keys consistent, literals planted, gold queries
non-empty, values from the original, reproducible per (seed, index)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from tests.helpers import distinct_golds
from textattack_semparse.errors import SchemaError
from textattack_semparse.scoring.execution_scorer import TIMEOUT
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor
from textattack_semparse.test_suites.fuzz_database import FuzzDatabaseGenerator
from textattack_semparse.test_suites.schema import Column, ForeignKey, Schema, Table


def _rows(path: Path, table: str) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()


def _nonempty(path: Path, queries: list[str]) -> list[bool]:
    executor = SQLiteExecutor(path, timeout=5.0)
    return [not executor.execute(sql).error and bool(executor.execute(sql).rows) for sql in queries]


def _key_violations(path: Path, schema: Schema) -> list[str]:
    """Duplicate primary keys and foreign-key values absent from the referenced column, found by SQL."""
    problems = []
    with sqlite3.connect(path) as db:
        for table in schema.tables:
            if table.primary_key:
                key = ", ".join(f'"{c}"' for c in table.primary_key)
                if db.execute(f'SELECT {key} FROM "{table.name}" GROUP BY {key} HAVING COUNT(*) > 1').fetchall():
                    problems.append(f"duplicate key in {table.name}")
        for fk in schema.foreign_keys:
            dangling = db.execute(
                f'SELECT COUNT(*) FROM "{fk.table}" WHERE "{fk.column}" IS NOT NULL AND "{fk.column}" NOT IN '
                f'(SELECT "{fk.ref_column}" FROM "{fk.ref_table}")'
            ).fetchone()[0]
            if dangling:
                problems.append(f"{dangling} dangling {fk}")
    return problems


SCHOLAR_LIKE = Schema(
    (
        Table("AUTHOR", (Column("AUTHORID", "INT(11)", True), Column("AUTHORNAME", "VARCHAR(50)"))),
        Table("PAPER", (Column("PAPERID", "INT(11)", True), Column("TITLE", "VARCHAR(300)"),
                        Column("VENUEID", "INT(11)"), Column("YEAR", "INT(11)"), Column("NUMCITEDBY", "INT(11)"))),
        Table("VENUE", (Column("VENUEID", "INT(11)", True), Column("VENUENAME", "VARCHAR(100)"))),
        Table("WRITES", (Column("PAPERID", "INT(11)"), Column("AUTHORID", "INT(11)"))),
    ),
    (
        ForeignKey("PAPER", "VENUEID", "VENUE", "VENUEID"),
        ForeignKey("WRITES", "PAPERID", "PAPER", "PAPERID"),
        ForeignKey("WRITES", "AUTHORID", "AUTHOR", "AUTHORID"),
    ),
)
SCHOLAR_LIKE_GOLDS = [
    'SELECT DISTINCT WRITESalias0.PAPERID FROM AUTHOR AS AUTHORalias0 , PAPER AS PAPERalias0 , VENUE AS VENUEalias0 , '
    'WRITES AS WRITESalias0 WHERE AUTHORalias0.AUTHORNAME = "mayank goel" AND VENUEalias0.VENUEID = PAPERalias0.VENUEID '
    'AND VENUEalias0.VENUENAME = "chi" AND WRITESalias0.AUTHORID = AUTHORalias0.AUTHORID '
    'AND WRITESalias0.PAPERID = PAPERalias0.PAPERID AND PAPERalias0.YEAR > 2012 ;',
    'SELECT DISTINCT PAPERalias0.PAPERID FROM PAPER AS PAPERalias0 WHERE PAPERalias0.TITLE LIKE "%semantic parsing%" '
    'AND PAPERalias0.YEAR BETWEEN 2010 AND 2014 ;',
    'SELECT DISTINCT PAPERalias0.TITLE FROM PAPER AS PAPERalias0 WHERE PAPERalias0.NUMCITEDBY = '
    '( SELECT MAX( PAPERalias1.NUMCITEDBY ) FROM PAPER AS PAPERalias1 WHERE PAPERalias1.YEAR < 2000 ) '
    'AND PAPERalias0.YEAR < 2000 ;',
    'SELECT DISTINCT WRITESalias0.AUTHORID FROM VENUE AS VENUEalias0 , PAPER AS PAPERalias0 , WRITES AS WRITESalias0 '
    'WHERE VENUEalias0.VENUENAME IN ( "acl" , "emnlp" ) AND VENUEalias0.VENUEID = PAPERalias0.VENUEID '
    'AND WRITESalias0.PAPERID = PAPERalias0.PAPERID GROUP BY WRITESalias0.AUTHORID '
    'HAVING COUNT( DISTINCT VENUEalias0.VENUEID ) = 2 ;',
    'SELECT DISTINCT COUNT( PAPERalias0.PAPERID ) , WRITESalias0.AUTHORID FROM PAPER AS PAPERalias0 , '
    'WRITES AS WRITESalias0 WHERE WRITESalias0.PAPERID = PAPERalias0.PAPERID GROUP BY WRITESalias0.AUTHORID '
    'HAVING COUNT( PAPERalias0.PAPERID ) > 4 ;',
    'SELECT AUTHORalias0.AUTHORID FROM AUTHOR AS AUTHORalias0 WHERE AUTHORalias0.AUTHORNAME = "ohad shamir" '
    'OR AUTHORalias0.AUTHORNAME = "dan klein" ;',
]


def test_gold_queries_return_rows_and_keys_stay_consistent_without_an_original(tmp_path: Path):
    generator = FuzzDatabaseGenerator(SCHOLAR_LIKE, SCHOLAR_LIKE_GOLDS, seed=7, rows_per_table=15)
    for index in range(4):
        path = generator.write(index, tmp_path / f"{index}.sqlite")
        assert _nonempty(path, SCHOLAR_LIKE_GOLDS) == [True] * len(SCHOLAR_LIKE_GOLDS), index
        assert _key_violations(path, SCHOLAR_LIKE) == []
        assert Schema.from_sqlite(path) == SCHOLAR_LIKE  # a normal SQLite file with the schema's tables
        assert 15 <= len(_rows(path, "AUTHOR")) < 100


@pytest.fixture
def states(tmp_path: Path) -> Path:
    """A small original database without declared keys, as GeoQuery's."""
    path = tmp_path / "original.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE state (state_name text, population INTEGER DEFAULT NULL, area double, capital text)")
        db.execute("CREATE TABLE city (city_name text, population INTEGER, state_name text)")
        db.executemany("INSERT INTO state VALUES (?, ?, ?, ?)", [
            ("texas", 14229000, 266807.0, "austin"), ("ohio", 10798000, 41330.0, "columbus"),
            ("maine", 1125000, 33265.0, "augusta"), ("utah", 1461000, 84899.0, "salt lake city"),
        ])
        db.executemany("INSERT INTO city VALUES (?, ?, ?)", [
            ("austin", 345496, "texas"), ("dallas", 904078, "texas"), ("columbus", 564871, "ohio"),
            ("augusta", 21819, "maine"), ("salt lake city", 163034, "utah"),
        ])
    return path


def test_literal_missing_from_the_original_is_planted(states: Path, tmp_path: Path):
    golds = [
        'SELECT CITYalias0.POPULATION FROM CITY AS CITYalias0 WHERE CITYalias0.CITY_NAME = "springfield" '
        'AND CITYalias0.STATE_NAME = "illinois" ;',
        'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.POPULATION > 20000000 ;',
    ]
    assert _nonempty(states, golds) == [False, False]
    schema = Schema.from_sqlite(states).with_join_keys(
        ["SELECT 1 FROM city AS c, state AS s WHERE c.state_name = s.state_name"]
    )
    path = FuzzDatabaseGenerator(schema, golds, original=states, seed=1).write(0, tmp_path / "fuzz.sqlite")
    assert _nonempty(path, golds) == [True, True]
    assert _key_violations(path, schema) == []
    # state_name is the key city.state_name refers to: unique, and "illinois" exists as a state.
    assert ("illinois",) in [row[:1] for row in _rows(path, "state")]
    names = [row[0] for row in _rows(path, "state")]
    assert len(names) == len(set(names))


def test_max_subquery_and_capital_join_describe_one_row(states: Path, tmp_path: Path):
    golds = [
        "SELECT CITYalias0.POPULATION FROM CITY AS CITYalias0 WHERE CITYalias0.CITY_NAME = ( SELECT "
        "STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.AREA = ( SELECT MAX( STATEalias1.AREA ) "
        "FROM STATE AS STATEalias1 ) ) ;",
        "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.STATE_NAME = ( SELECT "
        "STATEalias0.STATE_NAME FROM STATE AS STATEalias0 WHERE STATEalias0.POPULATION = ( SELECT MIN( "
        "STATEalias1.POPULATION ) FROM STATE AS STATEalias1 ) ) AND CITYalias0.POPULATION > 150000 ;",
        "SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME NOT IN ( SELECT "
        'CITYalias0.STATE_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.CITY_NAME = "dallas" ) ;',
    ]
    schema = Schema.from_sqlite(states)
    generator = FuzzDatabaseGenerator(schema, golds, original=states, seed=2, rows_per_table=10)
    for index in range(3):
        assert _nonempty(generator.write(index, tmp_path / f"{index}.sqlite"), golds) == [True] * 3


def test_same_seed_and_index_give_the_same_database(tmp_path: Path):
    generator = FuzzDatabaseGenerator(SCHOLAR_LIKE, SCHOLAR_LIKE_GOLDS, seed=3)
    first = generator.write(5, tmp_path / "a.sqlite")
    again = FuzzDatabaseGenerator(SCHOLAR_LIKE, SCHOLAR_LIKE_GOLDS, seed=3).write(5, tmp_path / "b.sqlite")
    assert first.read_bytes() == again.read_bytes()
    other_index = generator.write(6, tmp_path / "c.sqlite")
    other_seed = FuzzDatabaseGenerator(SCHOLAR_LIKE, SCHOLAR_LIKE_GOLDS, seed=4).write(5, tmp_path / "d.sqlite")
    for path in (other_index, other_seed):
        assert _rows(path, "PAPER") != _rows(first, "PAPER")


def test_write_replaces_an_existing_file(tmp_path: Path):
    path = tmp_path / "db.sqlite"
    path.write_text("stale")
    FuzzDatabaseGenerator(SCHOLAR_LIKE, SCHOLAR_LIKE_GOLDS).write(0, path)
    assert len(_rows(path, "VENUE")) > 0


def test_invalid_arguments_are_rejected(tmp_path: Path):
    with pytest.raises(ValueError, match="rows_per_table"):
        FuzzDatabaseGenerator(SCHOLAR_LIKE, SCHOLAR_LIKE_GOLDS, rows_per_table=-1)
    with pytest.raises(TypeError, match="sequence of SQL strings"):
        FuzzDatabaseGenerator(SCHOLAR_LIKE, "SELECT 1")
    generator = FuzzDatabaseGenerator(SCHOLAR_LIKE, SCHOLAR_LIKE_GOLDS, original=tmp_path / "missing.sqlite")
    with pytest.raises(SchemaError, match="does not exist"):
        generator.write(0, tmp_path / "out.sqlite")


@pytest.fixture(scope="module")
def geo_suite(tmp_path_factory: pytest.TempPathFactory) -> tuple[Schema, Path, list[str], list[Path]]:
    value = os.environ.get("SEMPARSE_DATA_DIR")
    if not value:
        pytest.skip("SEMPARSE_DATA_DIR is not set: real GeoQuery data unavailable")
    original = Path(value) / "text2sql" / "geography.sqlite"
    golds = distinct_golds("geoquery")
    schema = Schema.from_sqlite(original).with_join_keys(golds)
    generator = FuzzDatabaseGenerator(schema, golds, original=original, seed=0)
    folder = tmp_path_factory.mktemp("geo-suite")
    return schema, original, golds, [generator.write(index, folder / f"{index}.sqlite") for index in range(3)]


def test_real_geoquery_gold_queries_return_rows_on_every_database(geo_suite):
    schema, original, golds, paths = geo_suite
    runs_on_original = [sql for sql in golds if not SQLiteExecutor(original, timeout=TIMEOUT).execute(sql).error]
    every = [all(flags) for flags in zip(*(_nonempty(path, runs_on_original) for path in paths))]
    assert sum(every) / len(every) > 0.95
    for path in paths:
        assert _key_violations(path, schema) == []


def test_real_geoquery_fuzz_databases_keep_names_and_declared_types(geo_suite):
    schema, original, golds, paths = geo_suite
    with sqlite3.connect(original) as db:
        expected = {t.name: db.execute(f'PRAGMA table_info("{t.name}")').fetchall() for t in schema.tables}
    with sqlite3.connect(paths[0]) as db:
        written = {t.name: db.execute(f'PRAGMA table_info("{t.name}")').fetchall() for t in schema.tables}
    assert {t: [row[1:3] for row in rows] for t, rows in written.items()} == {
        t: [row[1:3] for row in rows] for t, rows in expected.items()
    }


def test_real_geoquery_values_come_from_the_original_distribution(geo_suite):
    schema, original, golds, paths = geo_suite
    real = {row[0] for row in _rows(original, "state")}
    for path in paths:
        names = [row[0] for row in _rows(path, "state")]
        assert sum(name in real for name in names) / len(names) > 0.5
        assert set(names) != real  # a different database, not a copy
        assert len(names) < 300 and len(_rows(path, "city")) < 400


def test_real_scholar_gold_queries_return_rows_without_a_database(real_data_dir: Path, tmp_path: Path):
    golds = distinct_golds("scholar")
    schema = Schema.from_text2sql_csv(real_data_dir / "text2sql" / "scholar-schema.csv").with_join_keys(golds)
    generator = FuzzDatabaseGenerator(schema, golds, seed=0)
    paths = [generator.write(index, tmp_path / f"{index}.sqlite") for index in range(2)]
    every = [all(flags) for flags in zip(*(_nonempty(path, golds) for path in paths))]
    assert sum(every) / len(every) > 0.95
    for path in paths:
        assert _key_violations(path, schema) == []
