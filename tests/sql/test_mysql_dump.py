"""Tests for textattack_semparse.sql.mysql_dump: MySQL dump to SQLite conversion and its cache."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from textattack_semparse.errors import SchemaError
from textattack_semparse.cache import CACHE_ENV as CACHE_ENV_VAR
from textattack_semparse.sql.mysql_dump import (
    cached_sqlite_from_dump,
    convert_mysql_dump,
    mysql_to_sqlite_statements,
)

GEO_COUNTS = {
    "state": 51,
    "city": 386,
    "river": 137,
    "border_info": 218,
    "highlow": 51,
    "lake": 32,
    "mountain": 50,
}

# MySQL-isms a mysqldump file contains, all in one table.
MYSQLISH_DUMP = r"""-- MySQL dump 10.13
/*!40101 SET NAMES utf8 */;
DROP TABLE IF EXISTS `t`;
/*!40101 SET character_set_client = utf8 */;
CREATE TABLE `t` (
  `id` int(11) unsigned NOT NULL AUTO_INCREMENT,
  `name` varchar(255) COLLATE utf8_bin DEFAULT NULL COMMENT 'the name',
  `score` double DEFAULT '0',
  `kind` enum('a','b') DEFAULT 'a',
  `ts` datetime DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  `My Col` decimal(10,2) DEFAULT -1.5,
  `raw` varbinary(4),
  PRIMARY KEY (`id`),
  UNIQUE KEY `name_idx` (`name`),
  KEY `score_idx` (`score`)
) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4;
LOCK TABLES `t` WRITE;
/*!40000 ALTER TABLE `t` DISABLE KEYS */;
INSERT INTO `t` VALUES (1,'it\'s \"q\" back\\slash\nnl; semi',1.5,'a','2020-01-01 00:00:00',2.25,NULL),(2,NULL,-2e3,'b','2020-01-01',NULL,NULL);
/*!40000 ALTER TABLE `t` ENABLE KEYS */;
UNLOCK TABLES;
"""


def query(database: Path, sql: str) -> list[tuple]:
    connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def rows(database: Path, table: str) -> list[tuple]:
    return query(database, f'SELECT * FROM "{table}" ORDER BY rowid')


def column_info(database: Path, table: str) -> list[tuple[str, str, int]]:
    info = query(database, f'PRAGMA table_info("{table}")')
    return [(name, kind, pk) for _, name, kind, _, _, pk in info]


@pytest.fixture
def mysqlish_dump(tmp_path: Path) -> Path:
    path = tmp_path / "dump.sql"
    path.write_text(MYSQLISH_DUMP, encoding="utf-8")
    return path


def test_values_survive_mysql_escapes(mysqlish_dump, tmp_path):
    database = convert_mysql_dump(mysqlish_dump, tmp_path / "out.sqlite")
    assert rows(database, "t") == [
        (1, "it's \"q\" back\\slash\nnl; semi", 1.5, "a", "2020-01-01 00:00:00", 2.25, None),
        (2, None, -2000.0, "b", "2020-01-01", None, None),
    ]


def test_column_names_kept_and_types_reduced_to_affinities(mysqlish_dump, tmp_path):
    database = convert_mysql_dump(mysqlish_dump, tmp_path / "out.sqlite")
    assert column_info(database, "t") == [
        ("id", "INTEGER", 1),
        ("name", "TEXT", 0),
        ("score", "REAL", 0),
        ("kind", "TEXT", 0),
        ("ts", "NUMERIC", 0),
        ("My Col", "NUMERIC", 0),
        ("raw", "BLOB", 0),
    ]


def test_mysql_only_clauses_are_dropped():
    create = mysql_to_sqlite_statements(MYSQLISH_DUMP)[0]
    for mysqlism in ("ENGINE", "CHARSET", "COLLATE", "COMMENT", "AUTO", "ON UPDATE", "KEY `", "INDEX"):
        assert mysqlism not in create


def test_not_null_and_literal_defaults_are_kept():
    statements = mysql_to_sqlite_statements(
        "CREATE TABLE `c` (`country_name` varchar(3) NOT NULL DEFAULT '', `n` int(11) NULL DEFAULT -1);"
    )
    assert statements == ['CREATE TABLE "c" ("country_name" TEXT NOT NULL DEFAULT \'\', "n" INTEGER DEFAULT -1)']


def test_statements_other_than_create_and_insert_are_skipped():
    statements = mysql_to_sqlite_statements(MYSQLISH_DUMP)
    assert [s.split()[0] for s in statements] == ["CREATE", "INSERT"]


def test_returns_the_sqlite_path(mysqlish_dump, tmp_path):
    target = tmp_path / "out.sqlite"
    assert convert_mysql_dump(mysqlish_dump, str(target)) == target


def test_creates_missing_parent_directories(mysqlish_dump, tmp_path):
    target = tmp_path / "a" / "b" / "out.sqlite"
    assert convert_mysql_dump(mysqlish_dump, target).is_file()


def test_replaces_an_existing_file_and_leaves_no_temporary(mysqlish_dump, tmp_path):
    target = tmp_path / "out.sqlite"
    target.write_text("stale")
    convert_mysql_dump(mysqlish_dump, target)
    assert len(rows(target, "t")) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dump.sql", "out.sqlite"]


def test_failed_statement_leaves_no_file(tmp_path):
    dump = tmp_path / "bad.sql"
    dump.write_text("CREATE TABLE `t` (`a` int);\nINSERT INTO `missing` VALUES (1);\n")
    with pytest.raises(SchemaError, match=r"bad\.sql.*no such table: missing.*INSERT"):
        convert_mysql_dump(dump, tmp_path / "out.sqlite")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sql"]


def test_unparsable_statement_names_its_line(tmp_path):
    dump = tmp_path / "broken.sql"
    dump.write_text("CREATE TABLE `t` (`a` int);\n\nINSERT INTO `t` VALUES (1,;\n")
    with pytest.raises(SchemaError, match=r"line 3 in .*broken\.sql"):
        convert_mysql_dump(dump, tmp_path / "out.sqlite")


def test_dump_without_create_table_is_rejected(tmp_path):
    dump = tmp_path / "data-only.sql"
    dump.write_text("INSERT INTO `t` VALUES (1);\n")
    with pytest.raises(SchemaError, match="no CREATE TABLE.*--no-create-info"):
        convert_mysql_dump(dump, tmp_path / "out.sqlite")


def test_missing_dump_names_the_path(tmp_path):
    with pytest.raises(SchemaError, match=r"nope\.sql"):
        convert_mysql_dump(tmp_path / "nope.sql", tmp_path / "out.sqlite")


def test_non_utf8_dump_is_rejected(tmp_path):
    dump = tmp_path / "latin.sql"
    dump.write_bytes("CREATE TABLE `t` (`a` text); INSERT INTO `t` VALUES ('café');".encode("latin-1"))
    with pytest.raises(SchemaError, match="UTF-8"):
        convert_mysql_dump(dump, tmp_path / "out.sqlite")


def test_cached_conversion_is_reused(mysqlish_dump, monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path / "cache"))
    first = cached_sqlite_from_dump(mysqlish_dump)
    assert first.parent == tmp_path / "cache" / "sqlite"
    assert first.name.startswith("dump-") and first.suffix == ".sqlite"
    stamp = first.stat().st_mtime_ns
    assert cached_sqlite_from_dump(mysqlish_dump) == first
    assert first.stat().st_mtime_ns == stamp


def test_edited_dump_gets_a_new_cache_entry(mysqlish_dump, monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path / "cache"))
    first = cached_sqlite_from_dump(mysqlish_dump)
    mysqlish_dump.write_text(MYSQLISH_DUMP.replace("1.5,'a'", "9.5,'a'"), encoding="utf-8")
    second = cached_sqlite_from_dump(mysqlish_dump)
    assert second != first
    assert rows(second, "t")[0][2] == 9.5 and rows(first, "t")[0][2] == 1.5


@pytest.mark.real_data
def test_geoquery_dump_row_counts(data_dir, monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path / "cache"))
    database = cached_sqlite_from_dump(data_dir / "text2sql" / "geography-db.sql")
    assert {table: len(rows(database, table)) for table in GEO_COUNTS} == GEO_COUNTS


@pytest.mark.real_data
def test_geoquery_dump_matches_reference_sqlite(data_dir, tmp_path):
    database = convert_mysql_dump(data_dir / "text2sql" / "geography-db.sql", tmp_path / "geo.sqlite")
    reference = data_dir / "text2sql" / "geography.sqlite"
    for table in GEO_COUNTS:
        assert Counter(rows(database, table)) == Counter(rows(reference, table)), table
        assert [c[0] for c in column_info(database, table)] == [c[0] for c in column_info(reference, table)]
