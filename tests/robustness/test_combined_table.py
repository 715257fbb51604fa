"""Several reports side by side: perturbations x (dataset / victim)."""

from __future__ import annotations

import pytest

from textattack_semparse.robustness.combined_table import ORIGINALS_ROW, combined_table
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics
from textattack_semparse.robustness.robustness_report import RobustnessReport


def report(dataset: str, victim: str, perturbations: dict[str, RobustnessMetrics]) -> RobustnessReport:
    return RobustnessReport(victim, dataset, "execution", None, 4, 2, 0, perturbations, loss_available=False)


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


def test_unknown_metric_suggests_the_closest():
    with pytest.raises(ValueError, match="Did you mean 'robust_accuracy'"):
        combined_table([GEO], "robust_acuracy")
