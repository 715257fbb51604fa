"""Witnesses of gold queries (Zhong et al. 2020): which rows a query needs to return something."""

from __future__ import annotations

import random

import sqlglot

from textattack_semparse.test_suites.query_analysis import (
    ClassConstraints,
    Witness,
    analyse_witness,
    is_constrained,
)
from textattack_semparse.test_suites.schema import Column, Schema, Table

GEO = Schema(
    (
        Table("state", (Column("state_name", "text", True), Column("area", "double"), Column("capital", "text"))),
        Table("city", (Column("city_name", "text"), Column("population", "int"), Column("state_name", "text"))),
    )
)
STATE_NAME, AREA, CAPITAL = 0, 1, 2
CITY_NAME, POPULATION, CITY_STATE = 0, 1, 2


def _witness(sql: str, seed: int = 0, **options) -> Witness:
    return analyse_witness(GEO, random.Random(seed), sqlglot.parse_one(sql, read="mysql"), **options)


def test_a_join_puts_both_columns_in_one_class_and_literals_on_theirs():
    witness = _witness(
        'SELECT c.city_name FROM city AS c, state AS s WHERE c.state_name = s.state_name AND s.area > 1000 '
        'AND c.city_name = "austin"'
    )
    assert [table.name for table in witness.tables] == ["city", "state"]
    assert witness.find((0, CITY_STATE)) == witness.find((1, STATE_NAME))
    assert witness.constraint((1, AREA)).lower == (1000, True)
    assert witness.constraint((0, CITY_NAME)).literals == ["austin"]


def test_between_like_and_negative_literals():
    witness = _witness("SELECT 1 FROM city WHERE population BETWEEN -5 AND 10 AND city_name LIKE 'san%'")
    assert witness.constraint((0, POPULATION)).lower == (-5, False)
    assert witness.constraint((0, POPULATION)).upper == (10, False)
    assert witness.constraint((0, CITY_NAME)).like == "san%"


def test_max_subquery_ties_the_column_and_a_filtered_one_is_marked():
    plain = _witness("SELECT state_name FROM state WHERE area = (SELECT MAX(area) FROM state)")
    assert [table.name for table in plain.tables] == ["state", "state"]
    assert plain.find((0, AREA)) == plain.find((1, AREA))
    assert plain.constraint((0, AREA)).extreme == "max"
    assert not plain.constraint((0, AREA)).filtered
    filtered = _witness("SELECT state_name FROM state WHERE area = (SELECT MAX(area) FROM state WHERE area < 5000)")
    assert filtered.constraint((0, AREA)).filtered


def test_greater_than_a_subquery_column_passes_its_maximum():
    witness = _witness("SELECT city_name FROM city WHERE population > (SELECT population FROM city WHERE city_name = 'austin')")
    assert witness.constraint((0, POPULATION)).extreme == "max"
    assert witness.constraint((1, POPULATION)).extreme == "submax"


def test_or_takes_one_branch_unless_every_branch_is_asked():
    sql = "SELECT 1 FROM state WHERE state_name = 'ohio' OR state_name = 'utah'"
    chosen = {tuple(_witness(sql, seed).constraint((0, STATE_NAME)).literals) for seed in range(20)}
    assert chosen == {("ohio",), ("utah",)}
    assert _witness(sql, every_branch=True).constraint((0, STATE_NAME)).literals == ["ohio", "utah"]


def test_in_lists_take_the_variant_value_or_every_value():
    sql = "SELECT 1 FROM state WHERE state_name IN ('ohio', 'utah', 'iowa')"
    assert [_witness(sql, variant=copy).constraint((0, STATE_NAME)).literals for copy in range(4)] == [
        ["ohio"], ["utah"], ["iowa"], ["ohio"]
    ]
    assert _witness(sql, every_branch=True).constraint((0, STATE_NAME)).literals == ["ohio", "utah", "iowa"]


def test_having_count_asks_for_enough_rows_per_group_capped_at_twelve():
    base = "SELECT state_name FROM city GROUP BY state_name HAVING COUNT(*) "
    assert _witness(base + "> 4").groups == [([(0, CITY_STATE)], 5)]
    assert _witness(base + ">= 3").groups == [([(0, CITY_STATE)], 3)]
    assert _witness(base + "> 100").groups == [([(0, CITY_STATE)], 12)]
    assert _witness(base + "> 0").groups == []  # one row is enough: no group constraint


def test_unknown_tables_and_negations_add_nothing():
    assert _witness("SELECT 1 FROM lake WHERE area > 5").tables == []
    witness = _witness("SELECT 1 FROM state WHERE NOT state_name = 'ohio' AND capital <> 'x'")
    assert witness.constraints == {}


def test_union_merges_the_constraints_of_both_classes():
    witness = Witness()
    witness.constraint((0, 0)).literals.append("ohio")
    witness.constraint((1, 0)).upper = (5, True)
    witness.union((0, 0), (1, 0))
    assert witness.constraint((1, 0)) == ClassConstraints(literals=["ohio"], upper=(5, True))


def test_is_constrained():
    assert not is_constrained(None)
    assert not is_constrained(ClassConstraints())
    assert not is_constrained(ClassConstraints(filtered=True))
    assert is_constrained(ClassConstraints(literals=[1]))
    assert is_constrained(ClassConstraints(extreme="min"))
