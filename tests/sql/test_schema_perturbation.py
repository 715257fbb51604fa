"""Schema perturbations of a copy of a database and gold SQL rewritten to match (small database)."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from textattack_semparse.sql.denotation import query_is_ordered
from textattack_semparse.sql.schema_mapping import SchemaMapping
from textattack_semparse.sql.schema_perturbation import (
    SCHEMA_PERTURBATIONS,
    as_identifier,
    cached_perturbed_database,
    perturb_schema,
)
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor

# Candidate names: "state" is a table name and "select" a keyword, so both must be skipped.
NAMES = {
    "population": ["pop."],
    "state_name": ["state", "province name"],
    "city_name": ["town"],
    "border": ["select", "neighbour"],
    "capital": ["seat of government"],
    "state": ["province"],
    "city": ["state", "town"],  # "state" is taken by a table
    "border_info": ["city_name"],  # a column's name: border_info keeps its name
}


def names(name: str) -> list[str]:
    return NAMES.get(name.lower(), [])


def rows_of(db: Path, sql: str) -> object:
    result = SQLiteExecutor(db, timeout=5.0).execute(sql)
    assert result.ok, (sql, result.error)
    rows = list(result.rows)
    return rows if query_is_ordered(sql) else Counter(rows)


@pytest.fixture
def renamed(geo_db: Path, tmp_path: Path):
    return perturb_schema(geo_db, "synonym", tmp_path / "synonym.sqlite", names=names)


def test_renames_come_from_the_candidates_and_stay_unique_identifiers(renamed):
    mapping = renamed.mapping
    assert mapping.columns["state"] == {
        "state_name": "province_name",  # "state" is a table's name: skipped
        "population": "pop",  # "pop." reduced to an identifier
        "area": "area",
        "capital": "seat_of_government",
        "density": "density",
    }
    assert mapping.columns["border_info"]["border"] == "neighbour"  # "select" is a keyword
    assert mapping.columns["city"]["state_name"] == "province_name"  # one name, one new name everywhere
    columns = {table: [row[1] for row in sqlite3.connect(renamed.path).execute(f"PRAGMA table_info({table})")] for table in ("state", "city")}
    assert columns["state"] == ["province_name", "pop", "area", "seat_of_government", "density"]
    assert columns["city"] == ["town", "pop", "province_name"]


@pytest.mark.parametrize(
    "sql, expected",
    [
        # alias shadowing a column name: ORDER BY takes the alias, WHERE the column
        (
            "SELECT state_name AS population FROM state WHERE population > 1000000 ORDER BY population",
            "SELECT province_name AS population FROM state WHERE pop > 1000000 ORDER BY population",
        ),
        # the same column name in two tables, qualified by table name and by alias
        (
            "SELECT city.population FROM city JOIN state AS s ON city.state_name = s.state_name WHERE s.population > 5",
            "SELECT city.pop FROM city JOIN state AS s ON city.province_name = s.province_name WHERE s.pop > 5",
        ),
        # GeoQuery's upper-case alias style
        (
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION = "
            "( SELECT MAX( CITYalias1.POPULATION ) FROM CITY AS CITYalias1 ) ;",
            "SELECT CITYalias0.town FROM CITY AS CITYalias0 WHERE CITYalias0.pop = "
            "( SELECT MAX( CITYalias1.pop ) FROM CITY AS CITYalias1 ) ;",
        ),
        # a subquery with its own alias; an unaliased derived column keeps its output name
        (
            "SELECT t.population, t.p FROM (SELECT population, area AS p FROM state) AS t ORDER BY t.population",
            "SELECT t.population, t.p FROM (SELECT pop AS population, area AS p FROM state) AS t ORDER BY t.population",
        ),
        # string literals that look like column names stay
        (
            "SELECT capital FROM state WHERE state_name = \"population\" OR capital = 'state_name'",
            "SELECT seat_of_government FROM state WHERE province_name = \"population\" OR seat_of_government = 'state_name'",
        ),
        # GROUP BY / HAVING / ORDER BY on columns; a correlated reference to the outer query
        (
            "SELECT state_name, count(*) FROM city AS c GROUP BY state_name HAVING max(population) > "
            "(SELECT min(population) FROM state WHERE state.state_name = c.state_name) ORDER BY state_name DESC",
            "SELECT province_name, count(*) FROM city AS c GROUP BY province_name HAVING max(pop) > "
            "(SELECT min(pop) FROM state WHERE state.province_name = c.province_name) ORDER BY province_name DESC",
        ),
    ],
)
def test_rewrite_edits_only_schema_names_and_keeps_the_rows(renamed, geo_db, sql, expected):
    rewrite = renamed.mapping.rewrite(sql)
    assert rewrite.ok and rewrite.sql == expected
    assert rows_of(renamed.path, rewrite.sql) == rows_of(geo_db, sql)


def test_unqualified_column_of_two_tables_and_unparsable_sql_are_values_not_crashes(renamed):
    ambiguous = renamed.mapping.rewrite("SELECT population FROM city, state")
    assert not ambiguous.ok and "ambiguous" in ambiguous.error
    broken = renamed.mapping.rewrite("SELECT * FROM (")
    assert broken.sql is None and broken.error.startswith("ParseError")
    assert renamed.mapping.rewrite("SELECT 1; SELECT 2").error == "expected one SQL statement, found 2"


def test_table_rename_renames_tables_and_their_qualifiers(geo_db, tmp_path):
    copy = perturb_schema(geo_db, "table-rename", tmp_path / "tables.sqlite", names=names)
    assert dict(copy.mapping.tables) == {"state": "province", "city": "town", "border_info": "border_info"}
    sql = "SELECT state.capital, b.border FROM state JOIN border_info AS b ON b.state_name = state.state_name"
    rewrite = copy.mapping.rewrite(sql)
    assert rewrite.sql == (
        "SELECT province.capital, b.border FROM province JOIN border_info AS b ON b.state_name = province.state_name"
    )
    assert rows_of(copy.path, rewrite.sql) == rows_of(geo_db, sql)


@pytest.mark.parametrize("kind", ["column-shuffle", "column-adding"])
def test_layout_changes_spell_out_stars_in_the_original_order(geo_db, tmp_path, kind):
    copy = perturb_schema(geo_db, kind, tmp_path / f"{kind}.sqlite", seed=3)
    original_columns = [row[1] for row in sqlite3.connect(geo_db).execute("PRAGMA table_info(state)")]
    new_columns = [row[1] for row in sqlite3.connect(copy.path).execute("PRAGMA table_info(state)")]
    assert new_columns != original_columns and set(original_columns) <= set(new_columns)
    for sql in (
        "SELECT * FROM state ORDER BY area",
        "SELECT c.*, s.capital FROM city AS c JOIN state AS s ON c.state_name = s.state_name",
        "SELECT * FROM city JOIN border_info ON city.state_name = border_info.state_name",
        "SELECT count(*) FROM state",
    ):
        rewrite = copy.mapping.rewrite(sql)
        assert rewrite.ok, rewrite.error
        assert rows_of(copy.path, rewrite.sql) == rows_of(geo_db, sql)
    assert copy.mapping.rewrite("SELECT * FROM state").sql == f"SELECT {', '.join(original_columns)} FROM state"


def test_added_columns_hold_values_of_another_table(geo_db, tmp_path):
    copy = perturb_schema(geo_db, "column-adding", tmp_path / "added.sqlite")
    added = copy.mapping.added
    assert set(added) == {"state", "city", "border_info"} and all(len(columns) == 1 for columns in added.values())
    connection = sqlite3.connect(copy.path)
    for table, (column,) in added.items():
        donor_table = next(name for name in ("border_info", "state", "city") if column.startswith(name + "_"))
        assert donor_table != table
        donor_column = column[len(donor_table) + 1 :]
        donor = {row[0] for row in connection.execute(f"SELECT {donor_column} FROM {donor_table}")}
        values = {row[0] for row in connection.execute(f"SELECT {column} FROM {table}")}
        assert values <= donor


def test_the_original_is_never_written_and_the_copy_is_deterministic(geo_db, tmp_path, file_digest):
    before = file_digest(geo_db)
    for kind in SCHEMA_PERTURBATIONS:
        first = perturb_schema(geo_db, kind, tmp_path / "a" / f"{kind}.sqlite", seed=7)
        second = perturb_schema(geo_db, kind, tmp_path / "b" / f"{kind}.sqlite", seed=7)
        assert first.mapping == second.mapping
        assert file_digest(first.path) == file_digest(second.path)
    assert file_digest(geo_db) == before
    with pytest.raises(Exception, match="must not overwrite the original"):
        perturb_schema(geo_db, "synonym", geo_db)


def test_unknown_kind_names_the_accepted_ones(geo_db, tmp_path):
    with pytest.raises(ValueError, match="Did you mean 'synonym'"):
        perturb_schema(geo_db, "synonyms", tmp_path / "x.sqlite")


def test_cached_copy_is_written_once_under_the_cache_dir(geo_db, tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path / "cache"))
    first = cached_perturbed_database(geo_db, "column-shuffle")
    stamp = first.path.stat().st_mtime_ns
    second = cached_perturbed_database(geo_db, "column-shuffle")
    assert first.path == second.path and second.path.stat().st_mtime_ns == stamp
    assert (tmp_path / "cache" / "schema_perturbations") in first.path.parents
    assert SchemaMapping.from_json(first.mapping.to_json()) == first.mapping


def test_as_identifier():
    assert [as_identifier(name) for name in ("pop.", "no. of pets", "from", "1st", "Ctry. _Name")] == [
        "pop",
        "no_of_pets",
        None,
        None,
        "Ctry_Name",
    ]
