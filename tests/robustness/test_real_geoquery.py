"""The robustness evaluation on the real GeoQuery question split (needs SEMPARSE_DATA_DIR)."""

from __future__ import annotations

from textattack_semparse.robustness.build_test_set import build_test_set
from textattack_semparse.robustness.evaluate_test_set import evaluate_test_set
from textattack_semparse.victims.resolution import resolve_victim


def test_knn_geo_on_the_first_geoquery_test_questions(real_data_dir):
    test_set = build_test_set("geo-question-test", ["deletion", "distraction"], selection=(None, None), limit=15)
    victim, _ = resolve_victim("knn-geo")
    report = evaluate_test_set(victim, test_set, victim_name="knn-geo")
    assert report.database.endswith("geography.sqlite")
    assert report.scoring == f"execution match (classical) on {report.database}"
    assert report.original_examples == 15
    assert report.perturbations["distraction"].utterances + report.perturbations["distraction"].gold_errors >= 14
    assert report.micro.robust_total <= report.micro.utterances
    assert not report.loss_available
