"""Seq2SeqParser with a tiny randomly initialised T5 built in the test (no download)."""

from __future__ import annotations

import logging
import math
import pickle
import shutil
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
    [
        ("batch_size", 0),
        ("max_input_length", -1),
        ("max_new_tokens", 1.5),
        ("max_new_tokens", 0),
        ("num_beams", True),
        ("cache_size", -1),
        ("cache_size", 2.0),
        ("cache_size", False),
    ],
)
def test_bad_sizes_are_rejected(t5_dir: Path, keyword: str, value: object) -> None:
    with pytest.raises(ValueError, match=keyword):
        Seq2SeqParser(t5_dir, device="cpu", **{keyword: value})  # type: ignore[arg-type]


def test_model_loads_lazily_and_missing_model_is_a_victim_error(tmp_path: Path) -> None:
    parser = Seq2SeqParser(tmp_path / "no-model-here", device="cpu")
    assert "_model" not in parser.__dict__
    with pytest.raises(VictimError, match="could not load .*there is no such local directory"):
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
    marian = tmp_path / "marian"
    transformers.MarianMTModel(transformers.MarianConfig(
        vocab_size=16, d_model=8, encoder_layers=1, decoder_layers=1, encoder_attention_heads=1,
        decoder_attention_heads=1, encoder_ffn_dim=8, decoder_ffn_dim=8, pad_token_id=0,
    )).save_pretrained(marian)  # fmt: skip
    assert is_seq2seq_directory(marian)


def test_pickling_drops_the_model(parser: Seq2SeqParser) -> None:
    expected = parser(QUESTIONS[:2])
    assert "_model" in parser.__dict__
    restored = pickle.loads(pickle.dumps(parser))
    assert "_model" not in restored.__dict__ and "_tokenizer" not in restored.__dict__
    assert restored(QUESTIONS[:2]) == expected


def test_pickling_drops_the_cache(t5_dir: Path) -> None:
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)
    expected = parser(QUESTIONS[:2])
    assert parser.cache_info().currsize == 2
    restored = pickle.loads(pickle.dumps(parser))
    assert restored.cache_info() == (0, 0, parser.cache_size, 0)
    assert restored(QUESTIONS[:2]) == expected
    assert restored.cache_info().misses == 2


class CountingGenerate:
    """Wraps a real model's ``generate``: counts calls and the inputs each receives, then delegates."""

    def __init__(self, parser: Seq2SeqParser) -> None:
        self.real = parser.model.generate
        self.batch_sizes: list[int] = []
        self.kwargs: list[dict] = []
        parser.model.generate = self

    def __call__(self, *args, **kwargs):
        self.batch_sizes.append(len(kwargs["input_ids"]))
        self.kwargs.append(kwargs)
        return self.real(*args, **kwargs)


def test_repeated_input_is_generated_once(t5_dir: Path) -> None:
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)
    spy = CountingGenerate(parser)
    first = parser(QUESTIONS[:1])
    assert parser(QUESTIONS[:1]) == first
    assert parser([("what is the capital of texas", "geo")]) == first  # no formatter: db_id is not input
    assert spy.batch_sizes == [1]
    assert parser.cache_info() == (2, 1, parser.cache_size, 1)


def test_only_misses_reach_generate_in_one_batch(t5_dir: Path) -> None:
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)
    spy = CountingGenerate(parser)
    parser(QUESTIONS[:2])
    parser(QUESTIONS + [QUESTIONS[3]])  # 3 new questions, one of them twice
    assert spy.batch_sizes == [2, 3]
    assert parser.cache_info() == (3, 5, parser.cache_size, 5)


def test_outputs_with_and_without_cache_are_identical(t5_dir: Path) -> None:
    inputs = [QUESTIONS[2], QUESTIONS[0], QUESTIONS[2], QUESTIONS[4], QUESTIONS[0], QUESTIONS[1]]
    cached = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8, batch_size=2)
    uncached = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8, batch_size=2, cache_size=0)
    expected = uncached(inputs)
    assert cached(inputs) == expected
    assert cached(inputs[::-1]) == expected[::-1]
    assert len(set(expected)) > 1
    assert cached.cache_info() == (8, 4, cached.cache_size, 4)


def test_cache_size_zero_generates_every_input(t5_dir: Path) -> None:
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8, cache_size=0)
    spy = CountingGenerate(parser)
    parser([QUESTIONS[0], QUESTIONS[0]])
    parser([QUESTIONS[0]])
    assert spy.batch_sizes == [2, 1]
    assert parser.cache_info() == (0, 3, 0, 0)


def test_cache_evicts_the_least_recently_used_input(t5_dir: Path) -> None:
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8, cache_size=2)
    spy = CountingGenerate(parser)
    parser([QUESTIONS[0]])
    parser([QUESTIONS[1]])
    parser([QUESTIONS[0]])  # hit: QUESTIONS[1] is now the least recently used
    parser([QUESTIONS[2]])  # evicts QUESTIONS[1]
    assert spy.batch_sizes == [1, 1, 1]
    parser([QUESTIONS[0], QUESTIONS[2]])
    assert spy.batch_sizes == [1, 1, 1]
    parser([QUESTIONS[1]])
    assert spy.batch_sizes == [1, 1, 1, 1]
    assert parser.cache_info() == (3, 4, 2, 2)


def test_reloading_the_model_clears_the_cache(t5_dir: Path) -> None:
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)
    parser(QUESTIONS[:2])
    parser._load()
    assert parser.cache_info() == (0, 0, parser.cache_size, 0)
    spy = CountingGenerate(parser)
    parser(QUESTIONS[:2])
    assert spy.batch_sizes == [2]


def test_cache_clear_empties_the_cache(t5_dir: Path) -> None:
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)
    parser(QUESTIONS[:2])
    parser.cache_clear()
    assert parser.cache_info() == (0, 0, parser.cache_size, 0)


@pytest.fixture(scope="module")
def endless_t5_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny T5 that never emits </s>, so every output is as long as the length limit allows."""
    path = save_tiny_t5(tmp_path_factory.mktemp("endless-t5"), WORDS)
    config = transformers.GenerationConfig.from_pretrained(path)
    config.suppress_tokens = [0, 1, 2]
    config.save_pretrained(path)
    return path


def with_generation_config(source: Path, target: Path, **settings: object) -> Path:
    """A copy of the model in ``source`` whose saved generation config also sets ``settings``."""
    shutil.copytree(source, target)
    config = transformers.GenerationConfig.from_pretrained(source)
    for name, value in settings.items():
        setattr(config, name, value)
    config.save_pretrained(target)
    return target


def output_lengths(parser: Seq2SeqParser) -> set[int]:
    return {len(output.split()) for output in parser(QUESTIONS)}


def test_without_a_saved_length_128_tokens_are_generated(endless_t5_dir: Path) -> None:
    parser = Seq2SeqParser(endless_t5_dir, device="cpu")
    assert output_lengths(parser) == {128}


def test_saved_max_length_limits_the_outputs(endless_t5_dir: Path, tmp_path: Path) -> None:
    short = with_generation_config(endless_t5_dir, tmp_path / "short", max_length=4)
    assert output_lengths(Seq2SeqParser(short, device="cpu")) == {3}  # max_length counts the start token
    assert output_lengths(Seq2SeqParser(short, device="cpu", max_new_tokens=6)) == {6}


def test_saved_max_new_tokens_limits_the_outputs(endless_t5_dir: Path, tmp_path: Path) -> None:
    short = with_generation_config(endless_t5_dir, tmp_path / "short", max_new_tokens=5, max_length=40)
    assert output_lengths(Seq2SeqParser(short, device="cpu")) == {5}
    assert output_lengths(Seq2SeqParser(short, device="cpu", max_new_tokens=2)) == {2}


def test_saved_num_beams_is_used_unless_overridden(t5_dir: Path, tmp_path: Path) -> None:
    beams = with_generation_config(t5_dir, tmp_path / "beams", num_beams=3)
    saved = Seq2SeqParser(beams, device="cpu", max_new_tokens=8)
    greedy = Seq2SeqParser(beams, device="cpu", max_new_tokens=8, num_beams=1)
    saved_spy, greedy_spy = CountingGenerate(saved), CountingGenerate(greedy)
    assert saved(QUESTIONS) == Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8, num_beams=3)(QUESTIONS)
    assert greedy(QUESTIONS) == Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)(QUESTIONS)
    assert saved_spy.kwargs[0]["num_beams"] == 3 and greedy_spy.kwargs[0]["num_beams"] == 1


def test_decoding_never_samples(tmp_path: Path, t5_dir: Path) -> None:
    sampling = with_generation_config(t5_dir, tmp_path / "sampling", do_sample=True, top_k=5, num_return_sequences=2)
    parser = Seq2SeqParser(sampling, device="cpu", max_new_tokens=8)
    first = parser(QUESTIONS)
    parser.cache_clear()
    assert parser(QUESTIONS) == first == Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=8)(QUESTIONS)


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
        "cache_size",
    ):
        assert f"({key})" in text
