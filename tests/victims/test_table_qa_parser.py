"""TableQAParser: (question, table_json) inputs, answers in WTQ's targetValue format, failure
isolation, and how Table QA victims are named (registered names and local model directories)."""

from __future__ import annotations

import json

import pytest

from textattack_semparse.registry import get_registry
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.tables.table import Table
from textattack_semparse.victims.lexical_table_parser import LexicalTableParser
from textattack_semparse.victims.prediction import Prediction
from textattack_semparse.victims.resolution import is_plugin_victim, resolve_victim
from textattack_semparse.victims.table_qa_parser import TableQAParser, pretrained_table_qa_class
from textattack_semparse.victims.tapas_parser import TapasParser
from textattack_semparse.victims.tapex_parser import TapexParser

TABLE = Table(["Name", "Team", "Goals"], [["Ann | Lee", "Reds", "3"], ["Bo Kim", "Blues", "5"]], name="t.csv")


class _ColumnReader(TableQAParser):
    """Answers with the whole column the question names by its header (a test double of a victim,
    not of the base under test)."""

    def _answer_batch(self, questions, tables):
        return [list(table.column(table.header.index(question))) for question, table in zip(questions, tables)]


def test_answers_are_values_in_wtq_target_value_format_one_per_input_in_order():
    parser = _ColumnReader()
    outputs = parser([("Name", TABLE.to_json()), ("Goals", TABLE.to_json())])
    assert outputs == ["Ann \\p Lee|Bo Kim", "3|5"]  # "|" inside a value escaped as WTQ's \p
    assert parse_answer(outputs[0]) == ["Ann | Lee", "Bo Kim"]


def test_a_question_without_its_table_is_a_type_error_naming_the_fix():
    with pytest.raises(TypeError, match=r"\(question, Table.to_json\(\)\)"):
        LexicalTableParser()(["which team scored 5 goals?"])


def test_a_failing_input_is_a_victim_error_and_the_others_are_answered():
    parser = _ColumnReader(max_failure_rate=1.0)
    outputs = parser([("Team", TABLE.to_json()), ("Team", "not json"), ("Nope", TABLE.to_json())])
    assert outputs[0] == "Reds|Blues"
    assert [isinstance(output, Prediction) and output.error is not None for output in outputs] == [False, True, True]
    assert "Table.to_json()" in outputs[1].error  # the TableError message says what a table column holds


def test_model_directories_are_recognised_by_their_tapas_or_tapex_files(tmp_path):
    tapas, tapex, bart = tmp_path / "tapas", tmp_path / "tapex", tmp_path / "bart"
    for directory in (tapas, tapex, bart):
        directory.mkdir()
    (tapas / "config.json").write_text(json.dumps({"architectures": ["TapasForQuestionAnswering"]}))
    (tapex / "config.json").write_text(json.dumps({"architectures": ["BartForConditionalGeneration"]}))
    (tapex / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "TapexTokenizer"}))
    (bart / "config.json").write_text(json.dumps({"architectures": ["BartForConditionalGeneration"]}))
    assert pretrained_table_qa_class(tapas) is TapasParser
    assert pretrained_table_qa_class(tapex) is TapexParser
    assert pretrained_table_qa_class(bart) is None  # a plain seq2seq model stays a Seq2SeqParser


def test_a_local_tapex_directory_resolves_to_tapex_not_seq2seq(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["BartForConditionalGeneration"]}))
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "TapexTokenizer"}))
    assert is_plugin_victim(str(tmp_path))
    victim, dataset = resolve_victim(str(tmp_path))
    assert type(victim) is TapexParser and victim.model_name_or_path == str(tmp_path) and dataset is None


@pytest.mark.parametrize(
    ("name", "cls", "model"),
    [
        ("table-lexical", LexicalTableParser, None),
        ("tapas-wtq", TapasParser, "google/tapas-base-finetuned-wtq"),
        ("tapex-wtq", TapexParser, "microsoft/tapex-large-finetuned-wtq"),
        ("omnitab-wtq", TapexParser, "neulab/omnitab-large-finetuned-wtq"),
    ],
)
def test_registered_table_qa_victims_resolve_bound_to_wtq_and_evaluated_on_wtq_dev(real_data_dir, name, cls, model):
    entry = get_registry().get("victim", name)
    assert entry.dataset == "wtq-dev" and ("dataset", "wtq-dev") in get_registry()
    victim = entry.create(data_dir=real_data_dir)  # loads the benchmark, never the model
    assert type(victim) is cls and victim.benchmark.name == "wtq"
    assert getattr(victim, "model_name_or_path", None) == model


def test_table_lexical_resolves_through_the_stock_cli_path(real_data_dir, monkeypatch):
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    assert is_plugin_victim("table-lexical")
    victim, dataset = resolve_victim("table-lexical")
    assert isinstance(victim, LexicalTableParser) and dataset == "wtq-dev"
