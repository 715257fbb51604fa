"""Test-set files: manifest, originals and per-perturbation JSONL, written and read back."""

from __future__ import annotations

import json

import pytest

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet, check_perturbation_name

GOLD = 'SELECT CAPITAL FROM STATE WHERE STATE_NAME = "texas" ;'
ORIGINALS = [
    SemparseExample("what is the capital of texas", GOLD),
    SemparseExample("how many singers are there", "SELECT count(*) FROM singer", db_id="concert_singer"),
    SemparseExample("texas", GOLD),
]


def utterance(example_id: int, perturbed: str, perturbation: str = "deletion") -> PerturbedUtterance:
    original = ORIGINALS[example_id]
    return PerturbedUtterance(example_id, original.question, perturbed, original.gold, perturbation, original.db_id)


def toy_test_set() -> RobustnessTestSet:
    return RobustnessTestSet(
        dataset="toy",
        originals=ORIGINALS,
        utterances={
            "deletion": [utterance(0, "what is capital of texas"), utterance(1, "how many singers there")],
            "distraction": [utterance(0, "what is the capital of texas what is what", "distraction")],
        },
        seed=3,
        candidates=1,
        keep=1,
        setting="huang-2021",
        skipped={"substitution-nf": "OSError: offline"},
        selection={"distraction": (None, 1), "deletion": (1, 1)},
    )


def test_write_creates_manifest_originals_and_one_file_per_perturbation(tmp_path):
    paths = toy_test_set().write(tmp_path)
    assert sorted(path.name for path in paths) == [
        "deletion.jsonl",
        "distraction.jsonl",
        "manifest.json",
        "originals.jsonl",
    ]
    lines = (tmp_path / "deletion.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[1]) == {
        "example_id": 1,
        "original": "how many singers are there",
        "perturbed": "how many singers there",
        "gold": "SELECT count(*) FROM singer",
        "perturbation": "deletion",
        "db_id": "concert_singer",
    }
    assert "db_id" not in json.loads(lines[0])


def test_manifest_counts_and_examples_without_perturbation(tmp_path):
    toy_test_set().write(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["dataset"] == "toy"
    assert manifest["perturbations"] == ["deletion", "distraction"]
    assert manifest["seed"] == 3
    assert manifest["examples"] == 3
    assert manifest["counts"] == {
        "deletion": {"utterances": 2, "examples": 2},
        "distraction": {"utterances": 1, "examples": 1},
    }
    assert manifest["no_candidates"] == {"deletion": [2], "distraction": [1, 2]}
    assert manifest["unperturbed_examples"] == [2]
    assert manifest["skipped"] == {"substitution-nf": "OSError: offline"}


def test_read_returns_what_was_written(tmp_path):
    written = toy_test_set()
    written.write(tmp_path)
    read = RobustnessTestSet.read(tmp_path)
    assert read.originals == written.originals
    assert dict(read.utterances) == dict(written.utterances)
    assert (read.dataset, read.seed, read.candidates, read.keep, read.setting) == ("toy", 3, 1, 1, "huang-2021")
    assert dict(read.skipped) == dict(written.skipped)
    assert read == written


def test_selection_keeps_only_the_perturbations_that_differ_from_the_default_pair():
    test_set = toy_test_set()
    assert dict(test_set.selection) == {"distraction": (None, 1)}
    assert test_set.selection_of("distraction") == (None, 1)
    assert test_set.selection_of("deletion") == test_set.selection_of("insertion") == (1, 1)


def test_manifest_records_the_selection_of_every_perturbation(tmp_path):
    toy_test_set().write(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["candidates"], manifest["keep"]) == (1, 1)
    assert manifest["selection"] == {
        "deletion": {"candidates": 1, "keep": 1},
        "distraction": {"candidates": None, "keep": 1},
    }


def test_a_manifest_without_selection_reads_as_the_default_pair_everywhere(tmp_path):
    toy_test_set().write(tmp_path)
    manifest_path = tmp_path / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    del manifest["selection"]
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    read = RobustnessTestSet.read(tmp_path)
    assert dict(read.selection) == {}
    assert read.selection_of("distraction") == (1, 1)


@pytest.mark.parametrize("record", [{"candidates": 0, "keep": 1}, {"keep": 1}, [None, 1]])
def test_a_damaged_selection_in_the_manifest_names_the_perturbation(tmp_path, record):
    toy_test_set().write(tmp_path)
    manifest_path = tmp_path / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["selection"]["distraction"] = record
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(DatasetError, match="distraction"):
        RobustnessTestSet.read(tmp_path)


def test_read_without_manifest_says_how_to_build(tmp_path):
    with pytest.raises(DatasetError, match="robustness build"):
        RobustnessTestSet.read(tmp_path)


def test_read_with_a_missing_perturbation_file_names_it(tmp_path):
    toy_test_set().write(tmp_path)
    (tmp_path / "distraction.jsonl").unlink()
    with pytest.raises(DatasetError, match="distraction.jsonl"):
        RobustnessTestSet.read(tmp_path)


def test_read_with_a_damaged_line_names_file_and_line(tmp_path):
    toy_test_set().write(tmp_path)
    with (tmp_path / "deletion.jsonl").open("a", encoding="utf-8") as handle:
        handle.write('{"example_id": 0}\n')
    with pytest.raises(DatasetError, match=r"deletion\.jsonl:3"):
        RobustnessTestSet.read(tmp_path)


def test_utterance_filed_under_another_perturbation_is_rejected():
    with pytest.raises(DatasetError, match="filed under"):
        RobustnessTestSet("toy", ORIGINALS, {"insertion": [utterance(0, "what is the the capital of texas")]})


def test_utterance_of_an_unknown_example_is_rejected():
    with pytest.raises(DatasetError, match="example_id 7"):
        RobustnessTestSet("toy", ORIGINALS, {"deletion": [PerturbedUtterance(7, "a b", "a", "g", "deletion")]})


@pytest.mark.parametrize("name", ["../escape", "manifest", "originals", "", ".hidden", "a/b"])
def test_perturbation_names_that_cannot_name_a_file_are_rejected(name):
    with pytest.raises(ValueError, match="cannot name a test-set file"):
        check_perturbation_name(name)


def test_perturbation_names_of_the_registry_are_accepted():
    assert check_perturbation_name("substitution-f") == "substitution-f"
