"""Predicting in batches and scoring predictions against golds (execution or exact match)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.errors import SchemaError
from textattack_semparse.metrics.prediction_scoring import (
    predict,
    score_predictions,
    scoring_method,
    victim_input,
)

GOLD = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "texas" ;'


class CountingParser:
    """A parser that upper-cases questions and records each batch it is called with."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def __call__(self, batch: list[str]) -> list[str]:
        self.batches.append(list(batch))
        return [text.upper() for text in batch]


def test_predict_keeps_order_and_parses_each_distinct_input_once():
    parser = CountingParser()
    assert predict(parser, ["b", "a", "b", "c"], batch_size=2) == ["B", "A", "B", "C"]
    assert parser.batches == [["b", "a"], ["c"]]


def test_predict_rejects_a_zero_batch_size():
    with pytest.raises(ValueError, match="batch_size"):
        predict(CountingParser(), ["a"], batch_size=0)


def test_victim_input_adds_db_id_only_when_present():
    assert victim_input("q", None) == "q"
    assert victim_input("q", "db") == ("q", "db")


def test_execution_match_accepts_an_equivalent_query_on_geo_mini():
    _, database = geo_mini_paths()
    equivalent = "SELECT capital FROM state WHERE state_name = 'texas'"
    wrong = "SELECT capital FROM state WHERE state_name = 'ohio'"
    assert score_predictions([equivalent, wrong, "not sql"], [GOLD] * 3, database=database) == [True, False, False]


def test_gold_that_fails_to_execute_scores_none():
    _, database = geo_mini_paths()
    assert score_predictions([GOLD], ["SELECT nothing FROM nowhere"], database=database) == [None]


def test_without_database_outputs_are_compared_as_normalised_tokens():
    assert scoring_method(None) == "exact"
    assert score_predictions(["( A (b ))", "(a c)"], ["(a (b))", "(a b)"]) == [True, False]


def test_directory_of_databases_is_indexed_by_db_id(tmp_path: Path):
    for db_id, rows in (("one", [(1,)]), ("two", [(2,)])):
        (tmp_path / db_id).mkdir()
        with sqlite3.connect(tmp_path / db_id / f"{db_id}.sqlite") as connection:
            connection.execute("CREATE TABLE t (x INT)")
            connection.executemany("INSERT INTO t VALUES (?)", rows)
    scores = score_predictions(
        ["SELECT 1", "SELECT 1"], ["SELECT x FROM t", "SELECT x FROM t"], database=tmp_path, db_ids=["one", "two"]
    )
    assert scores == [True, False]
    with pytest.raises(SchemaError, match="no db_id"):
        score_predictions(["SELECT 1"], ["SELECT x FROM t"], database=tmp_path)
    with pytest.raises(SchemaError, match="'three'"):
        score_predictions(["SELECT 1"], ["SELECT x FROM t"], database=tmp_path, db_ids=["three"])


def test_one_gold_per_prediction_is_required():
    with pytest.raises(ValueError, match="one gold"):
        score_predictions(["a", "b"], ["a"])
