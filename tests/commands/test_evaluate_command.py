"""``textattack-semparse evaluate`` and evaluate_victim: standard accuracy judged as the benchmark judges."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from textattack_semparse.cli import main
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.metrics.prediction_scoring import judge_predictions
from textattack_semparse.metrics.standard_accuracy import evaluate_victim
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


def test_command_execution_mode_option(capsys):
    assert main(["evaluate", "--model", "knn-geo", "--num-examples", "2", "--execution-mode", "test-suite"]) == 0
    assert "Scoring: execution match (test-suite) on " in capsys.readouterr().out


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_command_refuses_a_gold_timeout_that_is_no_positive_number(value, capsys):
    with pytest.raises(SystemExit) as raised:
        main(["evaluate", "--model", "knn-geo", "--gold-timeout", value])
    assert raised.value.code == 2
    assert f"argument --gold-timeout: expected a positive number, got {value!r}" in capsys.readouterr().err


def test_command_refuses_an_unknown_execution_mode(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["evaluate", "--model", "knn-geo", "--execution-mode", "testsuite"])
    assert raised.value.code == 2
    assert "invalid choice: 'testsuite'" in capsys.readouterr().err


@pytest.mark.real_data
def test_execution_options_for_an_exact_match_benchmark_are_a_one_line_error(real_data_dir, monkeypatch, capsys):
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    assert main(["evaluate", "--model", "knn-scholar", "--num-examples", "2", "--execution-mode", "test-suite"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "benchmark 'scholar' is scored by exact match; mode applies only to execution-scored benchmarks" in err
