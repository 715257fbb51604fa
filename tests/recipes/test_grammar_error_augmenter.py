"""Grammatical-error augmentation: sampled errors, literals kept, CSV columns untouched."""

from __future__ import annotations

import csv
import difflib

import pytest

from tests.helpers import run_command
from textattack_semparse.recipes.augment.grammar_error_augmenter import GrammarErrorAugmenter
from textattack_semparse.registry import augmentation_recipe_class

ROWS = [
    {
        "question": "what is the population density of the state of texas",
        "sql": 'SELECT population / area FROM state WHERE state_name = "texas"',
        "note": 'a/b, "quoted", x//y',
    },
    {
        "question": "which rivers run through the states that border new york",
        "sql": "SELECT river_name FROM river WHERE traverse IN (SELECT border FROM border_info WHERE state_name = 'new york')",
        "note": "/leading slash, trailing comma,",
    },
]


def _changed_words(before: str, after: str) -> int:
    matcher = difflib.SequenceMatcher(a=before.split(), b=after.split(), autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")


def test_registered_as_nucle_augment():
    assert augmentation_recipe_class("nucle-augment") is GrammarErrorAugmenter


def test_repr_lists_probabilistic_transformation_and_constraints():
    text = repr(GrammarErrorAugmenter(literals=("texas",)))
    for ingredient in ["GrammarErrorCombined", "(mode):  probabilistic", "(rate):  0.03", "(seed):  0",
                       "RepeatModification", "PreserveLiterals", "'texas'"]:
        assert ingredient in text, text


def test_each_copy_carries_one_error_at_the_default_rate():
    augmenter = GrammarErrorAugmenter(transformations_per_example=4)
    question = ROWS[0]["question"]
    copies = augmenter.augment(question)
    assert copies and question not in copies
    for copy in copies:
        assert 1 <= _changed_words(question, copy) <= 2  # one error; a word-order swap changes two words


def test_same_seed_same_copies_other_seed_other_copies():
    question = ROWS[1]["question"]
    first = GrammarErrorAugmenter(seed=7, transformations_per_example=3).augment(question)
    assert first == GrammarErrorAugmenter(seed=7, transformations_per_example=3).augment(question)
    others = [GrammarErrorAugmenter(seed=seed, transformations_per_example=3).augment(question) for seed in range(3)]
    assert any(copies != first for copies in others)


def test_literals_are_never_touched():
    augmenter = GrammarErrorAugmenter(literals=("new york",), pct_words_to_swap=0.3, transformations_per_example=10)
    copies = augmenter.augment(ROWS[1]["question"])
    assert copies
    for copy in copies:
        assert copy.split()[-2:] == ["new", "york"] and copy.count("new york") == 1, copy


@pytest.fixture
def input_csv(tmp_path):
    path = tmp_path / "in.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question", "sql", "note"])
        writer.writeheader()
        writer.writerows(ROWS)
    return path


def test_stock_augment_command_keeps_other_columns_byte_identical(input_csv, tmp_path):
    output = tmp_path / "out.csv"
    result = run_command(
        "textattack", "augment", "--input-csv", str(input_csv), "--output-csv", str(output),
        "--input-column", "question", "--recipe", "nucle-augment", "--transformations-per-example", "2",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    with output.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    originals = {row["question"]: row for row in ROWS}
    augmented = [row for row in rows if row["question"] not in originals]
    assert augmented, "no augmented rows were written"
    for row in rows:
        source = next(original for original in ROWS if original["sql"] == row["sql"])
        assert (row["sql"], row["note"]) == (source["sql"], source["note"])
        assert _changed_words(source["question"], row["question"]) <= 2
    raw = output.read_bytes()
    for original in ROWS:
        assert original["note"].replace('"', '""').encode() in raw  # "/" and quotes survive as written
