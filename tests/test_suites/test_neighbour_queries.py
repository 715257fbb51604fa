"""Near-miss neighbour queries (Zhong, Yu and Klein 2020) on GeoQuery-style gold SQL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlglot

from textattack_semparse.test_suites.neighbour_queries import neighbour_queries

COLUMNS = {
    "city": ["city_name", "population", "country_name", "state_name"],
    "state": ["state_name", "population", "area", "capital"],
    "river": ["river_name", "length", "traverse"],
}
CITY_IN_TEXAS = (
    'SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION > 150000 '
    'AND CITYalias0.STATE_NAME = "texas" ;'
)
LARGEST_CITY = (
    "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION = "
    "( SELECT MAX( CITYalias1.POPULATION ) FROM CITY AS CITYalias1 ) ;"
)
GOLDS = [
    CITY_IN_TEXAS,
    LARGEST_CITY,
    'SELECT COUNT( DISTINCT RIVERalias0.RIVER_NAME ) FROM RIVER AS RIVERalias0 WHERE RIVERalias0.TRAVERSE IN '
    '( SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 WHERE STATEalias0.AREA < 50000 ) ;',
    "SELECT DISTINCT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 ORDER BY STATEalias0.AREA DESC LIMIT 3 ;",
    'SELECT AVG( CITYalias0.POPULATION ) FROM CITY AS CITYalias0 WHERE CITYalias0.CITY_NAME LIKE "%ville" ;',
]


@pytest.fixture(scope="module")
def geo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("geo") / "geo.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE city (city_name TEXT, population INT, country_name TEXT, state_name TEXT)")
        db.execute("CREATE TABLE state (state_name TEXT, population INT, area REAL, capital TEXT)")
        db.execute("CREATE TABLE river (river_name TEXT, length INT, traverse TEXT)")
        db.executemany(
            "INSERT INTO city VALUES (?, ?, 'usa', ?)",
            [("houston", 1595138, "texas"), ("austin", 345496, "texas"), ("nashville", 455651, "tennessee")],
        )
        db.executemany(
            "INSERT INTO state VALUES (?, ?, ?, ?)",
            [("texas", 14229000, 266807, "austin"), ("tennessee", 4591000, 42144, "nashville")],
        )
        db.executemany("INSERT INTO river VALUES (?, ?, ?)", [("red", 2076, "texas"), ("tennessee", 1049, "tennessee")])
    return path


def _neighbours(sql: str, **kwargs: object) -> list[str]:
    return neighbour_queries(sql, columns=COLUMNS, **kwargs)


@pytest.mark.parametrize(
    ("gold", "expected"),
    [
        pytest.param(
            CITY_IN_TEXAS,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION > 150000",
            id="drop-predicate",
        ),
        pytest.param(
            CITY_IN_TEXAS,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION > 150000 "
            "AND CITYalias0.STATE_NAME <> 'texas'",
            id="equal-to-not-equal",
        ),
        pytest.param(
            CITY_IN_TEXAS,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION < 150000 "
            "AND CITYalias0.STATE_NAME = 'texas'",
            id="flip-greater-than",
        ),
        pytest.param(
            CITY_IN_TEXAS,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION >= 150000 "
            "AND CITYalias0.STATE_NAME = 'texas'",
            id="greater-than-or-equal",
        ),
        pytest.param(
            CITY_IN_TEXAS,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION > 149999 "
            "AND CITYalias0.STATE_NAME = 'texas'",
            id="number-minus-one",
        ),
        pytest.param(
            CITY_IN_TEXAS,
            "SELECT CITYalias0.state_name FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION > 150000 "
            "AND CITYalias0.STATE_NAME = 'texas'",
            id="swap-selected-column",
        ),
        pytest.param(
            CITY_IN_TEXAS,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION > 150000 "
            "AND CITYalias0.country_name = 'texas'",
            id="swap-compared-column",
        ),
        pytest.param(
            LARGEST_CITY,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION = "
            "(SELECT MIN(CITYalias1.POPULATION) FROM CITY AS CITYalias1)",
            id="max-to-min",
        ),
        pytest.param(
            LARGEST_CITY,
            "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION = "
            "(SELECT MAX(CITYalias1.city_name) FROM CITY AS CITYalias1)",
            id="swap-column-inside-subquery",
        ),
        pytest.param(
            GOLDS[2],
            "SELECT COUNT(RIVERalias0.RIVER_NAME) FROM RIVER AS RIVERalias0 WHERE RIVERalias0.TRAVERSE IN "
            "(SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 WHERE STATEalias0.AREA < 50000)",
            id="drop-count-distinct",
        ),
        pytest.param(
            GOLDS[2],
            "SELECT SUM(DISTINCT RIVERalias0.RIVER_NAME) FROM RIVER AS RIVERalias0 WHERE RIVERalias0.TRAVERSE IN "
            "(SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 WHERE STATEalias0.AREA < 50000)",
            id="count-to-sum",
        ),
        pytest.param(
            GOLDS[2],
            "SELECT COUNT(DISTINCT RIVERalias0.RIVER_NAME) FROM RIVER AS RIVERalias0 WHERE NOT RIVERalias0.TRAVERSE IN "
            "(SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 WHERE STATEalias0.AREA < 50000)",
            id="not-in",
        ),
        pytest.param(
            GOLDS[3],
            "SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 ORDER BY STATEalias0.AREA DESC LIMIT 3",
            id="drop-distinct",
        ),
        pytest.param(
            GOLDS[3], "SELECT DISTINCT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 ORDER BY STATEalias0.AREA DESC",
            id="drop-limit",
        ),
        pytest.param(
            GOLDS[3],
            "SELECT DISTINCT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 ORDER BY STATEalias0.AREA DESC LIMIT 4",
            id="limit-plus-one",
        ),
        pytest.param(
            GOLDS[3],
            "SELECT DISTINCT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 ORDER BY STATEalias0.AREA ASC LIMIT 3",
            id="flip-order",
        ),
        pytest.param(
            GOLDS[4],
            "SELECT SUM(CITYalias0.POPULATION) FROM CITY AS CITYalias0 WHERE CITYalias0.CITY_NAME LIKE '%ville'",
            id="avg-to-sum",
        ),
        pytest.param(
            GOLDS[4],
            "SELECT AVG(CITYalias0.POPULATION) FROM CITY AS CITYalias0 WHERE NOT CITYalias0.CITY_NAME LIKE '%ville'",
            id="not-like",
        ),
        pytest.param(
            GOLDS[4], "SELECT AVG(CITYalias0.POPULATION) FROM CITY AS CITYalias0", id="drop-only-predicate"
        ),
    ],
)
def test_each_edit_makes_its_neighbour(gold: str, expected: str) -> None:
    assert expected in _neighbours(gold)


def test_neighbours_differ_from_gold_parse_and_run(geo_db: Path) -> None:
    with sqlite3.connect(geo_db) as db:
        for gold in GOLDS:
            rendered = sqlglot.parse_one(gold, read="mysql").sql(dialect="sqlite")
            neighbours = _neighbours(gold)
            assert neighbours, gold
            assert len(set(neighbours)) == len(neighbours)
            for neighbour in neighbours:
                assert neighbour != rendered
                sqlglot.parse_one(neighbour, read="sqlite")
                db.execute(neighbour).fetchall()  # raises on invalid SQL


def test_double_quoted_strings_become_single_quoted_literals(geo_db: Path) -> None:
    neighbours = _neighbours(CITY_IN_TEXAS)
    assert not any('"' in query for query in neighbours)
    with sqlite3.connect(geo_db) as db:
        rows = db.execute(neighbours[0]).fetchall()  # the population predicate dropped
    assert sorted(rows) == [("austin",), ("houston",)]


def test_order_is_deterministic() -> None:
    assert _neighbours(LARGEST_CITY) == _neighbours(LARGEST_CITY)


def test_limit_keeps_the_first_neighbours_with_a_mix_of_edits() -> None:
    everything = _neighbours(CITY_IN_TEXAS)
    first = _neighbours(CITY_IN_TEXAS, limit=4)
    assert first == everything[:4]
    assert "WHERE CITYalias0.STATE_NAME = 'texas'" in first[0]  # drop-predicate first
    assert ">=" in first[1]  # then a comparison edit


def test_limit_zero_gives_none() -> None:
    assert _neighbours(CITY_IN_TEXAS, limit=0) == []


def test_negative_limit_is_rejected() -> None:
    with pytest.raises(ValueError, match="limit"):
        neighbour_queries(CITY_IN_TEXAS, limit=-1)


def test_without_columns_no_column_is_swapped() -> None:
    neighbours = neighbour_queries(CITY_IN_TEXAS)
    assert not any("country_name" in query or "state_name" in query.replace("STATE_NAME", "") for query in neighbours)
    assert len(neighbours) < len(_neighbours(CITY_IN_TEXAS))


def test_column_of_an_unknown_table_is_not_swapped() -> None:
    neighbours = neighbour_queries("SELECT LAKEalias0.LAKE_NAME FROM LAKE AS LAKEalias0 ;", columns=COLUMNS)
    assert neighbours == []


def test_join_keys_are_not_swapped() -> None:
    gold = (
        "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 , STATE AS STATEalias0 "
        "WHERE CITYalias0.STATE_NAME = STATEalias0.STATE_NAME ;"
    )
    neighbours = _neighbours(gold)
    assert any(query.startswith("SELECT CITYalias0.population") for query in neighbours)  # selected: swapped
    for query in neighbours:
        if "WHERE" in query:
            assert "WHERE CITYalias0.STATE_NAME" in query and "STATEalias0.STATE_NAME" in query


def test_count_of_a_constant_is_left_alone() -> None:
    gold = (
        "SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 GROUP BY STATEalias0.STATE_NAME "
        "HAVING COUNT( 1 ) > 2 ;"
    )
    neighbours = _neighbours(gold)
    assert not any("COUNT(2)" in query or "COUNT(0)" in query or "SUM(1)" in query for query in neighbours)
    assert any("COUNT(1) > 3" in query for query in neighbours)


def test_sql_sqlglot_cannot_parse_has_no_neighbours() -> None:
    assert neighbour_queries("SELECT FROM WHERE (((") == []


@pytest.mark.real_data
def test_real_geoquery_neighbours_run_on_the_original(real_data_dir: Path) -> None:
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.test_suites.schema import Schema

    benchmark = load_benchmark("geoquery", data_dir=real_data_dir)
    golds = sorted({example.gold for example in benchmark.examples})[::10]
    schema = Schema.from_sqlite(benchmark.database)
    columns = {table.name: [column.name for column in table.columns] for table in schema.tables}
    connection = sqlite3.connect(f"{benchmark.database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        failures = []
        for gold in golds:
            try:
                connection.execute(gold).fetchall()
            except sqlite3.Error:
                continue  # a broken gold query (README: 5 errors) has broken neighbours
            for neighbour in neighbour_queries(gold, columns=columns):
                try:
                    connection.execute(neighbour).fetchall()
                except sqlite3.Error as error:
                    failures.append((neighbour, str(error)))
    finally:
        connection.close()
    assert failures == []


def test_limit_of_a_compared_subquery_is_left_alone() -> None:
    gold = (
        "SELECT STATEalias0.STATE_NAME FROM STATE AS STATEalias0 WHERE STATEalias0.AREA = ( SELECT STATEalias1.AREA "
        "FROM STATE AS STATEalias1 ORDER BY STATEalias1.AREA DESC LIMIT 1 ) ;"
    )
    neighbours = _neighbours(gold)
    assert all("LIMIT 1)" in query for query in neighbours if "ORDER BY" in query)
    assert any("ORDER BY STATEalias1.AREA ASC LIMIT 1" in query for query in neighbours)
