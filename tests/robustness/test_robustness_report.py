"""Robustness reports: JSON round trip, CSV rows, table rows."""

from __future__ import annotations

import csv
import json

import pytest

from textattack_semparse.errors import DatasetError
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics
from textattack_semparse.robustness.robustness_report import CSV_COLUMNS, TABLE_COLUMNS, RobustnessReport


def report(loss: bool = False, victim_errors: int = 0) -> RobustnessReport:
    def loss_counts(increased: int, incorrect: int) -> dict[str, int | None]:
        return {"loss_increased": increased if loss else None, "loss_increased_incorrect": incorrect if loss else None}

    return RobustnessReport(
        victim="knn-geo",
        dataset="geo-question-test",
        scoring="execution match (classical) on /data/geography.sqlite",
        database="/data/geography.sqlite",
        original_examples=10,
        original_correct=6,
        original_gold_errors=2,
        original_victim_errors=victim_errors,
        perturbations={
            "deletion": RobustnessMetrics(4, 3, 4, 2, 3, 2, **loss_counts(2, 1), gold_errors=1),
            "distraction": RobustnessMetrics(8, 6, 8, 7, 6, 6, **loss_counts(0, 0)),
        },
        loss_available=loss,
        test_set={"setting": "huang-2021", "candidates": 1, "keep": 1, "seed": 0},
        notes=() if loss else ("victim knn-geo cannot compute its loss on the gold query; success rate of black-box attack not available",),
    )


def test_standard_accuracy_leaves_out_gold_errors():
    assert report().standard_accuracy == 75.0  # 6 of the 8 scorable originals


def test_standard_accuracy_leaves_out_victim_errors_too():
    assert report(victim_errors=2).standard_accuracy == 100.0  # 6 of the 6 judged originals


def test_json_reports_victim_errors_and_reads_them_back():
    data = report(victim_errors=2).to_json()
    assert data["originals"]["victim_errors"] == 2 and data["originals"]["standard_accuracy"] == 100.0
    assert RobustnessReport.from_json(json.loads(json.dumps(data))).original_victim_errors == 2


def test_json_written_before_victim_errors_reads_as_none_left_out():
    data = report().to_json()
    del data["originals"]["victim_errors"]
    assert RobustnessReport.from_json(data).original_victim_errors == 0


def test_json_has_originals_rows_and_averages_and_reads_back():
    data = report(loss=True).to_json()
    assert data["originals"] == {
        "examples": 10, "correct": 6, "gold_errors": 2, "victim_errors": 0, "standard_accuracy": 75.0
    }
    assert data["scoring"] == "execution match (classical) on /data/geography.sqlite"
    assert data["perturbations"]["deletion"]["robust_accuracy"] == pytest.approx(100 * 2 / 3)
    assert data["perturbations"]["deletion"]["black_box_success_rate"] == 50.0
    assert data["micro"]["utterances"] == 12
    assert data["macro"]["perturbation_accuracy"] == pytest.approx((50.0 + 87.5) / 2)
    again = RobustnessReport.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data


def test_json_of_a_victim_without_loss_has_null_black_box_rates():
    data = report().to_json()
    assert data["loss_available"] is False
    assert data["micro"]["black_box_success_rate"] is None
    assert data["macro"]["black_box_success_rate"] is None
    assert "cannot compute its loss" in data["notes"][0]


def test_csv_has_a_row_per_perturbation_then_micro_macro_originals(tmp_path):
    path = tmp_path / "r.csv"
    report().write_csv(path)
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [row["row"] for row in rows] == ["deletion", "distraction", "micro", "macro", "originals"]
    assert rows[0]["black_box_success_rate"] == ""
    assert float(rows[4]["standard_accuracy"]) == 75.0
    assert rows[3]["utterances"] == ""


def test_table_rows_match_the_table_columns():
    rows = report().table_rows()
    assert [row[0] for row in rows] == ["deletion", "distraction", "micro", "macro"]
    assert all(len(row) == len(TABLE_COLUMNS) for row in rows)


def test_read_rejects_files_that_are_not_reports(tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"Attack Results": {}}', encoding="utf-8")
    with pytest.raises(DatasetError, match="not a robustness report"):
        RobustnessReport.read(path)
    with pytest.raises(DatasetError, match="does not exist"):
        RobustnessReport.read(tmp_path / "missing.json")
