"""Seq2SeqParser with a tiny randomly initialised T5 built in the test (no download)."""

from __future__ import annotations

import logging
import math
import pickle
from pathlib import Path

import pytest
import torch
import transformers

from textattack_semparse.errors import VictimError
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser, is_seq2seq_directory

from tests.helpers import save_tiny_t5, word_level_tokenizer

WORDS = (
    "what is the capital of texas new york rivers in which states border how long river colorado "
    "population city largest SELECT FROM WHERE state_name = state city_name ; ( ) MAX COUNT"
).split()
QUESTIONS = [
    "what is the capital of texas",
    "rivers in new york",
    "which states border the state with the largest population in new york",
    "how long is the colorado river",
    "city",
]


@pytest.fixture(scope="module")
def t5_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_t5(tmp_path_factory.mktemp("tiny-t5"), WORDS, suppress_special_tokens=True)


@pytest.fixture(scope="module")
def bert_classifier_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tokenizer = word_level_tokenizer(WORDS)
    config = transformers.BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
    )
    path = tmp_path_factory.mktemp("tiny-bert")
    transformers.BertForSequenceClassification(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def parser(t5_dir: Path) -> Seq2SeqParser:
    return Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)


def test_one_nonempty_prediction_per_input(parser: Seq2SeqParser) -> None:
    outputs = parser(QUESTIONS)
    assert len(outputs) == len(QUESTIONS)
    assert all(isinstance(output, str) and output for output in outputs)
    assert len(set(outputs)) > 1  # the random model's outputs depend on its input


def test_batched_predictions_equal_unbatched(parser: Seq2SeqParser, t5_dir: Path) -> None:
    small_batches = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8, batch_size=2)
    one_by_one = [parser([question])[0] for question in QUESTIONS]
    assert parser(QUESTIONS) == one_by_one == small_batches(QUESTIONS)


def test_batch_is_padded_to_its_longest_input_not_512(parser: Seq2SeqParser) -> None:
    lengths = [len(parser.tokenizer(question)["input_ids"]) for question in QUESTIONS]
    encoding = parser._tokenize_batch(QUESTIONS)
    assert encoding["input_ids"].shape == (len(QUESTIONS), max(lengths))
    assert encoding["attention_mask"].sum(dim=1).tolist() == lengths
    assert parser._tokenize_batch(QUESTIONS[:2])["input_ids"].shape[1] == max(lengths[:2]) < 512


def test_inputs_longer_than_max_input_length_are_truncated(t5_dir: Path) -> None:
    short = Seq2SeqParser(t5_dir, device="cpu", max_input_length=6, max_new_tokens=4)
    assert short._tokenize_batch([QUESTIONS[2]])["input_ids"].shape == (1, 6)
    assert len(short([QUESTIONS[2]])) == 1


def test_default_device_is_cpu_without_cuda(t5_dir: Path) -> None:
    if torch.cuda.is_available():
        pytest.skip("a CUDA device is visible; the default would be cuda")
    parser = Seq2SeqParser(t5_dir)
    assert parser.device == "cpu"
    assert next(parser.model.parameters()).device.type == "cpu"


def test_cuda_without_gpu_is_rejected(t5_dir: Path) -> None:
    if torch.cuda.is_available():
        pytest.skip("a CUDA device is visible")
    with pytest.raises(ValueError, match="torch.cuda.is_available"):
        Seq2SeqParser(t5_dir, device="cuda")


def test_unknown_device_is_rejected(t5_dir: Path) -> None:
    with pytest.raises(ValueError, match="not a torch device"):
        Seq2SeqParser(t5_dir, device="gpu0")


def test_half_precision_is_ignored_on_cpu(t5_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="textattack_semparse.victims.seq2seq_parser"):
        parser = Seq2SeqParser(t5_dir, device="cpu", half_precision=True)
    assert "CUDA only" in caplog.text
    assert next(parser.model.parameters()).dtype == torch.float32


@pytest.mark.parametrize(
    ("keyword", "value"),
    [("batch_size", 0), ("max_input_length", -1), ("max_new_tokens", 1.5), ("num_beams", True)],
)
def test_bad_sizes_are_rejected(t5_dir: Path, keyword: str, value: object) -> None:
    with pytest.raises(ValueError, match=keyword):
        Seq2SeqParser(t5_dir, device="cpu", **{keyword: value})  # type: ignore[arg-type]


def test_model_loads_lazily_and_missing_model_is_a_victim_error(tmp_path: Path) -> None:
    parser = Seq2SeqParser(tmp_path / "no-model-here", device="cpu")
    assert "_model" not in parser.__dict__
    with pytest.raises(VictimError, match="could not load the encoder-decoder"):
        parser(["what is the capital of texas"])


def test_input_formatter_receives_question_and_db_id(t5_dir: Path) -> None:
    seen: list[tuple[str, str | None]] = []

    def prefix_database(question: str, db_id: str | None) -> str:
        seen.append((question, db_id))
        return f"{db_id or 'state'} {question}"

    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=4, input_formatter=prefix_database)
    assert len(parser([("rivers in texas", "city"), "how long is the colorado river"])) == 2
    assert seen == [("rivers in texas", "city"), ("how long is the colorado river", None)]


def test_gold_loss_is_finite_positive_and_per_example(parser: Seq2SeqParser) -> None:
    golds = ["SELECT city_name FROM city ;"] * len(QUESTIONS)
    losses = parser.gold_loss(QUESTIONS, golds)
    assert parser.supports_loss is True
    assert len(losses) == len(QUESTIONS)
    assert all(math.isfinite(loss) and loss > 0 for loss in losses)
    assert parser.gold_loss(QUESTIONS[:1], golds[:1]) == pytest.approx(losses[:1], rel=1e-4)


def test_gold_loss_is_lower_for_the_models_own_prediction(parser: Seq2SeqParser) -> None:
    own = parser(QUESTIONS)
    unrelated = ["MAX ( COUNT texas ) ; WHERE"] * len(QUESTIONS)
    own_losses = parser.gold_loss(QUESTIONS, own)
    unrelated_losses = parser.gold_loss(QUESTIONS, unrelated)
    assert all(mine < other for mine, other in zip(own_losses, unrelated_losses))


def test_gold_loss_needs_one_gold_per_input(parser: Seq2SeqParser) -> None:
    with pytest.raises(ValueError, match="one gold output per input"):
        parser.gold_loss(QUESTIONS, ["SELECT 1"])


def test_is_seq2seq_directory(t5_dir: Path, bert_classifier_dir: Path, tmp_path: Path) -> None:
    assert is_seq2seq_directory(t5_dir)
    assert is_seq2seq_directory(str(t5_dir))
    assert not is_seq2seq_directory(bert_classifier_dir)
    assert not is_seq2seq_directory(tmp_path)
    assert not is_seq2seq_directory(tmp_path / "missing")


def test_pickling_drops_the_model(parser: Seq2SeqParser) -> None:
    expected = parser(QUESTIONS[:2])
    assert "_model" in parser.__dict__
    restored = pickle.loads(pickle.dumps(parser))
    assert "_model" not in restored.__dict__ and "_tokenizer" not in restored.__dict__
    assert restored(QUESTIONS[:2]) == expected


def test_repr_lists_the_options(parser: Seq2SeqParser) -> None:
    text = repr(parser)
    for key in (
        "model_name_or_path",
        "device",
        "half_precision",
        "batch_size",
        "max_input_length",
        "max_new_tokens",
        "num_beams",
        "input_formatter",
    ):
        assert f"({key})" in text
