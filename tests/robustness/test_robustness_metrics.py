"""The four robustness metrics on constructed outcomes, with hand-computed values."""

from __future__ import annotations

import pytest

from textattack_semparse.robustness.robustness_metrics import (
    RATES,
    RobustnessMetrics,
    macro_average,
    micro_average,
)
from textattack_semparse.robustness.utterance_outcome import UtteranceOutcome


def outcome(perturbation: str, example_id: int, original: bool, perturbed: bool, increased: bool | None = None):
    return UtteranceOutcome(perturbation, example_id, original, perturbed, increased)


# Perturbation "a": 2 examples, both originals correct, one perturbed utterance wrong.
A = [outcome("a", 0, True, True), outcome("a", 1, True, False)]
# Perturbation "b": 4 examples, originals 2 of 4 correct; example 2 is fixed by the perturbation.
B = [outcome("b", 0, True, True), outcome("b", 1, True, True), outcome("b", 2, False, True), outcome("b", 3, False, False)]


def rows() -> list[RobustnessMetrics]:
    return [RobustnessMetrics.from_outcomes(group, loss_available=False) for group in (A, B)]


def test_per_perturbation_rates_by_hand():
    a, b = rows()
    assert a.rates() == {
        "standard_accuracy": 100.0,
        "perturbation_accuracy": 50.0,
        "robust_accuracy": 50.0,
        "black_box_success_rate": None,
    }
    assert (b.standard_accuracy, b.perturbation_accuracy, b.robust_accuracy) == (50.0, 75.0, 100.0)


def test_robust_accuracy_denominator_is_the_originally_correct_examples():
    b = rows()[1]
    # Example 2 is correct only after perturbation: it counts for perturbation accuracy, not robust accuracy.
    assert (b.robust_total, b.robust_correct) == (2, 2)
    assert (b.utterances, b.utterances_correct) == (4, 3)


def test_micro_pools_counts_and_macro_averages_rates_and_they_differ():
    micro = micro_average(rows())
    macro = macro_average(rows())
    assert micro.standard_accuracy == pytest.approx(100 * 4 / 6)
    assert micro.perturbation_accuracy == pytest.approx(100 * 4 / 6)
    assert micro.robust_accuracy == pytest.approx(75.0)  # (1 + 2) / (2 + 2)
    assert macro == {
        "standard_accuracy": 75.0,
        "perturbation_accuracy": 62.5,
        "robust_accuracy": 75.0,
        "black_box_success_rate": None,
    }
    assert micro.perturbation_accuracy != pytest.approx(macro["perturbation_accuracy"])


def test_several_utterances_of_one_example_count_the_example_once_and_each_utterance():
    metrics = RobustnessMetrics.from_outcomes(
        [outcome("c", 0, True, True), outcome("c", 0, True, False), outcome("c", 0, True, False)], loss_available=False
    )
    assert (metrics.examples, metrics.utterances) == (1, 3)
    assert metrics.standard_accuracy == 100.0
    assert metrics.perturbation_accuracy == pytest.approx(100 / 3)
    assert metrics.robust_accuracy == pytest.approx(100 / 3)


def test_black_box_success_counts_failures_among_utterances_whose_loss_increased():
    outcomes = [
        outcome("d", 0, True, False, True),  # loss up, wrong: a success
        outcome("d", 1, True, True, True),  # loss up, still right
        outcome("d", 2, True, False, False),  # wrong, but the loss did not increase: not counted
        outcome("d", 3, False, False, False),
    ]
    metrics = RobustnessMetrics.from_outcomes(outcomes, loss_available=True)
    assert (metrics.loss_increased, metrics.loss_increased_incorrect) == (2, 1)
    assert metrics.black_box_success_rate == 50.0


def test_black_box_success_is_none_without_a_loss():
    outcomes = [outcome("d", 0, True, False, None)]
    assert RobustnessMetrics.from_outcomes(outcomes, loss_available=False).black_box_success_rate is None


def test_black_box_success_is_none_when_no_loss_increased():
    metrics = RobustnessMetrics.from_outcomes([outcome("d", 0, True, False, False)], loss_available=True)
    assert metrics.loss_increased == 0
    assert metrics.black_box_success_rate is None


def test_loss_available_with_missing_loss_is_rejected():
    with pytest.raises(ValueError, match="loss_increased=None"):
        RobustnessMetrics.from_outcomes([outcome("d", 0, True, True, None)], loss_available=True)


def test_pooling_rows_with_and_without_loss_is_rejected():
    with_loss = RobustnessMetrics.from_outcomes([outcome("d", 0, True, True, True)], loss_available=True)
    without = RobustnessMetrics.from_outcomes([outcome("e", 0, True, True)], loss_available=False)
    with pytest.raises(ValueError, match="with and without"):
        micro_average([with_loss, without])


def test_micro_black_box_pools_loss_counts():
    first = RobustnessMetrics.from_outcomes([outcome("d", 0, True, False, True)], loss_available=True)
    second = RobustnessMetrics.from_outcomes(
        [outcome("e", 0, True, True, True), outcome("e", 1, True, True, True), outcome("e", 2, True, True, True)],
        loss_available=True,
    )
    assert micro_average([first, second]).black_box_success_rate == 25.0
    assert macro_average([first, second])["black_box_success_rate"] == 50.0


def test_empty_rows_have_no_rates():
    empty = RobustnessMetrics.from_outcomes([], loss_available=True)
    assert all(value is None for value in empty.rates().values())
    assert all(value is None for value in macro_average([]).values())
    assert micro_average([]).utterances == 0


def test_gold_errors_are_carried_and_pooled():
    first = RobustnessMetrics.from_outcomes(A, loss_available=False, gold_errors=2)
    second = RobustnessMetrics.from_outcomes(B, loss_available=False, gold_errors=1)
    assert (first + second).gold_errors == 3


def test_to_dict_has_counts_and_the_four_rates():
    data = rows()[0].to_dict()
    assert set(RATES) <= set(data)
    assert data["robust_total"] == 2
