"""TapasParser on tiny random TAPAS models built here (no download): one answer per input in order,
batching changes nothing, cell selection answers cells, aggregation as TAPAS's WTQ evaluation,
device and precision choice."""

from __future__ import annotations

import pickle

import pytest
import torch
import transformers

from tests.helpers import TINY_TABLES as TABLES
from textattack_semparse.errors import VictimError
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.tables.table import Table
from textattack_semparse.victims.tapas_parser import AGGREGATIONS, TapasParser, aggregate

WORDS = "which who what how many team year city won most total oslo rome paris 2001 2004 2008 gold 3 5 7 is the in".split()
INPUTS = [
    ("which city won in 2004", TABLES[0].to_json()),
    ("how many gold", TABLES[1].to_json()),
    ("total gold", TABLES[0].to_json()),
    ("who won the most gold", TABLES[1].to_json()),
    ("what is the year of rome", TABLES[0].to_json()),
]


def _save_tiny_tapas(directory, *, aggregation: bool):
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[EMPTY]"]
    directory.mkdir()
    (directory / "vocab.txt").write_text("\n".join(special + WORDS) + "\n")
    tokenizer = transformers.TapasTokenizer(str(directory / "vocab.txt"), model_max_length=128)
    config = transformers.TapasConfig(
        vocab_size=len(special) + len(WORDS),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=128,
        num_aggregation_labels=len(AGGREGATIONS) if aggregation else 0,
        aggregation_labels=dict(enumerate(AGGREGATIONS)) if aggregation else None,
        use_answer_as_supervision=aggregation,
    )
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = transformers.TapasForQuestionAnswering(config)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


@pytest.fixture(scope="module")
def wtq_tapas(tmp_path_factory):
    return _save_tiny_tapas(tmp_path_factory.mktemp("tapas") / "wtq", aggregation=True)


@pytest.fixture(scope="module")
def cells_only_tapas(tmp_path_factory):
    return _save_tiny_tapas(tmp_path_factory.mktemp("tapas") / "sqa", aggregation=False)


def test_one_answer_per_input_in_order_and_batching_changes_nothing(wtq_tapas):
    parser = TapasParser(wtq_tapas, device="cpu", batch_size=3, max_length=128)
    batched = parser(INPUTS)
    one_at_a_time = TapasParser(wtq_tapas, device="cpu", batch_size=1, max_length=128)
    assert len(batched) == len(INPUTS) and parser.inputs_failed == 0 and len(set(batched)) > 1
    assert batched == [one_at_a_time([item])[0] for item in INPUTS]


def test_answers_are_cells_or_the_aggregate_of_cells(wtq_tapas):
    parser = TapasParser(wtq_tapas, device="cpu", max_length=128, cell_classification_threshold=0.0)
    outputs = parser(INPUTS)
    assert parser.inputs_failed == 0
    for (question, table_json), output in zip(INPUTS, outputs):
        table = Table.from_json(table_json)
        values = parse_answer(output)
        # threshold 0 selects every cell; the aggregate is then computable from the whole table
        cells = [cell for row in table.rows for cell in row]
        possible = [cells, *(aggregate(cells, operator) for operator in AGGREGATIONS[1:])]
        assert values in possible, (question, values)


def test_without_an_aggregation_head_every_answer_is_cells_of_its_table(cells_only_tapas):
    parser = TapasParser(cells_only_tapas, device="cpu", max_length=128, cell_classification_threshold=0.5)
    outputs = parser(INPUTS)
    assert parser.inputs_failed == 0 and any(outputs)
    for (_, table_json), output in zip(INPUTS, outputs):
        assert set(parse_answer(output)) <= Table.from_json(table_json).cells()


def test_a_table_without_rows_gets_an_empty_answer(cells_only_tapas):
    empty = Table(["City", "Year"], [])
    parser = TapasParser(cells_only_tapas, device="cpu", max_length=128)
    assert parser([("which city", empty.to_json())]) == [""] and parser.inputs_failed == 0


def test_aggregation_follows_tapas_wtq_evaluation():
    # TAPAS (Herzig et al. 2020, §3): "the answer is ... the result of applying the aggregation operator
    # (COUNT, SUM, AVERAGE) to the selected cells", NONE being the cells themselves.
    cells = ["3", "1,200", "4.5 km", "n/a"]
    numbers = [3.0, 1200.0, 4.5]  # cells without a number are skipped
    assert aggregate(cells, "NONE") == cells
    assert aggregate(cells, "COUNT") == [str(len(cells))]
    assert aggregate(cells, "SUM") == [str(sum(numbers))]
    assert aggregate(cells, "AVERAGE") == [str(sum(numbers) / len(numbers))]
    assert aggregate(["n/a"], "SUM") == []


def test_the_model_loads_on_first_use_and_is_not_pickled(wtq_tapas):
    parser = TapasParser(wtq_tapas, device="cpu", max_length=128)
    assert "_model" not in parser.__dict__
    parser(INPUTS[:1])
    copy = pickle.loads(pickle.dumps(parser))
    assert "_model" not in copy.__dict__ and copy(INPUTS[:1]) == parser(INPUTS[:1])


def test_a_missing_model_is_a_victim_error_naming_the_fix(tmp_path):
    with pytest.raises(VictimError, match="there is no such local directory. Pass the directory save_pretrained wrote"):
        TapasParser(tmp_path / "missing", device="cpu")(INPUTS[:1])


def test_device_is_cpu_here_and_cuda_float32_by_default_when_cuda_is_present(monkeypatch):
    parser = TapasParser(device=None)
    assert parser.device == ("cuda" if torch.cuda.is_available() else "cpu")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)  # the GPU boundary only
    on_gpu = TapasParser(device=None)
    assert on_gpu.device == "cuda" and on_gpu.dtype == torch.float32  # TAPAS keeps float32 unless asked
    assert TapasParser(device=None, half_precision=True).dtype == torch.float16
    assert TapasParser(device="cpu", half_precision=True).dtype == torch.float32


def test_question_longer_than_max_length_is_cut_to_fit_not_failed(wtq_tapas):
    # TAPAS's tokenizer drops rows to fit, never query tokens: a 10,000-word question used to fail.
    parser = TapasParser(wtq_tapas, device="cpu", max_length=128)
    question = " ".join(["which city won in 2004 zebra-quux"] * 2000)  # out-of-vocabulary words too
    (answer,) = parser([(question, TABLES[0].to_json())])
    assert getattr(answer, "error", None) is None and parser.inputs_failed == 0
