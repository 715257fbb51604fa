"""`textattack-semparse attack`: semparse-geo on knn-geo over geo-mini, serial and on a local Ray
(2 workers, 127.0.0.1): TextAttack's own logs, the same bytes on both backends, a re-run that
attacks nothing, a changed configuration refused."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.helpers import run_command
from textattack_semparse.cli import main

EXAMPLES = 12
LOGS = ("attack_log.csv", "attack_log.txt", "attack_summary.json")
ENVIRONMENT = {"SEMPARSE_DATA_DIR": "", "HF_HUB_OFFLINE": "1"}  # the embedded geo-mini


def attack_arguments(output: Path, *extra: str) -> list[str]:
    """The attack every test here runs, into ``output``."""
    return ["attack", "--recipe", "semparse-geo", "--model", "knn-geo", "--num-examples", str(EXAMPLES),
            "--output-dir", str(output), "--no-progress", *extra]  # fmt: skip


def uninterrupted_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The serial run's directory, made once per test session (the resume tests compare with it)."""
    output = tmp_path_factory.getbasetemp() / "attack-uninterrupted"
    if not (output / LOGS[0]).is_file():
        completed = run_command("textattack-semparse", *attack_arguments(output), env=ENVIRONMENT)
        assert completed.returncode == 0, completed.stderr[-3000:]
        assert completed.stdout.count("Wrote ") == 3, completed.stdout
    return output


def journal_lines(output: Path) -> list[dict]:
    path = output / "examples.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


@pytest.fixture(scope="module")
def serial(tmp_path_factory) -> Path:
    return uninterrupted_run(tmp_path_factory)


@pytest.fixture(autouse=True)
def embedded_data(monkeypatch):
    for key, value in ENVIRONMENT.items():
        monkeypatch.setenv(key, value)


def test_writes_textattacks_logs_and_a_journal_line_per_example(serial):
    with (serial / "attack_log.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == EXAMPLES and rows[0]["original_text"] == "what is the capital of rhode island"
    assert set(rows[0]) >= {"original_text", "perturbed_text", "original_output", "num_queries", "result_type"}
    summary = json.loads((serial / "attack_summary.json").read_text(encoding="utf-8"))["Attack Results"]
    kinds = [row["result_type"] for row in rows]
    assert summary["Number of failed attacks:"] == kinds.count("Failed")
    assert summary["Number of skipped attacks:"] == kinds.count("Skipped")
    assert "Standard accuracy (errors left out):" in summary  # the plugin's rows, as `textattack attack` writes
    text = (serial / "attack_log.txt").read_text(encoding="utf-8")
    assert text.count(" Result ") == EXAMPLES and "Number of failed attacks:" in text
    journal = journal_lines(serial)
    assert [int(line["key"]) for line in journal] == list(range(EXAMPLES))
    assert [line["value"]["result_type"] for line in journal] == kinds
    assert json.loads((serial / "run.json").read_text())["configuration"]["recipe"] == "semparse-geo"


def test_ray_with_two_workers_writes_the_same_bytes(serial, tmp_path):
    pytest.importorskip("ray")
    completed = run_command(
        "textattack-semparse", *attack_arguments(tmp_path, "--backend", "ray", "--workers", "2"), env=ENVIRONMENT
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    for name in LOGS:
        assert (tmp_path / name).read_bytes() == (serial / name).read_bytes(), name
    assert f"Wrote {tmp_path / 'attack_log.csv'}" in completed.stdout


def test_a_rerun_attacks_nothing_and_rewrites_the_same_files(serial, tmp_path, monkeypatch, capsys):
    import shutil

    from textattack_semparse.experiments import attack

    copy = tmp_path / "run"
    shutil.copytree(serial, copy)
    for name in LOGS:
        (copy / name).unlink()
    monkeypatch.setattr(attack, "build_attack", lambda spec: pytest.fail("a finished example was attacked"))
    assert main(attack_arguments(copy, "--resume")) == 0
    for name in LOGS:
        assert (copy / name).read_bytes() == (serial / name).read_bytes(), name
    assert len(journal_lines(copy)) == EXAMPLES
    assert f"Wrote {copy / 'attack_summary.json'}" in capsys.readouterr().out


def test_a_changed_configuration_is_refused(serial, tmp_path, capsys):
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(serial, copy)
    before = {path.name: path.read_bytes() for path in copy.iterdir()}
    assert main(attack_arguments(copy, "--random-seed", "1")) == 2
    assert "random_seed: 0 then, 1 now" in capsys.readouterr().err
    assert {path.name: path.read_bytes() for path in copy.iterdir()} == before


def test_resume_needs_a_run(tmp_path, capsys):
    assert main(attack_arguments(tmp_path / "empty", "--resume")) == 2
    assert "Nothing to resume" in capsys.readouterr().err


def test_an_unknown_recipe_names_the_closest(tmp_path, capsys):
    assert main(["attack", "--recipe", "semparse-goe", "--model", "knn-geo", "--output-dir", str(tmp_path / "x")]) == 2
    assert "Did you mean 'semparse-geo'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_examples_are_seeded_by_their_index_not_their_worker():
    from textattack_semparse.experiments.attack import attack_tasks, example_indices

    class Dataset:
        label_names = None

        def __getitem__(self, index):
            return {"question": f"q{index}"}, f"gold {index}"

        def __len__(self):
            return 6

    tasks = attack_tasks(Dataset(), example_indices(len(Dataset()), 3, 2), seed=765)
    assert [(task.index, task.seed, task.ground_truth) for task in tasks] == [
        (2, 767, "gold 2"), (3, 768, "gold 3"), (4, 769, "gold 4"),
    ]  # fmt: skip
