"""``textattack-semparse grammar-attack``: the paper's reports from one offline run on geo-mini."""

from __future__ import annotations

import csv
import json

import pytest

from textattack_semparse.cli import main


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("grammar-attack")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", "")  # the embedded geo-mini
        code = main(["grammar-attack", "--recipe", "nucle-beam", "--model", "knn-geo", "--num-examples", "8",
                     "--output-dir", str(directory)])
    assert code == 0
    return directory


def test_summary_agrees_with_the_csv_log(run_dir):
    summary = json.loads((run_dir / "summary.json").read_text())
    with (run_dir / "attack_log.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    kinds = [row["result_type"] for row in rows]
    assert summary["examples"] == len(rows) == 8
    assert (summary["succeeded"], summary["failed"], summary["skipped"]) == tuple(
        kinds.count(kind) for kind in ("Successful", "Failed", "Skipped")
    )
    assert summary["succeeded"] >= 1
    assert summary["attack_success_rate"] == pytest.approx(100 * summary["succeeded"] / (summary["succeeded"] + summary["failed"]))
    assert summary["recipe"] == "nucle-beam" and summary["options"] == {"max_modification_rate": 0.15}


def test_error_types_and_curve_are_consistent(run_dir):
    summary = json.loads((run_dir / "summary.json").read_text())
    errors = sum(row["errors"] for row in summary["error_types"].values())
    assert errors == pytest.approx(summary["errors_per_success"] * summary["succeeded"])
    assert sum(row["successes"] for row in summary["error_types"].values()) >= summary["succeeded"]
    curve = summary["success_vs_budget"]
    assert [point["max_errors"] for point in curve] == list(range(1, len(curve) + 1))
    assert curve[-1]["succeeded"] == summary["succeeded"]
    assert all(a["succeeded"] <= b["succeeded"] for a, b in zip(curve, curve[1:]))
    assert (run_dir / "success_vs_budget.png").read_bytes()[:4] == b"\x89PNG"


def test_other_recipes_are_refused(tmp_path, capsys):
    assert main(["grammar-attack", "--recipe", "semparse-geo", "--model", "knn-geo", "--output-dir", str(tmp_path)]) == 2
    assert "nucle-greedy" in capsys.readouterr().err


def test_recipe_options_must_be_key_value(tmp_path, capsys):
    args = ["grammar-attack", "--model", "knn-geo", "--output-dir", str(tmp_path), "--recipe-option", "beam_width"]
    assert main(args) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_a_rerun_attacks_nothing_and_writes_the_same_files(run_dir, tmp_path, monkeypatch):
    import shutil

    from textattack_semparse.experiments import attack

    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    before = {name: (copy / name).read_bytes() for name in ("attack_log.csv", "summary.json")}
    (copy / "attack_log.csv").unlink()
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    monkeypatch.setattr(attack, "build_attack", lambda spec: pytest.fail("a finished question was attacked"))
    assert main(["grammar-attack", "--recipe", "nucle-beam", "--model", "knn-geo", "--num-examples", "8",
                 "--output-dir", str(copy), "--resume", "--no-progress"]) == 0  # fmt: skip
    assert {name: (copy / name).read_bytes() for name in before} == before
    assert len((copy / "examples.jsonl").read_text().splitlines()) == 8


def test_a_changed_budget_in_the_same_directory_is_refused(run_dir, monkeypatch, capsys):
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    assert main(["grammar-attack", "--recipe", "nucle-beam", "--model", "knn-geo", "--num-examples", "8",
                 "--max-modification-rate", "0.3", "--output-dir", str(run_dir)]) == 2  # fmt: skip
    assert "max_modification_rate" in capsys.readouterr().err
