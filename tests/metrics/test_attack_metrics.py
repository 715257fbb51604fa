"""Robustness metrics from TextAttack logs."""

from __future__ import annotations

import csv
import json

import pytest

from textattack_semparse.errors import DatasetError
from textattack_semparse.metrics.attack_metrics import read_attack_log, words_perturbed_percent

FIELDS = ["original_text", "perturbed_text", "original_score", "perturbed_score", "original_output",
          "perturbed_output", "ground_truth_output", "num_queries", "result_type"]


def _write_log(path, rows):
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for original, perturbed, queries, kind in rows:
            writer.writerow({"original_text": original, "perturbed_text": perturbed, "num_queries": queries,
                             "result_type": kind, "original_score": 0, "perturbed_score": 1,
                             "original_output": "SELECT 1", "perturbed_output": "SELECT 2",
                             "ground_truth_output": "SELECT population / 1000 FROM state"})


def test_csv_log_gives_papers_metrics(tmp_path):
    log = tmp_path / "log.csv"
    _write_log(log, [
        ("what is the capital of [[texas]]", "what is capital of texas", 10, "Successful"),
        ("how big is alaska", "how big is alaska", 20, "Failed"),
        ("how big is alaska", "how big is alaska", 30, "Failed"),
        ("rivers in ohio", "rivers in ohio", 1, "Skipped"),
    ])
    metrics = read_attack_log(log)
    assert (metrics.examples, metrics.succeeded, metrics.failed, metrics.skipped) == (4, 1, 2, 1)
    assert metrics.standard_accuracy == pytest.approx(75.0)
    assert metrics.robust_accuracy == pytest.approx(200 / 3)
    assert metrics.attack_success_rate == pytest.approx(100 / 3)
    assert metrics.accuracy_under_attack == pytest.approx(50.0)
    assert metrics.queries_per_example == pytest.approx(20.0)
    assert metrics.words_perturbed_percent == pytest.approx(100 / 6)


def test_summary_json_gives_the_same_names(tmp_path):
    summary = tmp_path / "s.json"
    summary.write_text(json.dumps({"Attack Results": {
        "Number of successful attacks:": 3, "Number of failed attacks:": 1, "Number of skipped attacks:": 6,
        "Original accuracy:": 40.0, "Accuracy under attack:": 10.0, "Attack success rate:": 75.0,
        "Average perturbed word %:": 12.5, "Avg num queries:": 7.25}}))
    metrics = read_attack_log(summary)
    assert metrics.standard_accuracy == pytest.approx(40.0)
    assert metrics.robust_accuracy == pytest.approx(25.0)
    assert metrics.attack_success_rate == pytest.approx(75.0)
    assert metrics.words_perturbed_percent == 12.5


def test_all_skipped_leaves_rates_undefined(tmp_path):
    log = tmp_path / "log.csv"
    _write_log(log, [("a b", "a b", 1, "Skipped")])
    metrics = read_attack_log(log)
    assert metrics.standard_accuracy == 0.0
    assert metrics.robust_accuracy is None and metrics.attack_success_rate is None


def test_insertion_counts_as_one_perturbed_word():
    assert words_perturbed_percent("rivers in ohio", "the rivers in ohio") == pytest.approx(100 / 3)


def test_not_a_log_is_a_clear_error(tmp_path):
    bogus = tmp_path / "x.csv"
    bogus.write_text("a,b\n1,2\n")
    with pytest.raises(DatasetError, match="--log-to-csv"):
        read_attack_log(bogus)
