"""Seq2SeqGenerator with tiny random MarianMT models built in the test."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from textattack_semparse.transformations.seq2seq_generator import Seq2SeqGenerator

QUESTIONS = [
    "what is the capital of texas",
    "how many people live in new york",
    "which rivers run through the state with the largest population",
    "how big is alaska",
    "give me the cities in virginia",
]


def test_one_list_of_outputs_per_input(tiny_marian: Callable[[int], str]) -> None:
    outputs = Seq2SeqGenerator(tiny_marian(0), max_new_tokens=5, device="cpu").generate(QUESTIONS, num_return_sequences=3)
    assert len(outputs) == len(QUESTIONS) and all(len(row) == 3 for row in outputs)
    assert all(text and text == " ".join(text.split()) for row in outputs for text in row)


def test_batching_does_not_change_outputs(tiny_marian: Callable[[int], str]) -> None:
    path = tiny_marian(0)
    small = Seq2SeqGenerator(path, batch_size=2, max_new_tokens=5, device="cpu").generate(QUESTIONS)
    one_by_one = [Seq2SeqGenerator(path, batch_size=1, max_new_tokens=5, device="cpu").generate([q])[0] for q in QUESTIONS]
    assert small == one_by_one


def test_output_length_is_bounded(tiny_marian: Callable[[int], str]) -> None:
    (row,) = Seq2SeqGenerator(tiny_marian(0), max_new_tokens=4, device="cpu").generate(["how big is alaska"])
    assert len(row[0].split()) <= 4


def test_runs_on_the_requested_device_and_loads_lazily(tiny_marian: Callable[[int], str]) -> None:
    generator = Seq2SeqGenerator(tiny_marian(0), device="cpu")
    assert generator._model is None
    assert generator.model.device.type == "cpu"
    assert pickle.loads(pickle.dumps(generator))._model is None


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"model_name_or_path": ""}, TypeError), ({"batch_size": 0}, ValueError), ({"max_new_tokens": 0}, ValueError), ({"device": 1}, TypeError)],
)
def test_bad_arguments_rejected(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        Seq2SeqGenerator(**{"model_name_or_path": "x", **kwargs})


def test_bad_num_return_sequences_rejected(tiny_marian: Callable[[int], str]) -> None:
    with pytest.raises(ValueError, match="num_return_sequences"):
        Seq2SeqGenerator(tiny_marian(0)).generate(["x"], num_return_sequences=0)
