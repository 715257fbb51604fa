"""The robustness metrics of Huang et al. (2021), per perturbation, micro- and macro-averaged.

For the perturbed utterances of one perturbation (utterances whose gold query fails to
execute are excluded beforehand and counted as gold errors), in percent:

* **standard accuracy**: correct originals among the examples the perturbation applied to;
* **perturbation accuracy**: correct perturbed utterances among all perturbed utterances;
* **robust accuracy**: correct perturbed utterances among those whose original is correct;
* **success rate of black-box attack**: incorrect perturbed utterances among those whose
  loss on the gold output is higher than the original's (Huang et al. 2021, §3.2).

Micro averages pool the counts of all perturbations (every perturbed utterance weighs the
same); macro averages are the mean of the per-perturbation rates (every perturbation weighs
the same; undefined rates are left out). Huang, Li, Qu and Pan (2021), "On Robustness of
Neural Semantic Parsers", EACL 2021, https://aclanthology.org/2021.eacl-main.292/.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from textattack_semparse.metrics import accuracy
from textattack_semparse.robustness.utterance_outcome import UtteranceOutcome

RATES = ("standard_accuracy", "perturbation_accuracy", "robust_accuracy", "black_box_success_rate")
"""The four metrics, in the order the tables show them."""

ROBUT_RATES = ("pre_attack_accuracy", "perturbation_accuracy", "robust_accuracy")
"""RobuT's three metrics (Zhao et al. 2023, https://arxiv.org/abs/2306.14321): pre-attack,
post-attack (= perturbation accuracy) and robust accuracy, the same robust accuracy as Huang's."""


@dataclass(frozen=True)
class RobustnessMetrics:
    """The counts behind the four robustness metrics of a set of perturbed utterances.

    Counts add up (``a + b`` pools two sets, which is how micro averages are formed); the
    rates are properties in percent, ``None`` when their denominator is zero. Utterances count
    by their weight: 1, or ``1 / turns`` for the turns of a question sequence (RobuT's SQA), so
    the utterance counts are then fractional and each sequence counts once, its turns averaged.

    Original to textattack-semparse (the metric definitions are Huang et al.'s, see the
    module docstring).

    Args:
        examples (int): Distinct examples with at least one scored perturbed utterance
            (pooled sets count an example once per perturbation).
        examples_correct (int): Those whose original question is parsed correctly.
        utterances (float): Scored perturbed utterances (by weight; an int when whole).
        utterances_correct (float): Those parsed correctly.
        robust_total (float): Perturbed utterances whose original is parsed correctly.
        robust_correct (float): Those parsed correctly.
        loss_increased (float | None): Perturbed utterances whose gold loss exceeds the
            original's; ``None`` when the victim gives no loss.
        loss_increased_incorrect (float | None): Those parsed incorrectly.
        gold_errors (int): Examples excluded because their gold query fails to execute.
        victim_errors (int): Perturbed utterances excluded because the victim failed on them
            or on their original.

    Example:
        >>> outcomes = [UtteranceOutcome("deletion", 0, True, False, True),
        ...             UtteranceOutcome("deletion", 1, False, False, False)]
        >>> metrics = RobustnessMetrics.from_outcomes(outcomes, loss_available=True)
        >>> metrics.standard_accuracy, metrics.perturbation_accuracy, metrics.robust_accuracy
        (50.0, 0.0, 0.0)
        >>> metrics.black_box_success_rate
        100.0
    """

    examples: int = 0
    examples_correct: int = 0
    utterances: float = 0
    utterances_correct: float = 0
    robust_total: float = 0
    robust_correct: float = 0
    loss_increased: float | None = None
    loss_increased_incorrect: float | None = None
    gold_errors: int = 0
    victim_errors: int = 0

    @classmethod
    def from_outcomes(
        cls,
        outcomes: Iterable[UtteranceOutcome],
        *,
        loss_available: bool,
        gold_errors: int = 0,
        victim_errors: int = 0,
    ) -> RobustnessMetrics:
        """Count ``outcomes`` (one perturbation's, for a per-perturbation row).

        Raises:
            ValueError: ``loss_available`` but an outcome has no ``loss_increased``.
        """
        outcomes = list(outcomes)
        originals = {outcome.example_id: outcome.original_correct for outcome in outcomes}
        robust = [outcome for outcome in outcomes if outcome.original_correct]
        increased: list[UtteranceOutcome] | None = None
        if loss_available:
            if any(outcome.loss_increased is None for outcome in outcomes):
                raise ValueError("loss_available=True, but some outcomes have loss_increased=None.")
            increased = [outcome for outcome in outcomes if outcome.loss_increased]
        return cls(
            examples=len(originals),
            examples_correct=sum(originals.values()),
            utterances=_weighted(outcomes),
            utterances_correct=_weighted(outcome for outcome in outcomes if outcome.perturbed_correct),
            robust_total=_weighted(robust),
            robust_correct=_weighted(outcome for outcome in robust if outcome.perturbed_correct),
            loss_increased=None if increased is None else _weighted(increased),
            loss_increased_incorrect=None if increased is None else _weighted(o for o in increased if not o.perturbed_correct),
            gold_errors=gold_errors,
            victim_errors=victim_errors,
        )

    def __add__(self, other: RobustnessMetrics) -> RobustnessMetrics:
        if not isinstance(other, RobustnessMetrics):
            return NotImplemented
        if (self.loss_increased is None) != (other.loss_increased is None):
            raise ValueError("Cannot pool metrics with and without a victim loss.")
        pooled: dict[str, Any] = {}
        for name, value in asdict(self).items():
            value_other = getattr(other, name)
            pooled[name] = None if value is None else value + value_other
        return RobustnessMetrics(**pooled)

    standard_accuracy = property(lambda self: accuracy.standard_accuracy(self.examples_correct, self.examples))
    perturbation_accuracy = property(
        lambda self: accuracy.perturbation_accuracy(self.utterances_correct, self.utterances)
    )
    robust_accuracy = property(lambda self: accuracy.robust_accuracy(self.robust_correct, self.robust_total))
    pre_attack_accuracy = property(lambda self: accuracy.pre_attack_accuracy(self.robust_total, self.utterances))
    black_box_success_rate = property(
        lambda self: accuracy.black_box_success_rate(self.loss_increased_incorrect, self.loss_increased)
    )

    def rates(self) -> dict[str, float | None]:
        """The four metrics by name (see :data:`RATES`)."""
        return {name: getattr(self, name) for name in RATES}

    def robut_rates(self) -> dict[str, float | None]:
        """RobuT's three metrics by name (see :data:`ROBUT_RATES`)."""
        return {name: getattr(self, name) for name in ROBUT_RATES}

    def to_dict(self) -> dict[str, Any]:
        """Counts and rates."""
        return {**asdict(self), **self.rates()}


def _weighted(outcomes: Iterable[UtteranceOutcome]) -> int | float:
    """The summed weights of ``outcomes``, exactly: an int when whole (every weight 1, or whole
    sequences), else a float."""
    total = sum((outcome.weight for outcome in outcomes), Fraction(0))
    return int(total) if total.denominator == 1 else float(total)


def micro_average(rows: Iterable[RobustnessMetrics]) -> RobustnessMetrics:
    """The pooled counts of ``rows`` (empty: no counts).

    Example:
        >>> a = RobustnessMetrics(utterances=1, utterances_correct=1)
        >>> b = RobustnessMetrics(utterances=3, utterances_correct=0)
        >>> micro_average([a, b]).perturbation_accuracy
        25.0
    """
    rows = list(rows)
    return functools.reduce(operator.add, rows) if rows else RobustnessMetrics()


def macro_average(rows: Iterable[RobustnessMetrics], rates: Sequence[str] = RATES) -> dict[str, float | None]:
    """The mean of each of ``rates`` over ``rows``, leaving out rows where it is undefined.

    Example:
        >>> a = RobustnessMetrics(utterances=1, utterances_correct=1)
        >>> b = RobustnessMetrics(utterances=3, utterances_correct=0)
        >>> macro_average([a, b])["perturbation_accuracy"]
        50.0
    """
    rows = list(rows)
    averages: dict[str, float | None] = {}
    for name in rates:
        values = [value for value in (getattr(row, name) for row in rows) if value is not None]
        averages[name] = sum(values) / len(values) if values else None
    return averages
