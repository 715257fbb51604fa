"""The papers' accuracies, defined once for attack logs and robustness evaluations alike.

Huang, Li, Qu and Pan (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
https://aclanthology.org/2021.eacl-main.292/: *standard accuracy* on the original
questions, *perturbation accuracy* on perturbed ones, *robust accuracy* on perturbed
questions whose original is parsed correctly, and the *success rate of black-box attack*;
TextAttack's *attack success rate* over attacked examples. Examples left out (gold errors,
victim errors: :class:`~textattack_semparse.scoring.outcome.Outcome`) are in no denominator.
Rates are in percent, ``None`` when the denominator is zero.

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321) reports
per perturbation *pre-attack accuracy* (the originals' accuracy counted once per perturbed
example), *post-attack accuracy* (Huang's perturbation accuracy) and *robust accuracy*
(Huang's: perturbed examples answered correctly among those whose original is answered
correctly).
"""

from __future__ import annotations


def percent(part: int | float | None, whole: int | float | None) -> float | None:
    """``100 * part / whole``; ``None`` when either is missing or ``whole`` is zero.

    Example:
        >>> percent(1, 4), percent(0, 0)
        (25.0, None)
    """
    return 100.0 * part / whole if part is not None and whole else None


def standard_accuracy(correct: int, judged: int) -> float | None:
    """Correct original predictions among the judged originals (left-out examples excluded).

    Example:
        >>> standard_accuracy(156, 277)
        56.31768953068592
    """
    return percent(correct, judged)


def perturbation_accuracy(correct: float, perturbed: float) -> float | None:
    """Correct predictions among all judged perturbed questions."""
    return percent(correct, perturbed)


def robust_accuracy(still_correct: float, correct_before: float) -> float | None:
    """Perturbed questions still parsed correctly among those whose original is parsed
    correctly (in an attack: failed attacks among attacked examples)."""
    return percent(still_correct, correct_before)


def pre_attack_accuracy(original_correct: float, perturbed: float) -> float | None:
    """RobuT's pre-attack accuracy: perturbed examples whose original is answered correctly,
    among all perturbed examples (equal to standard accuracy when each example has one).

    Example:
        >>> pre_attack_accuracy(3, 4)
        75.0
    """
    return percent(original_correct, perturbed)


def attack_success_rate(succeeded: int, attacked: int) -> float | None:
    """Successful attacks among attacked examples (originals parsed correctly)."""
    return percent(succeeded, attacked)


def black_box_success_rate(incorrect: float | None, loss_increased: float | None) -> float | None:
    """Huang et al. §3.2: perturbed questions parsed incorrectly among those whose loss on the
    gold output exceeds the original's (``None`` for victims without a loss)."""
    return percent(incorrect, loss_increased)
