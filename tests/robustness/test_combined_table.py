"""Several reports side by side: perturbations x (dataset / victim)."""

from __future__ import annotations

import pytest

from textattack_semparse.robustness.combined_table import ORIGINALS_ROW, combined_table
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics
from textattack_semparse.robustness.robustness_report import RobustnessReport


def report(dataset: str, victim: str, perturbations: dict[str, RobustnessMetrics], setting: str | None = None) -> RobustnessReport:
    return RobustnessReport(
        victim, dataset, "execution", None, 4, 2, 0, perturbations, loss_available=False, test_set={"setting": setting}
    )


GEO = report("geo", "knn-geo", {"deletion": RobustnessMetrics(2, 2, 2, 1, 2, 1), "distraction": RobustnessMetrics(4, 2, 4, 4, 2, 2)})
ATIS = report("atis", "knn-atis", {"distraction": RobustnessMetrics(1, 1, 1, 0, 1, 0), "insertion": RobustnessMetrics(1, 1, 1, 1, 1, 1)})


def test_rows_are_the_union_of_perturbations_then_averages_and_originals():
    columns, rows = combined_table([GEO, ATIS], "robust_accuracy")
    assert columns == ["perturbation", "geo / knn-geo", "atis / knn-atis"]
    assert rows == [
        ["deletion", 50.0, None],
        ["distraction", 100.0, 0.0],
        ["insertion", None, 100.0],
        ["micro", 75.0, 50.0],
        ["macro", 75.0, 50.0],
        [ORIGINALS_ROW, 50.0, 50.0],
    ]


def test_same_dataset_and_victim_twice_get_distinct_headings():
    columns, _ = combined_table([GEO, GEO, GEO], "perturbation_accuracy")
    assert columns[1:] == ["geo / knn-geo", "geo / knn-geo #2", "geo / knn-geo #3"]


def test_same_dataset_and_victim_in_two_settings_are_told_apart_by_setting():
    huang = report("geo", "knn-geo", {}, setting="huang-2021")
    zhuo = report("geo", "knn-geo", {}, setting="zhuo-2023")
    columns, _ = combined_table([huang, zhuo, ATIS])
    assert columns[1:] == ["geo / knn-geo (huang-2021)", "geo / knn-geo (zhuo-2023)", "atis / knn-atis"]


def test_unknown_metric_suggests_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'robust_accuracy'"):
        combined_table([GEO], "robust_acuracy")
