"""Predicting in batches and judging predictions against golds (execution or exact match)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.errors import SchemaError
from textattack_semparse.metrics.prediction_scoring import judge_predictions, predict, victim_input
from textattack_semparse.scoring import Databases, ExactMatchScorer, ExecutionScorer, Outcome, Scoring
from textattack_semparse.victims.prediction import Prediction

GOLD = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "texas" ;'
C, W, G, V = Outcome.CORRECT, Outcome.WRONG, Outcome.GOLD_ERROR, Outcome.VICTIM_ERROR


class CountingParser:
    """A parser that upper-cases questions and records each batch it is called with."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def __call__(self, batch: list[str]) -> list[str]:
        self.batches.append(list(batch))
        return [text.upper() for text in batch]


@pytest.fixture(scope="module")
def geo_scoring() -> Scoring:
    return Scoring(ExecutionScorer(), Databases.at(geo_mini_paths()[1]))


def test_predict_keeps_order_and_parses_each_distinct_input_once():
    parser = CountingParser()
    assert predict(parser, ["b", "a", "b", "c"], batch_size=2) == ["B", "A", "B", "C"]
    assert parser.batches == [["b", "a"], ["c"]]


def test_predict_rejects_a_zero_batch_size():
    with pytest.raises(ValueError, match="batch_size"):
        predict(CountingParser(), ["a"], batch_size=0)


def test_predict_keeps_the_victims_prediction_objects():
    failure = Prediction.failure(ValueError("no template"))
    outputs = predict(lambda batch: [failure if q == "bad" else Prediction(q) for q in batch], ["ok", "bad", "ok"])
    assert outputs[1] is failure and outputs[1].error == "ValueError: no template"


def test_victim_input_adds_db_id_only_when_present():
    assert victim_input("q", None) == "q"
    assert victim_input("q", "db") == ("q", "db")


def test_execution_match_accepts_an_equivalent_query_on_geo_mini(geo_scoring):
    equivalent = "SELECT capital FROM state WHERE state_name = 'texas'"
    wrong = "SELECT capital FROM state WHERE state_name = 'ohio'"
    assert judge_predictions(geo_scoring, [equivalent, wrong, "not sql"], [GOLD] * 3) == [C, W, W]


def test_gold_that_fails_to_execute_is_a_gold_error(geo_scoring):
    assert judge_predictions(geo_scoring, [GOLD], ["SELECT nothing FROM nowhere"]) == [G]


def test_failed_victim_input_is_a_victim_error_not_a_wrong_answer(geo_scoring):
    failed = Prediction.failure(RuntimeError("out of memory"))
    assert str(failed) == ""
    assert judge_predictions(geo_scoring, [failed, Prediction(""), GOLD], [GOLD] * 3) == [V, W, C]


def test_without_database_outputs_are_compared_as_normalised_tokens():
    assert judge_predictions(Scoring(ExactMatchScorer()), ["( A (b ))", "(a c)"], ["(a (b))", "(a b)"]) == [C, W]


def test_directory_of_databases_is_indexed_by_db_id(tmp_path: Path):
    for db_id, rows in (("one", [(1,)]), ("two", [(2,)])):
        (tmp_path / db_id).mkdir()
        with sqlite3.connect(tmp_path / db_id / f"{db_id}.sqlite") as connection:
            connection.execute("CREATE TABLE t (x INT)")
            connection.executemany("INSERT INTO t VALUES (?)", rows)
        connection.close()
    scoring = Scoring(ExecutionScorer(), Databases.at(tmp_path))
    outcomes = judge_predictions(scoring, ["SELECT 1", "SELECT 1"], ["SELECT x FROM t"] * 2, ["one", "two"])
    assert outcomes == [C, W]
    with pytest.raises(SchemaError, match="the example has none"):
        judge_predictions(scoring, ["SELECT 1"], ["SELECT x FROM t"])
    with pytest.raises(SchemaError, match="'three'"):
        judge_predictions(scoring, ["SELECT 1"], ["SELECT x FROM t"], ["three"])


def test_one_gold_per_prediction_is_required():
    with pytest.raises(ValueError, match="one gold"):
        judge_predictions(Scoring(ExactMatchScorer()), ["a", "b"], ["a"])


def test_one_db_id_per_prediction_is_required():
    with pytest.raises(ValueError, match=r"one gold \(and db_id\).*1 db_ids"):
        judge_predictions(Scoring(ExactMatchScorer()), ["a", "b"], ["a", "b"], ["db"])
