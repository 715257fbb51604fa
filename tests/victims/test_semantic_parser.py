"""SemanticParser: input handling, the per-input failure policy and the gold-loss contract."""

from __future__ import annotations

import logging
import os
import pickle
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import SchemaError, VictimError
from textattack_semparse.victims.prediction import Prediction
from textattack_semparse.victims.semantic_parser import MIN_INPUTS_BEFORE_STOP, SemanticParser


class LookupParser(SemanticParser):
    """A table-lookup victim; questions containing "crash" raise, like a buggy model would."""

    QUERIES = {
        "what is the capital of texas": 'SELECT capital FROM state WHERE state_name = "texas"',
        "how many states are there": "SELECT COUNT(*) FROM state",
    }

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
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


def test_failing_input_gets_a_victim_error_and_others_survive(caplog: pytest.LogCaptureFixture) -> None:
    parser = LookupParser()
    with caplog.at_level(logging.WARNING, logger="textattack_semparse.victims.semantic_parser"):
        outputs = parser(["what is the capital of texas", "crash the parser", "how many states are there"])
    assert outputs == [
        LookupParser.QUERIES["what is the capital of texas"],
        "",
        LookupParser.QUERIES["how many states are there"],
    ]
    # The empty text is no answer: it carries why the victim produced none.
    assert isinstance(outputs[1], Prediction) and outputs[1].error == "RuntimeError: the model crashed"
    assert getattr(outputs[0], "error", None) is None and getattr(outputs[2], "error", None) is None
    assert "crash the parser" in caplog.text and "RuntimeError" in caplog.text
    assert (parser.inputs_parsed, parser.inputs_failed) == (3, 1)


def test_a_victim_failing_on_too_many_inputs_stops_the_run() -> None:
    parser = LookupParser()
    for index in range(MIN_INPUTS_BEFORE_STOP - 1):
        assert parser([f"crash {index}"])[0].error is not None  # too few inputs to judge the victim yet
    with pytest.raises(
        VictimError,
        match=rf"LookupParser failed on {MIN_INPUTS_BEFORE_STOP} of {MIN_INPUTS_BEFORE_STOP} inputs \(100%\), more "
        r"than max_failure_rate=0\.1; last error: RuntimeError: the model crashed\. Fix the victim, or raise max_failure_rate\.",
    ):
        parser(["crash once more"])


def test_failures_up_to_max_failure_rate_do_not_stop_the_run() -> None:
    parser = LookupParser(max_failure_rate=0.5)
    for index in range(2 * MIN_INPUTS_BEFORE_STOP):
        parser(["crash" if index % 2 else "how many states are there"])
    assert (parser.inputs_parsed, parser.inputs_failed) == (2 * MIN_INPUTS_BEFORE_STOP, MIN_INPUTS_BEFORE_STOP)


def test_an_early_failure_does_not_stop_the_run() -> None:
    parser = LookupParser(max_failure_rate=0.0)
    assert parser(["crash first"])[0].error is not None
    assert parser(["how many states are there"] * 3) == [LookupParser.QUERIES["how many states are there"]] * 3


def test_no_failure_allowed_stops_at_the_first_failure_after_the_minimum() -> None:
    parser = LookupParser(max_failure_rate=0.0)
    parser(["how many states are there"] * MIN_INPUTS_BEFORE_STOP)
    with pytest.raises(VictimError, match="failed on 1 of 21 inputs"):
        parser(["crash"])


@pytest.mark.parametrize("rate", [-0.1, 1.5, True, "0.1", None])
def test_max_failure_rate_must_be_a_share(rate: object) -> None:
    with pytest.raises(ValueError, match="max_failure_rate must be a share between 0 and 1"):
        LookupParser(max_failure_rate=rate)


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


def test_benchmark_binds_its_database() -> None:
    geo = load_benchmark("geo-mini")
    parser = LookupParser(benchmark=geo)
    assert parser.benchmark is geo and parser.database == geo.database
    assert "Benchmark('geo-mini'" in repr(parser) and "max_failure_rate" in repr(parser)


def test_explicit_database_wins_over_the_benchmarks(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    other.write_bytes(load_benchmark("geo-mini").database.read_bytes())
    parser = LookupParser(benchmark=load_benchmark("geo-mini"), database=other)
    assert parser.database == other and parser.benchmark.name == "geo-mini"


def test_missing_database_is_a_schema_error(tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match="does not exist"):
        LookupParser(database=tmp_path / "nowhere.sqlite")


def test_database_of_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="database must be a path"):
        LookupParser(database=3)  # type: ignore[arg-type]


def test_pickle_round_trip_keeps_behaviour() -> None:
    parser = pickle.loads(pickle.dumps(LookupParser(benchmark=load_benchmark("geo-mini"), max_failure_rate=0.3)))
    assert parser(["how many states are there"]) == [LookupParser.QUERIES["how many states are there"]]
    assert parser.max_failure_rate == 0.3 and parser.benchmark == load_benchmark("geo-mini")
    assert parser(["crash"])[0].error == "RuntimeError: the model crashed"


def test_every_victim_is_a_textattack_model_wrapper() -> None:
    from textattack.models.wrappers import ModelWrapper

    assert isinstance(LookupParser(), ModelWrapper) and issubclass(SemanticParser, ModelWrapper)


@pytest.mark.parametrize("first", ["textattack", "the victim"])
def test_a_fresh_interpreter_registers_the_victims_as_model_wrappers_in_either_import_order(first: str) -> None:
    import subprocess
    import sys

    imports = ["import textattack", "from textattack_semparse.victims.semantic_parser import SemanticParser"]
    if first == "the victim":
        imports.reverse()
    code = "\n".join(
        [
            *imports,
            "from textattack.models.wrappers import ModelWrapper",
            "print(issubclass(SemanticParser, ModelWrapper))",
        ]
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "True"


def test_a_victim_and_its_benchmark_split_load_without_textattack_or_torch() -> None:
    import subprocess
    import sys

    # What `textattack-semparse evaluate --model knn-geo` loads before it parses: a few seconds less.
    code = (
        "import sys\n"
        "from textattack_semparse.victims.resolution import dataset_rows, resolve_victim\n"
        "victim, dataset = resolve_victim('knn-geo')\n"
        "rows, benchmark = dataset_rows(dataset)\n"
        "print(len(victim([rows[0][0]['question']])), benchmark.name, len(rows))\n"
        "print(sorted(name for name in ('textattack', 'torch', 'transformers') if name in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env={**os.environ, "SEMPARSE_DATA_DIR": ""}
    )
    assert result.returncode == 0, result.stderr[-2000:]
    parsed, imported = result.stdout.splitlines()
    assert parsed.split()[:2] == ["1", "geo-mini"] and int(parsed.split()[2]) > 0
    assert imported == "[]"
