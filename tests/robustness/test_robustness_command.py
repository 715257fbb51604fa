"""``textattack-semparse robustness build | evaluate | table | run`` end to end on geo-mini."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from textattack_semparse.cli import main

from tests.helpers import run_command

NO_LOSS = "victim knn-geo cannot compute its loss on the gold query; success rate of black-box attack not available"


@pytest.fixture(scope="module")
def built_dir(geo_mini_env, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("geo-mini-test-set")
    arguments = ["--dataset", "geo-question-test", "--perturbations", "deletion", "distraction", "--num-examples", "6"]
    assert main(["robustness", "build", *arguments, "--output-dir", str(folder)]) == 0
    return folder


def test_build_writes_manifest_originals_and_perturbation_files(built_dir):
    assert {path.name for path in built_dir.iterdir()} - {"evaluations"} == {
        "manifest.json",
        "originals.jsonl",
        "deletion.jsonl",
        "distraction.jsonl",
        "run.json",  # the command and settings, so a re-run resumes and a changed one is refused
        "build.jsonl",  # the journal of finished examples
        "invocations.jsonl",  # the command line and versions, for reports
    }
    manifest = json.loads((built_dir / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["examples"], manifest["setting"], manifest["seed"]) == (6, "huang-2021", 0)
    assert manifest["selection"] == {name: {"candidates": 1, "keep": 1} for name in ("deletion", "distraction")}


def test_huang_setting_ranks_reorderings_and_draws_deletions_at_random(geo_mini_env, tmp_path, capsys, monkeypatch):
    # A console wide enough that rich prints each selection rule on one line of its cell (at 80
    # columns the table's seven columns wrap "1 at random" over two).
    monkeypatch.setenv("COLUMNS", "200")
    arguments = ["--dataset", "geo-question-test", "--perturbations", "deletion", "reordering", "--num-examples", "3"]
    assert main(["robustness", "build", *arguments, "--setting", "huang-2021", "--output-dir", str(tmp_path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "1 at random" in out and "top 1 of all" in out
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["selection"] == {
        "deletion": {"candidates": 1, "keep": 1},
        "reordering": {"candidates": None, "keep": 1},
    }


def test_candidates_and_keep_override_the_selection_of_every_perturbation(geo_mini_env, tmp_path):
    arguments = ["--dataset", "geo-question-test", "--perturbations", "deletion", "--num-examples", "2"]
    assert main(["robustness", "build", *arguments, "--candidates", "all", "--keep", "1", "--output-dir", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["setting"], manifest["candidates"], manifest["keep"]) == ("huang-2021", None, 1)
    assert manifest["selection"] == {"deletion": {"candidates": None, "keep": 1}}


def test_evaluate_prints_the_table_and_the_missing_loss_and_writes_json_and_csv(built_dir, tmp_path, capsys):
    result_json, result_csv = tmp_path / "r.json", tmp_path / "r.csv"
    code = main(
        ["robustness", "evaluate", "--model", "knn-geo", "--input-dir", str(built_dir),
         "--output-json", str(result_json), "--output-csv", str(result_csv)]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert NO_LOSS in " ".join(out.split())
    assert "deletion" in out and "macro" in out
    report = json.loads(result_json.read_text(encoding="utf-8"))
    assert report["victim"] == "knn-geo"
    assert report["originals"]["examples"] == 6
    assert set(report["perturbations"]) == {"deletion", "distraction"}
    assert report["micro"]["black_box_success_rate"] is None
    assert report["test_set"]["selection"]["deletion"] == {"candidates": 1, "keep": 1}
    with result_csv.open(encoding="utf-8", newline="") as handle:
        assert [row["row"] for row in csv.DictReader(handle)] == ["deletion", "distraction", "micro", "macro", "originals"]


def test_evaluate_prints_the_benchmarks_scoring_by_default(built_dir, tmp_path, capsys):
    from textattack_semparse.datasets.benchmark import load_benchmark

    result = tmp_path / "r.json"
    assert main(["robustness", "evaluate", "--model", "knn-geo", "--input-dir", str(built_dir), "--output-json", str(result)]) == 0
    expected = f"execution match (classical) on {load_benchmark('geo').database}"
    assert f"Scoring: {expected}" in capsys.readouterr().out
    report = json.loads(result.read_text(encoding="utf-8"))
    assert report["scoring"] == expected and report["originals"]["victim_errors"] == 0


def test_evaluate_execution_mode_gold_timeout_and_timeout_options(built_dir, tmp_path, capsys):
    result = tmp_path / "r.json"
    code = main(
        ["robustness", "evaluate", "--model", "knn-geo", "--input-dir", str(built_dir), "--output-json", str(result),
         "--execution-mode", "test-suite", "--gold-timeout", "30", "--timeout", "2"]
    )
    assert code == 0
    assert "Scoring: execution match (test-suite) on " in capsys.readouterr().out
    assert json.loads(result.read_text(encoding="utf-8"))["scoring"].startswith("execution match (test-suite) on ")


@pytest.mark.parametrize("option", ["--timeout", "--gold-timeout"])
def test_evaluate_refuses_a_time_limit_that_is_no_positive_number(built_dir, option, capsys):
    assert main(["robustness", "evaluate", "--model", "knn-geo", "--input-dir", str(built_dir), option, "0"]) == 2
    assert f"argument {option}: expected a positive number, got '0'" in capsys.readouterr().err


def test_table_combines_results_as_perturbations_by_dataset_and_victim(built_dir, tmp_path, capsys):
    result = tmp_path / "r.json"
    assert main(["robustness", "evaluate", "--model", "knn-geo", "--input-dir", str(built_dir), "--output-json", str(result)]) == 0
    table_csv = tmp_path / "table.csv"
    assert main(["robustness", "table", str(result), str(result), "--metric", "perturbation_accuracy", "--output-csv", str(table_csv)]) == 0
    with table_csv.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    label = "geo-question-test / knn-geo (huang-2021)"
    assert rows[0] == ["perturbation", label, f"{label} #2"]
    assert [row[0] for row in rows[1:3]] == ["deletion", "distraction"]
    assert rows[1][1] == rows[1][2]


def test_keep_more_than_candidates_is_a_usage_error(tmp_path, capsys):
    assert main(["robustness", "build", "--dataset", "geo-question-test", "--keep", "10", "--output-dir", str(tmp_path)]) == 2
    assert "--keep 10 exceeds --candidates 1" in capsys.readouterr().err


def test_unknown_perturbation_is_a_clear_error(geo_mini_env, tmp_path, capsys):
    code = main(["robustness", "build", "--dataset", "geo-question-test", "--perturbations", "deletin", "--output-dir", str(tmp_path)])
    assert code == 2
    assert "Did you mean 'deletion'" in capsys.readouterr().err


def test_evaluate_of_a_directory_without_test_set_says_how_to_build(tmp_path, capsys):
    assert main(["robustness", "evaluate", "--model", "knn-geo", "--input-dir", str(tmp_path)]) == 2
    assert "robustness build" in capsys.readouterr().err


def test_console_script_runs_build_and_evaluate_in_one_go(tmp_path):
    result = run_command(
        "textattack-semparse", "robustness", "run", "--model", "knn-geo", "--perturbations", "deletion", "distraction",
        "--num-examples", "5", "--output-dir", str(tmp_path), env={"SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 0, result.stderr
    assert NO_LOSS in " ".join(result.stdout.split())
    report = json.loads((tmp_path / "robustness.json").read_text(encoding="utf-8"))
    assert report["dataset"] == "geo-question-test"
    assert report["originals"]["examples"] == 5
    assert (tmp_path / "robustness.csv").is_file()
    assert (tmp_path / "deletion.jsonl").is_file()
