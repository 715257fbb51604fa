"""PerturbedUtterance JSONL records."""

from __future__ import annotations

import pytest

from textattack_semparse.errors import DatasetError
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance


def test_round_trip_keeps_db_id_and_similarity():
    item = PerturbedUtterance(2, "how many singers", "how many the singers", "SELECT 1", "insertion", "concert_singer", 0.97)
    assert PerturbedUtterance.from_json(item.to_json()) == item


def test_optional_fields_are_left_out_when_unset():
    record = PerturbedUtterance(0, "rivers in texas", "the rivers in texas", "SELECT 1", "insertion").to_json()
    assert set(record) == {"example_id", "original", "perturbed", "gold", "perturbation"}


def test_record_without_gold_names_the_source_and_the_fields():
    with pytest.raises(DatasetError, match=r"insertion\.jsonl:4 is not a perturbed utterance.*gold"):
        PerturbedUtterance.from_json(
            {"example_id": 0, "original": "a", "perturbed": "b", "perturbation": "x"}, source="insertion.jsonl:4"
        )


def test_non_integer_example_id_is_rejected():
    record = {"example_id": "0", "original": "a", "perturbed": "b", "gold": "g", "perturbation": "x"}
    with pytest.raises(DatasetError, match="example_id must be an integer"):
        PerturbedUtterance.from_json(record)
