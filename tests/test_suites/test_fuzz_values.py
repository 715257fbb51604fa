"""Cell values of fuzz databases (Zhong et al. 2020): typed, fresh for keys, planted gold literals."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest
import sqlglot

from textattack_semparse.test_suites.fuzz_values import (
    ValueSampler,
    coerce_to_affinity,
    like_match,
    planted_literals,
)
from textattack_semparse.test_suites.query_analysis import ClassConstraints
from textattack_semparse.test_suites.schema import Column, Schema, Table

PAPER = Table(
    "paper",
    (Column("paperid", "INT(11)", True), Column("title", "VARCHAR(4)"), Column("year", "INT"), Column("score", "double")),
)
WRITES = Table("writes", (Column("paperid", "text"), Column("authorid", "INT")))


def _sampler(
    seed: int = 0,
    *,
    original: dict[tuple[str, int], list[Any]] | None = None,
    planted: dict[tuple[str, int], list[Any]] | None = None,
    counts: dict[tuple[str, int], dict[Any, int]] | None = None,
) -> ValueSampler:
    return ValueSampler(
        random.Random(seed), original_values=original or {}, planted=planted or {}, rows_per_table=20, counts=counts or {}
    )


@pytest.mark.parametrize(
    ("value", "affinity", "stored"),
    [
        ("12", "INTEGER", 12),
        (" 2.5 ", "NUMERIC", 2.5),
        (3.0, "INTEGER", 3),
        (3, "REAL", 3.0),
        ("abc", "INTEGER", "abc"),
        (7, "TEXT", "7"),
        (True, "INTEGER", True),
        (None, "TEXT", None),
        (b"\x00", "BLOB", b"\x00"),
    ],
)
def test_coerce_to_affinity_stores_values_as_sqlite_does(value, affinity, stored):
    result = coerce_to_affinity(value, affinity)
    assert result == stored and type(result) is type(stored)
    with sqlite3.connect(":memory:") as db:  # SQLite agrees
        db.execute(f"CREATE TABLE t (c {dict(INTEGER='INT', NUMERIC='NUMERIC', REAL='REAL', TEXT='TEXT', BLOB='')[affinity]})")
        db.execute("INSERT INTO t VALUES (?)", (value,))
        if not isinstance(value, bool):
            assert db.execute("SELECT c FROM t").fetchone()[0] == stored


@pytest.mark.parametrize("pattern", ["%semantic parsing%", "a_c%", "%", "exact", "_%_"])
def test_like_matches_are_accepted_by_sqlite_like(pattern):
    sampler = _sampler(3)
    texts = [like_match(pattern)] + [sampler.matching(pattern) for _ in range(20)]
    with sqlite3.connect(":memory:") as db:
        assert all(db.execute("SELECT ? LIKE ?", (text, pattern)).fetchone()[0] == 1 for text in texts)


def test_planted_literals_cover_branches_bound_neighbours_and_join_partners():
    schema = Schema((PAPER, WRITES))
    trees = [
        sqlglot.parse_one(sql, read="mysql")
        for sql in (
            "SELECT 1 FROM paper AS p, writes AS w WHERE p.paperid = w.paperid AND (p.paperid = '7' OR p.year > 2010)",
            'SELECT 1 FROM paper WHERE title LIKE "%se_p%" AND year > 2010',
        )
    ]
    planted = planted_literals(schema, trees)
    assert planted[("paper", 0)] == [7]  # the literal, coerced to the INT column
    assert planted[("writes", 0)] == ["7"]  # its join partner is a text column
    assert planted[("paper", 2)] == [2010, 2011, 2009]  # no repeats across queries
    assert planted[("paper", 1)] == ["seap"]


def test_fresh_values_are_new_to_the_column_even_when_samples_are_used_up():
    counts = {("paper", 0): {1: 1, 2: 1, 3: 1}}
    sampler = _sampler(original={("paper", 0): [1, 2, 3]}, counts=counts)
    for _ in range(30):
        value = sampler.fresh(PAPER, 0)
        assert isinstance(value, int) and value not in counts[("paper", 0)]
        counts[("paper", 0)][value] = 1


def test_existing_picks_a_held_value_and_none_from_an_empty_column():
    sampler = _sampler(counts={("paper", 0): {None: 2, 4: 1, 9: 3}})
    assert {sampler.existing(("paper", 0)) for _ in range(30)} == {4, 9}
    assert sampler.existing(("paper", 1)) is None


def test_random_values_follow_the_type_and_the_original_range():
    sampler = _sampler(original={("paper", 3): [1.5, 2.5]})
    assert all(1990 <= sampler.random_value(PAPER, 2) <= 2025 for _ in range(50))  # a year column
    assert all(1.5 <= sampler.random_value(PAPER, 3) <= 2.5 for _ in range(50))
    titles = [sampler.random_value(PAPER, 1) for _ in range(50)]
    assert all(isinstance(t, str) and 3 <= len(t) <= 4 for t in titles)  # VARCHAR(4)


def test_samples_are_planted_original_or_random_values():
    sampler = _sampler(original={("paper", 1): ["orig"]}, planted={("paper", 1): ["gold"]})
    drawn = [sampler.sample(PAPER, 1) for _ in range(400)]
    assert {"gold", "orig"} <= set(drawn)
    assert drawn.count("gold") < drawn.count("orig")


@pytest.mark.parametrize(
    ("lower", "upper", "check"),
    [
        ((5, True), (8, True), lambda v: v in (6, 7)),
        ((5, False), None, lambda v: isinstance(v, int) and 5 <= v <= 16),
        (None, (2.5, True), lambda v: v < 2.5),
        ((1.0, True), (1.5, True), lambda v: 1.0 < v < 1.5),
        (("m", True), None, lambda v: v > "m"),
        (None, ("m", True), lambda v: v < "m"),
    ],
)
def test_bounded_values_fall_inside_the_bounds(lower, upper, check):
    sampler = _sampler(5)
    assert all(check(sampler.bounded(ClassConstraints(lower=lower, upper=upper))) for _ in range(30))


def test_same_seed_gives_the_same_draws():
    def draws(seed: int) -> list[Any]:
        sampler = _sampler(seed, original={("paper", 1): ["a", "b", "c"]})
        return [sampler.sample(PAPER, column) for column in range(4) for _ in range(5)]

    assert draws(1) == draws(1)
    assert draws(1) != draws(2)


def test_bounded_needs_a_bound():
    with pytest.raises(ValueError, match="needs a constraint with a lower or an upper bound"):
        _sampler().bounded(ClassConstraints())
