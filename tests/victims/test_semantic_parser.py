"""SemanticParser: input handling, the per-input failure policy and the gold-loss contract."""

from __future__ import annotations

import logging
import pickle
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import SchemaError, VictimError
from textattack_semparse.victims.semantic_parser import SemanticParser


class LookupParser(SemanticParser):
    """A table-lookup victim; questions containing "crash" raise, like a buggy model would."""

    QUERIES = {
        "what is the capital of texas": 'SELECT capital FROM state WHERE state_name = "texas"',
        "how many states are there": "SELECT COUNT(*) FROM state",
    }

    def __init__(self, *, database: str | Path | None = None) -> None:
        super().__init__(database=database)
        self.seen_db_ids: list[str | None] = []

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        self.seen_db_ids.extend(db_ids)
        if any("crash" in question for question in questions):
            raise RuntimeError("the model crashed")
        return [self.QUERIES.get(question, "SELECT 1") for question in questions]


class BrokenParser(SemanticParser):
    def __init__(self, outputs: object) -> None:
        super().__init__()
        self.outputs = outputs

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        if isinstance(self.outputs, Exception):
            raise self.outputs
        return self.outputs  # type: ignore[return-value]


def test_maps_each_question_to_one_prediction_in_order() -> None:
    parser = LookupParser()
    questions = ["how many states are there", "what is the capital of texas"]
    assert parser(questions) == [LookupParser.QUERIES[q] for q in questions]


def test_empty_input_list_gives_empty_output() -> None:
    assert LookupParser()([]) == []


def test_tuple_inputs_pass_db_id_to_the_victim() -> None:
    parser = LookupParser()
    outputs = parser([("how many states are there", "geo"), ("what is the capital of texas",)])
    assert outputs == [
        LookupParser.QUERIES["how many states are there"],
        LookupParser.QUERIES["what is the capital of texas"],
    ]
    assert parser.seen_db_ids == ["geo", None]


def test_single_string_instead_of_list_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"wrap a single question as \[question\]"):
        LookupParser()("what is the capital of texas")


@pytest.mark.parametrize("bad_input", [42, None, (), (7, "geo"), ("what is the capital of texas", 3)])
def test_malformed_input_item_is_a_type_error(bad_input: object) -> None:
    with pytest.raises(TypeError):
        LookupParser()([bad_input])  # type: ignore[list-item]


def test_failing_input_gets_empty_prediction_and_others_survive(caplog: pytest.LogCaptureFixture) -> None:
    parser = LookupParser()
    with caplog.at_level(logging.WARNING, logger="textattack_semparse.victims.semantic_parser"):
        outputs = parser(["what is the capital of texas", "crash the parser", "how many states are there"])
    assert outputs == [
        LookupParser.QUERIES["what is the capital of texas"],
        "",
        LookupParser.QUERIES["how many states are there"],
    ]
    assert "crash the parser" in caplog.text and "RuntimeError" in caplog.text


def test_victim_error_is_raised_not_isolated() -> None:
    with pytest.raises(VictimError, match="weights missing"):
        BrokenParser(VictimError("weights missing"))(["a", "b"])


def test_wrong_number_of_predictions_is_a_victim_error() -> None:
    with pytest.raises(
        VictimError, match="BrokenParser._parse_batch returned list of length 1 for 2 inputs"
    ):
        BrokenParser(["SELECT 1"])(["a", "b"])


def test_non_string_prediction_is_a_victim_error() -> None:
    with pytest.raises(VictimError, match="every prediction must be a str"):
        BrokenParser([None])(["a"])


def test_gold_loss_unsupported_names_the_victim_class() -> None:
    parser = LookupParser()
    assert parser.supports_loss is False
    with pytest.raises(VictimError, match="LookupParser cannot compute a loss"):
        parser.gold_loss(["how many states are there"], ["SELECT COUNT(*) FROM state"])


def test_model_is_the_victim_itself_for_non_neural_victims() -> None:
    parser = LookupParser()
    assert parser.model is parser


def test_database_is_stored_as_path_and_shown_in_repr() -> None:
    database = load_benchmark("geo-mini").database
    parser = LookupParser(database=str(database))
    assert parser.database == database and isinstance(parser.database, Path)
    assert str(database) in repr(parser)


def test_missing_database_is_a_schema_error(tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match="does not exist"):
        LookupParser(database=tmp_path / "nowhere.sqlite")


def test_database_of_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="database must be a path"):
        LookupParser(database=3)  # type: ignore[arg-type]


def test_pickle_round_trip_keeps_behaviour() -> None:
    parser = pickle.loads(pickle.dumps(LookupParser()))
    assert parser(["how many states are there"]) == [LookupParser.QUERIES["how many states are there"]]
