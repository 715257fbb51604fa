"""The papers' accuracies (metrics/accuracy.py), each computed from its rule on hand-made outcomes.

Huang, Li, Qu and Pan (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
https://aclanthology.org/2021.eacl-main.292/, §3.2, define (paraphrased; the package's
docs/robustness.md tabulates the same rules):

* standard accuracy: the share of original questions parsed correctly;
* perturbation accuracy: the share of perturbed questions parsed correctly;
* robust accuracy: the share of perturbed questions parsed correctly among those whose
  original question is parsed correctly;
* success rate of black-box attack: the share of perturbed questions parsed incorrectly among
  those whose loss on the gold output is higher than the original's.

TextAttack's attack success rate is the share of successful attacks among attacked examples.
Left-out examples (gold errors, victim errors) are in no denominator. Every test below lists
per-example outcomes, applies the rule by counting, and compares with the function.
"""

from __future__ import annotations

import pytest

from textattack_semparse.metrics import accuracy
from textattack_semparse.metrics.accuracy import (
    attack_success_rate,
    black_box_success_rate,
    percent,
    perturbation_accuracy,
    robust_accuracy,
    standard_accuracy,
)
from textattack_semparse.scoring.outcome import Outcome

C, W, G, V = Outcome.CORRECT, Outcome.WRONG, Outcome.GOLD_ERROR, Outcome.VICTIM_ERROR

# (original outcome, perturbed outcome, loss on the gold rose after perturbation)
UTTERANCES = [
    (C, C, False),
    (C, W, True),
    (C, W, False),
    (C, C, True),
    (W, C, False),
    (W, W, True),
    (G, W, True),  # left out: the gold cannot be evaluated
    (C, V, True),  # left out: the victim failed on the perturbed question
    (V, C, False),  # left out: the victim failed on the original
]


def judged(utterances):
    return [(o, p, loss) for o, p, loss in utterances if not o.left_out and not p.left_out]


def test_percent_is_a_share_in_percent():
    assert percent(1, 4) == 25.0 and percent(3, 3) == 100.0 and percent(0, 5) == 0.0


@pytest.mark.parametrize(("part", "whole"), [(0, 0), (3, 0), (None, 4), (2, None), (None, None)])
def test_percent_is_undefined_without_a_denominator(part, whole):
    assert percent(part, whole) is None


def test_standard_accuracy_is_correct_originals_among_judged_originals():
    originals = [o for o, _, _ in UTTERANCES]
    kept = [o for o in originals if not o.left_out]
    assert standard_accuracy(kept.count(C), len(kept)) == pytest.approx(100 * 5 / 7)
    # Left-out originals are in no denominator: counting them would give 5/9.
    assert standard_accuracy(kept.count(C), len(kept)) != pytest.approx(100 * 5 / len(originals))


def test_standard_accuracy_of_the_docstring():
    assert standard_accuracy(156, 277) == pytest.approx(56.31768953068592)


def test_perturbation_accuracy_is_correct_perturbed_among_all_judged_perturbed():
    rows = judged(UTTERANCES)
    correct = sum(p is C for _, p, _ in rows)
    assert (correct, len(rows)) == (3, 6)
    assert perturbation_accuracy(correct, len(rows)) == 50.0


def test_robust_accuracy_counts_only_perturbed_questions_whose_original_is_correct():
    rows = [row for row in judged(UTTERANCES) if row[0] is C]
    still_correct = sum(p is C for _, p, _ in rows)
    assert (still_correct, len(rows)) == (2, 4)
    assert robust_accuracy(still_correct, len(rows)) == 50.0


def test_robust_accuracy_ignores_a_wrong_original_fixed_by_the_perturbation():
    rows = [(W, C, False), (C, W, False)]
    correct_before = [row for row in rows if row[0] is C]
    assert robust_accuracy(sum(p is C for _, p, _ in correct_before), len(correct_before)) == 0.0
    assert perturbation_accuracy(sum(p is C for _, p, _ in rows), len(rows)) == 50.0


def test_black_box_success_rate_is_incorrect_among_loss_increased():
    rows = [row for row in judged(UTTERANCES) if row[2]]
    incorrect = sum(p is W for _, p, _ in rows)
    assert (incorrect, len(rows)) == (2, 3)
    assert black_box_success_rate(incorrect, len(rows)) == pytest.approx(100 * 2 / 3)


def test_black_box_success_rate_is_none_for_victims_without_a_loss():
    assert black_box_success_rate(None, None) is None
    assert black_box_success_rate(0, 0) is None


def test_attack_success_rate_is_successes_among_attacked_examples():
    # An attack is tried only on originals parsed correctly; skipped examples are not attacked.
    results = ["Successful", "Failed", "Failed", "Successful", "Successful", "Skipped", "Skipped"]
    attacked = [r for r in results if r != "Skipped"]
    assert attack_success_rate(attacked.count("Successful"), len(attacked)) == 60.0


def test_robust_accuracy_of_an_attack_is_failed_attacks_among_attacked():
    results = ["Successful", "Failed", "Failed", "Successful", "Successful"]
    failed = results.count("Failed")
    assert robust_accuracy(failed, len(results)) == 40.0
    assert robust_accuracy(failed, len(results)) + attack_success_rate(results.count("Successful"), len(results)) == 100.0


@pytest.mark.parametrize(
    "rate", [standard_accuracy, perturbation_accuracy, robust_accuracy, attack_success_rate, black_box_success_rate]
)
def test_every_rate_is_none_when_nothing_was_judged(rate):
    assert rate(0, 0) is None


def test_one_definition_each_used_by_attack_metrics_and_robustness_metrics():
    from textattack_semparse.metrics import attack_metrics
    from textattack_semparse.robustness import robustness_metrics

    assert attack_metrics.standard_accuracy is accuracy.standard_accuracy
    assert attack_metrics.robust_accuracy is accuracy.robust_accuracy
    assert attack_metrics.attack_success_rate is accuracy.attack_success_rate
    assert robustness_metrics.accuracy is accuracy
