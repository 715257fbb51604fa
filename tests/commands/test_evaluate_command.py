"""``textattack-semparse evaluate`` and evaluate_victim: standard accuracy judged as the benchmark judges."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from textattack_semparse.cli import main
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.metrics.prediction_scoring import judge_predictions
from textattack_semparse.experiments.evaluate import evaluate_victim
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.victims.resolution import resolve_victim

KEYS = ["dataset", "scoring", "examples", "gold_errors", "victim_errors", "correct", "standard_accuracy"]


@pytest.fixture(autouse=True)
def geo_mini_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    yield


def test_report_keys_and_scoring():
    report = evaluate_victim("knn-geo")
    assert list(report) == KEYS
    assert report["dataset"] == "geo-question-test"
    assert report["scoring"] == f"execution match (classical) on {load_benchmark('geo').database}"
    assert report["examples"] == len(load_benchmark("geo").split("question", "test"))


def test_accuracy_is_correct_among_judged_examples():
    report = evaluate_victim("knn-geo")
    victim, _ = resolve_victim("knn-geo")
    test = load_benchmark("geo").split("question", "test")
    outcomes = judge_predictions(load_benchmark("geo").scoring, victim([e.question for e in test]), [e.gold for e in test])
    judged = outcomes.count(Outcome.CORRECT) + outcomes.count(Outcome.WRONG)
    assert report["correct"] == outcomes.count(Outcome.CORRECT)
    assert (report["gold_errors"], report["victim_errors"]) == (outcomes.count(Outcome.GOLD_ERROR), 0)
    assert report["standard_accuracy"] == pytest.approx(100 * report["correct"] / judged)


def test_limit_and_dataset():
    report = evaluate_victim("knn-geo", dataset="geo-question-train", limit=5)
    assert (report["dataset"], report["examples"]) == ("geo-question-train", 5)


def test_execution_mode_and_gold_timeout_override_the_benchmarks():
    report = evaluate_victim("knn-geo", limit=3, execution_mode="test-suite", gold_timeout=30.0)
    assert report["scoring"].startswith("execution match (test-suite) on ")


def test_command_prints_the_scoring_and_writes_the_report(tmp_path, capsys):
    output = tmp_path / "report.json"
    assert main(["evaluate", "--model", "knn-geo", "--num-examples", "4", "--output", str(output)]) == 0
    out = capsys.readouterr().out
    assert f"Scoring: execution match (classical) on {load_benchmark('geo').database}" in out
    assert "Database:" not in out
    assert "victim errors" in out and "gold errors" in out
    report = json.loads(output.read_text())
    assert list(report) == KEYS and report["examples"] == 4


def test_command_writes_each_examples_prediction_and_outcome(tmp_path, capsys):
    output, predictions = tmp_path / "report.json", tmp_path / "predictions.jsonl"
    arguments = ["evaluate", "--model", "knn-geo", "--num-examples", "6", "--output", str(output)]
    assert main([*arguments, "--predictions", str(predictions)]) == 0
    assert f"Wrote {predictions}" in capsys.readouterr().out
    rows = [json.loads(line) for line in predictions.read_text(encoding="utf-8").splitlines()]
    test = load_benchmark("geo").split("question", "test")[:6]
    victim, _ = resolve_victim("knn-geo")
    expected = victim([example.question for example in test])
    outcomes = judge_predictions(load_benchmark("geo").scoring, expected, [example.gold for example in test])
    assert rows == [
        {"question": example.question, "gold": example.gold, "prediction": prediction, "outcome": outcome.value}
        for example, prediction, outcome in zip(test, expected, outcomes)
    ]
    assert sum(row["outcome"] == "correct" for row in rows) == json.loads(output.read_text())["correct"]


def test_command_execution_mode_option(capsys):
    assert main(["evaluate", "--model", "knn-geo", "--num-examples", "2", "--execution-mode", "test-suite"]) == 0
    assert "Scoring: execution match (test-suite) on " in capsys.readouterr().out


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_command_refuses_a_gold_timeout_that_is_no_positive_number(value, capsys):
    assert main(["evaluate", "--model", "knn-geo", "--gold-timeout", value]) == 2
    assert f"argument --gold-timeout: expected a positive number, got {value!r}" in capsys.readouterr().err


def test_command_refuses_an_unknown_execution_mode(capsys):
    assert main(["evaluate", "--model", "knn-geo", "--execution-mode", "testsuite"]) == 2
    assert "invalid choice: 'testsuite'" in capsys.readouterr().err


@pytest.mark.real_data
def test_execution_options_for_an_exact_match_benchmark_are_a_one_line_error(real_data_dir, monkeypatch, capsys):
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    assert main(["evaluate", "--model", "knn-scholar", "--num-examples", "2", "--execution-mode", "test-suite"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "benchmark 'scholar' is scored by exact match; mode applies only to execution-scored benchmarks" in err


def test_with_a_test_suite_reports_suite_and_single_database_accuracy(tmp_path):
    """Zhong et al. (2020): correct on the suite = correct on every one of its databases."""
    import shutil
    import sqlite3

    from textattack_semparse.scoring.databases import Databases
    from textattack_semparse.scoring.scoring import Scoring

    original = load_benchmark("geo").database
    fuzz = tmp_path / "geo-mini" / "fuzz-0000.sqlite"
    fuzz.parent.mkdir()
    shutil.copyfile(original, fuzz)
    with sqlite3.connect(fuzz) as connection:
        connection.execute("UPDATE state SET population = population * 7 WHERE state_name > 'm'")
        connection.execute("DELETE FROM river WHERE length < 1500")
    report = evaluate_victim("knn-geo", test_suite_dir=tmp_path)

    victim, _ = resolve_victim("knn-geo")
    test = load_benchmark("geo").split("question", "test")
    predictions = victim([e.question for e in test])
    golds = [e.gold for e in test]
    scorer = load_benchmark("geo", test_suite_dir=tmp_path).scoring.scorer
    on_original = judge_predictions(Scoring(scorer, Databases.at(original)), predictions, golds)
    on_fuzz = judge_predictions(Scoring(scorer, Databases.at(fuzz)), predictions, golds)
    both = sum(a is Outcome.CORRECT and b is Outcome.CORRECT for a, b in zip(on_original, on_fuzz))
    original_only = sum(a is Outcome.CORRECT and b is Outcome.WRONG for a, b in zip(on_original, on_fuzz))

    assert report["scoring"].startswith("execution match (test-suite) on suite of 2 databases")
    assert report["correct"] == both
    assert report["single_database"] == str(original)
    assert report["single_database_correct"] == on_original.count(Outcome.CORRECT)
    # knn-geo's correct geo-mini predictions are the gold texts, so none is a false positive here;
    # tests/datasets/test_benchmark_test_suite.py builds one.
    assert report["accepted_by_single_database_only"] == original_only
    assert report["standard_accuracy"] <= report["single_database_accuracy"]


def test_command_takes_a_test_suite_dir(tmp_path, capsys):
    import shutil

    (tmp_path / "geo-mini").mkdir()
    shutil.copyfile(load_benchmark("geo").database, tmp_path / "geo-mini" / "fuzz-0000.sqlite")
    assert main(["evaluate", "--model", "knn-geo", "--num-examples", "3", "--test-suite-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "single database accuracy" in out and "Scoring: execution match (test-suite) on suite of 2" in out
