"""``--hf-dir`` / ``--push-to-hub`` of every command that writes a set: ``datasets.load_from_disk``
gives back the written set's records, row for row (read here from the files the command wrote),
with the dataset card beside them; a push that cannot happen is refused in one line before any work.
All offline, on the embedded geo-mini."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import datasets
import pytest
from huggingface_hub import DatasetCard

from tests.validation.validation_data import annotate, geo_test_set
from textattack_semparse.cli import main
from textattack_semparse.datasets.text2sql import load_text2sql
from textattack_semparse.tables.table import Table


@pytest.fixture(autouse=True)
def geo_mini(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def loaded_rows(folder: Path) -> list[dict[str, Any]]:
    """The rows ``load_from_disk`` reads, without the ``None`` a row gets for a column it has no value in."""
    return [{key: value for key, value in row.items() if value is not None} for row in datasets.load_from_disk(str(folder))]


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def written_test_set_records(folder: Path) -> list[dict[str, Any]]:
    """Each line of the test set's files, originals first, as the files hold them."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    records = [{**line, "perturbation": "original"} for line in jsonl(folder / "originals.jsonl")]
    for name in manifest["perturbations"]:
        records.extend(jsonl(folder / f"{name}.jsonl"))
    return records


def card_text(folder: Path) -> str:
    return DatasetCard.load(folder / "README.md").text


def test_robustness_build_hf_dir_reads_back_the_test_sets_lines(tmp_path: Path, capsys) -> None:
    arguments = ["--dataset", "geo-question-test", "--perturbations", "deletion", "distraction", "--num-examples", "4"]
    code = main(["robustness", "build", *arguments, "--output-dir", str(tmp_path / "ts"), "--hf-dir", str(tmp_path / "hf")])
    assert code == 0
    records = written_test_set_records(tmp_path / "ts")
    assert len(records) > 4 and loaded_rows(tmp_path / "hf") == records
    assert datasets.load_from_disk(str(tmp_path / "hf")).split == "test"
    text = card_text(tmp_path / "hf")
    assert "| perturbations | deletion, distraction |" in text and "| seed | 0 |" in text
    assert "| meaning judge | default |" in text and "--hf-dir" in text
    assert capsys.readouterr().out.rstrip().endswith(f"as a Hugging Face dataset with its card to {tmp_path / 'hf'}")


def test_table_qa_test_set_rows_carry_their_tables(tmp_path: Path) -> None:
    from textattack_semparse.datasets.example import SemparseExample
    from textattack_semparse.exports.set_rows import set_rows
    from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
    from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet

    table = Table(["Year", "City"], [["2004", "Athens"]], name="csv/200-csv/0.csv")
    shuffled = Table(["City", "Year"], [["Athens", "2004"]], name="csv/200-csv/0.csv")
    original = SemparseExample("where in 2004?", "Athens", db_id="csv/200-csv/0.csv", table=table)
    rewrite = PerturbedUtterance(0, original.question, original.question, "Athens", "column-shuffle",
                                 db_id=original.db_id, table=shuffled)  # fmt: skip
    RobustnessTestSet("wtq-dev", [original], {"column-shuffle": [rewrite]}).write(tmp_path / "ts")
    rows = set_rows(tmp_path / "ts").rows
    assert [row["table"] for row in rows] == [table.to_record(), shuffled.to_record()]
    records = written_test_set_records(tmp_path / "ts")  # the files name each table's CSV file instead
    assert [{**row, "table": record["table"]} for row, record in zip(rows, records)] == records


def test_augment_hf_dir_reads_back_the_augmented_files_examples(tmp_path: Path) -> None:
    output, hf = tmp_path / "aug.json", tmp_path / "hf"
    arguments = ["--recipe", "semparse-function-words", "--dataset", "geo-question-train", "--no-judge", "--no-progress"]
    assert main(["augment", *arguments, "--output", str(output), "--hf-dir", str(hf)]) == 0
    examples = load_text2sql(output)
    rows = loaded_rows(hf)
    assert len(rows) == len(examples) > 0
    for row, example in zip(rows, examples):
        assert row["question"] == example.question and row["gold"] == example.gold
        assert row["question_split"] == example.question_split and row["template_gold"] == example.template_gold
        assert json.loads(row.get("variables", "{}")) == dict(example.variables)
    assert datasets.load_from_disk(str(hf)).split == "train"
    text = card_text(hf)
    assert "| recipe | semparse-function-words |" in text and "| meaning judge | none |" in text
    assert "| source | registered dataset geo-question-train |" in text


def test_augment_csv_hf_dir_reads_back_the_rows_as_written(tmp_path: Path) -> None:
    source, output, hf = tmp_path / "in.csv", tmp_path / "out.csv", tmp_path / "hf"
    source.write_text('question,sql\nwhat is the capital of texas,"SELECT capital FROM state WHERE name = \'texas\'"\n',
                      encoding="utf-8")  # fmt: skip
    arguments = ["--recipe", "semparse-function-words", "--input", str(source), "--input-column", "question",
                 "--gold-column", "sql", "--no-judge", "--no-progress"]  # fmt: skip
    assert main(["augment", *arguments, "--output", str(output), "--hf-dir", str(hf)]) == 0
    with output.open(encoding="utf-8", newline="") as handle:
        assert loaded_rows(hf) == list(csv.DictReader(handle))


def test_attack_hf_dir_reads_back_the_csv_logs_rows(tmp_path: Path) -> None:
    output, hf = tmp_path / "attack", tmp_path / "hf"
    arguments = ["--recipe", "semparse-geo", "--model", "knn-geo", "--num-examples", "3", "--no-progress"]
    assert main(["attack", *arguments, "--output-dir", str(output), "--hf-dir", str(hf)]) == 0
    with (output / "attack_log.csv").open(encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle))
    assert len(records) == 3 and loaded_rows(hf) == records
    text = card_text(hf)
    assert "| recipe | semparse-geo |" in text and "| victim | knn-geo |" in text
    assert "| seed | 0 (example i: seed + i) |" in text


def test_validate_import_hf_dir_reads_back_the_validated_test_set(tmp_path: Path) -> None:
    geo_test_set(tmp_path / "test-set")
    assert main(["validate", "export", str(tmp_path / "test-set"), "--output-dir", str(tmp_path / "export")]) == 0
    files = annotate(tmp_path / "export", tmp_path, lambda item: "keep" if item["rewrite"].endswith("who is who") else "drop")
    arguments = [str(tmp_path / "export"), *map(str, files), "--output-dir", str(tmp_path / "out")]
    assert main(["validate", "import", *arguments, "--hf-dir", str(tmp_path / "hf")]) == 0
    records = written_test_set_records(tmp_path / "out")
    assert loaded_rows(tmp_path / "hf") == records
    assert {record["perturbation"] for record in records} == {"original", "distraction"}  # deletions dropped
    text = card_text(tmp_path / "hf")
    assert "| meaning judge | 3 annotators, decided by huang-2021:" in text and "| rewrites kept | 4 of 8 |" in text


def test_push_to_hub_offline_is_refused_before_anything_is_built(tmp_path: Path, capsys) -> None:
    arguments = ["--dataset", "geo-question-test", "--perturbations", "deletion", "--output-dir", str(tmp_path / "ts")]
    assert main(["robustness", "build", *arguments, "--push-to-hub", "me/geo-robustness"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [
        (
            "textattack-semparse robustness build: error: --push-to-hub me/geo-robustness: HF_HUB_OFFLINE is set, so "
            "nothing can be uploaded; unset it when online, or leave out --push-to-hub and keep the --hf-dir copy."
        )
    ]
    assert not (tmp_path / "ts").exists()


def test_hf_dir_that_is_another_folder_is_refused_before_anything_runs(tmp_path: Path, capsys) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me", encoding="utf-8")
    arguments = ["--recipe", "semparse-geo", "--model", "knn-geo", "--num-examples", "1", "--no-progress"]
    assert main(["attack", *arguments, "--output-dir", str(tmp_path / "a"), "--hf-dir", str(tmp_path / "mine")]) == 2
    assert "is not an earlier --hf-dir export; name a new or empty folder." in capsys.readouterr().err
    assert not (tmp_path / "a").exists() and (tmp_path / "mine" / "notes.txt").is_file()
