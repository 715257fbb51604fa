"""The items people see: blind, deduplicated, shuffled with the seed, sampled; the two tasks."""

from __future__ import annotations

import csv
import io
import json

import pytest

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.validation.rewrite_source import Rewrite
from textattack_semparse.validation.validation_items import (
    build_items,
    item_set_id,
    items_csv,
    items_jsonl,
    pairs_jsonl,
)

GOLD = 'SELECT CAPITAL FROM STATE WHERE STATE_NAME = "texas"'


def rewrite(original, text, perturbation, location, group=None):
    return Rewrite(original, text, GOLD, perturbation, location, group or f"{perturbation}/{original}")


TEST_SET = [
    rewrite("what is the capital of texas", "what is capital of texas", "deletion", ("deletion", 0)),
    rewrite("what is the capital of texas", "what is the capital of texas who is who", "distraction", ("distraction", 0)),
    rewrite("how many rivers are in texas", "how many rivers in texas", "deletion", ("deletion", 1)),
    rewrite("where is dallas", "where dallas", "deletion", ("deletion", 2)),
]
AUGMENTED = [  # another source with a rewrite the test set has too
    rewrite("what is the capital of texas", "what is capital of texas", "train.json", (0, 3)),
    rewrite("what states border ohio", "what states border on ohio", "train.json", (1, 2)),
]


def test_items_are_blind_and_a_rewrite_from_two_sources_is_one_item():
    items = build_items([TEST_SET, AUGMENTED], "same-meaning", seed=0)
    assert len(items) == 5
    shown = [json.loads(line) for line in items_jsonl(items, "same-meaning").splitlines()]
    assert all(set(line) == {"item_id", "original", "rewrite"} for line in shown)
    merged = next(item for item in items if item.candidates[0].rewrite == "what is capital of texas")
    assert [(o.source, o.location, o.perturbation) for o in merged.candidates[0].occurrences] == [
        (0, ("deletion", 0), "deletion"),
        (1, (0, 3), "train.json"),
    ]
    assert merged.perturbations == ("deletion", "train.json")


def test_the_seed_decides_the_order_and_the_ids_do_not_depend_on_it():
    first = build_items([TEST_SET, AUGMENTED], "same-meaning", seed=0)
    again = build_items([TEST_SET, AUGMENTED], "same-meaning", seed=0)
    other = build_items([TEST_SET, AUGMENTED], "same-meaning", seed=1)
    assert [item.item_id for item in first] == [item.item_id for item in again]
    assert sorted(item.item_id for item in first) == sorted(item.item_id for item in other)
    assert [item.item_id for item in first] != [item.item_id for item in other]
    assert item_set_id(first, "same-meaning") != item_set_id(other, "same-meaning")


def test_a_sample_is_the_first_items_of_the_shuffle():
    every = build_items([TEST_SET, AUGMENTED], "same-meaning", seed=3)
    assert build_items([TEST_SET, AUGMENTED], "same-meaning", seed=3, sample=2) == every[:2]
    assert len(build_items([TEST_SET], "same-meaning", seed=3, sample=99)) == 4
    with pytest.raises(ConfigurationError, match="--sample must be a positive number of items"):
        build_items([TEST_SET], "same-meaning", seed=3, sample=0)


def test_best_of_k_groups_the_candidates_of_one_example_under_one_perturbation():
    candidates = [
        rewrite("what rivers are in texas", text, "typo", ("typo", index), group="typo/4")
        for index, text in enumerate(["what rivers are in texsa", "waht rivers are in texas", "what rivers are in texas?"])
    ]
    other = [rewrite("where is dallas", "where is dalas", "typo", ("typo", 3), group="typo/5")]
    items = build_items([candidates + other], "best-of-k", seed=0)
    assert sorted(len(item.candidates) for item in items) == [1, 3]
    group = next(item for item in items if len(item.candidates) == 3)
    assert [candidate.candidate_id for candidate in group.candidates] == ["1", "2", "3"]
    assert sorted(candidate.rewrite for candidate in group.candidates) == sorted(r.rewrite for r in candidates)
    shown = json.loads(items_jsonl([group], "best-of-k"))
    assert set(shown) == {"item_id", "original", "candidates"}
    assert set(shown["candidates"][0]) == {"candidate_id", "rewrite"}
    rows = list(csv.reader(io.StringIO(items_csv(items, "best-of-k"))))
    assert rows[0] == ["item_id", "original", "candidate_1", "candidate_2", "candidate_3"]
    assert sorted(row.count("") for row in rows[1:]) == [0, 2]  # the one-candidate item's empty cells


def test_items_csv_for_a_platform_and_pairs_for_the_judges():
    items = build_items([TEST_SET], "same-meaning", seed=0)
    rows = list(csv.DictReader(io.StringIO(items_csv(items, "same-meaning"))))
    assert [row["item_id"] for row in rows] == [item.item_id for item in items]
    assert set(rows[0]) == {"item_id", "original", "rewrite"}
    pairs = [json.loads(line) for line in pairs_jsonl(items, "same-meaning").splitlines()]
    assert {pair["perturbation"] for pair in pairs} == {"deletion", "distraction"}
    assert all(pair["gold"] == GOLD for pair in pairs)


def test_a_sample_per_perturbation_takes_the_first_items_of_each_in_the_shuffle():
    every = build_items([TEST_SET, AUGMENTED], "same-meaning", seed=3)
    stratified = build_items([TEST_SET, AUGMENTED], "same-meaning", seed=3, sample=1, per_perturbation=True)
    expected, taken = [], set()
    for item in every:  # Huang et al. judge a sample of each perturbation: one of each here
        if not set(item.perturbations) <= taken:
            expected.append(item)
            taken |= set(item.perturbations)
    assert stratified == expected
    assert taken == {"deletion", "distraction", "train.json"}
    deletion = [item for item in stratified if "deletion" in item.perturbations]
    assert len(deletion) == 1  # not the three deletion rewrites


def test_a_sample_per_perturbation_needs_its_size():
    from textattack_semparse.experiments.validate import ExportConfig

    with pytest.raises(ConfigurationError, match="--per-perturbation samples each perturbation: give --sample N too"):
        ExportConfig(sources=["test-set"], output_dir="out", per_perturbation=True)
    assert ExportConfig(sources=["test-set"], output_dir="out", sample=25, per_perturbation=True).per_perturbation
