"""Robustness metrics from TextAttack logs."""

from __future__ import annotations

import csv
import json

import pytest

from textattack_semparse.errors import DatasetError
from textattack_semparse.metrics.attack_metrics import (
    SUMMARY_ROWS,
    metrics_from_rows,
    read_attack_log,
    words_perturbed_percent,
)
from textattack_semparse.scoring.outcome import Outcome

FIELDS = ["original_text", "perturbed_text", "original_score", "perturbed_score", "original_output",
          "perturbed_output", "ground_truth_output", "num_queries", "result_type"]


def _write_log(path, rows):
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for original, perturbed, queries, kind, *output in rows:
            writer.writerow({"original_text": original, "perturbed_text": perturbed, "num_queries": queries,
                             "result_type": kind, "original_score": 0, "perturbed_score": 1,
                             "original_output": output[0] if output else "SELECT 1", "perturbed_output": "SELECT 2",
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


def test_left_out_examples_are_counted_and_in_no_denominator(tmp_path):
    log = tmp_path / "log.csv"
    _write_log(log, [
        ("what is the capital of [[texas]]", "what is capital of texas", 10, "Successful"),
        ("how big is alaska", "how big is alaska", 20, "Failed"),
        ("rivers in ohio", "rivers in ohio", 1, "Skipped"),  # wrong original: judged, not attacked
        ("rivers in utah", "rivers in utah", 1, "Skipped", "[gold error] gold SQL 'SELECT x' failed"),
        ("lakes in utah", "lakes in utah", 1, "Skipped", "[victim error] ValueError: no template"),
        ("lakes in ohio", "lakes in ohio", 1, "Skipped", "[victim error] RuntimeError: out of memory"),
    ])
    metrics = read_attack_log(log)
    assert (metrics.examples, metrics.skipped, metrics.gold_errors, metrics.victim_errors) == (6, 4, 1, 2)
    assert metrics.standard_accuracy == pytest.approx(100 * 2 / 3)  # 2 correct of the 3 judged
    assert metrics.accuracy_under_attack == pytest.approx(100 / 3)
    assert (metrics.robust_accuracy, metrics.attack_success_rate) == (50.0, 50.0)
    assert metrics.queries_per_example == pytest.approx(15.0)  # attacked examples only


def test_only_skipped_originals_can_be_left_out():
    rows = [
        {"original_text": "a", "perturbed_text": "b", "original_output": "[victim error] x", "num_queries": 1,
         "result_type": "Failed"},
        {"original_text": "a", "perturbed_text": "a", "original_output": "[not an error] x", "num_queries": 1,
         "result_type": "Skipped"},
    ]
    metrics = metrics_from_rows(rows)
    assert (metrics.gold_errors, metrics.victim_errors, metrics.standard_accuracy) == (0, 0, 50.0)


def test_everything_left_out_leaves_standard_accuracy_undefined(tmp_path):
    log = tmp_path / "log.csv"
    _write_log(log, [("a", "a", 1, "Skipped", "[victim error] ValueError: x")] * 3)
    metrics = read_attack_log(log)
    assert (metrics.victim_errors, metrics.standard_accuracy, metrics.accuracy_under_attack) == (3, None, None)


def test_summary_json_rows_of_left_out_examples(tmp_path):
    summary = tmp_path / "s.json"
    summary.write_text(json.dumps({"Attack Results": {
        "Number of successful attacks:": 3, "Number of failed attacks:": 1, "Number of skipped attacks:": 6,
        SUMMARY_ROWS[Outcome.GOLD_ERROR]: 1, SUMMARY_ROWS[Outcome.VICTIM_ERROR]: 3,
        "Standard accuracy (errors left out):": None, "Avg num queries:": 7.25}}))
    metrics = read_attack_log(summary)
    assert (metrics.gold_errors, metrics.victim_errors) == (1, 3)
    assert metrics.standard_accuracy == pytest.approx(100 * 4 / 6)


def test_summary_rows_are_named_as_textattacks_table_shows_them():
    assert SUMMARY_ROWS == {
        Outcome.GOLD_ERROR: "Gold errors (left out):",
        Outcome.VICTIM_ERROR: "Victim errors (left out):",
    }


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"  \n\n", "is empty"),
        (",".join(FIELDS).encode() + b"\n", "has a header but no attack results"),
        (b"original_text,result_type\nq,Skipped\n", "Not a TextAttack CSV log: no 'perturbed_text'"),
        (b'{"Attack Results": {"Original accuracy:": 10}}', "Not a TextAttack summary JSON"),
        (b'{"something": "else"}', "Not a TextAttack summary JSON"),
        (b'{"Attack Results": ', "is not valid JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\xff\xfe", "is not a text file"),
    ],
)
def test_files_that_are_no_attack_log_give_a_one_line_error(tmp_path, content, message):
    path = tmp_path / "attack.log"
    path.write_bytes(content)
    with pytest.raises(DatasetError, match=message) as raised:
        read_attack_log(path)
    assert "\n" not in str(raised.value)


def test_missing_log_names_the_file(tmp_path):
    with pytest.raises(DatasetError, match=r"'.*missing\.csv' does not exist"):
        read_attack_log(tmp_path / "missing.csv")


@pytest.fixture(scope="module")
def real_log(tmp_path_factory):
    """The CSV log of a short real attack (semparse-geo on knn-geo, embedded geo-mini)."""
    from tests.helpers import run_command

    log = tmp_path_factory.mktemp("attack") / "log.csv"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-geo", "--model", "knn-geo", "--num-examples", "4",
        "--log-to-csv", str(log), "--disable-stdout", env={"SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return log


def _record_lines(path):
    """(first line, last line) of each CSV record after the header."""
    reader = csv.reader(path.open(newline=""))
    next(reader)
    spans, start = [], reader.line_num + 1
    for _ in reader:
        spans.append((start, reader.line_num))
        start = reader.line_num + 1
    return spans


def test_log_cut_in_its_last_row_is_read_without_that_row_and_names_its_line(real_log, tmp_path):
    whole = read_attack_log(real_log)
    text = real_log.read_text()
    cut = tmp_path / "killed.csv"
    cut.write_text(text[: len(text.rstrip("\n")) - 5])  # a kill while the last row was being written
    last_line = _record_lines(real_log)[-1][0]
    with pytest.warns(UserWarning, match=f"line {last_line} is an incomplete result row"):
        metrics = read_attack_log(cut)
    assert metrics.examples == whole.examples - 1 == 3


def test_metrics_command_reports_the_left_out_line(real_log, tmp_path):
    from tests.helpers import run_command

    text = real_log.read_text()
    cut = tmp_path / "killed.csv"
    cut.write_text(text[: len(text) // 2 + text[len(text) // 2 :].index(",") + 1])
    result = run_command("textattack-semparse", "metrics", str(cut))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "is an incomplete result row" in result.stderr and "left out of the metrics" in result.stderr


def test_malformed_row_before_the_last_is_refused_with_its_line(real_log, tmp_path):
    lines = real_log.read_text().splitlines(keepends=True)
    first_start, first_end = _record_lines(real_log)[0]
    broken = tmp_path / "broken.csv"
    broken.write_text("".join(lines[: first_start - 1] + ['"half a row",3\n'] + lines[first_end:]))
    with pytest.raises(DatasetError, match=f"line {first_start} is not a result row"):
        read_attack_log(broken)
