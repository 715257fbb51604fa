"""How well a meaning judge agrees with people: on the same rewrites, does it keep what they keep?

Both sides are reduced to keep / reject: the judge keeps a rewrite it calls ``same`` (``unsure``
rejects, as in every pipeline), people keep one their rule keeps (a single person's label: keep
on ``same``). Reported: accuracy (share of rewrites where both agree), Cohen's kappa (agreement
beyond chance), and the recall of the rejected rewrites: the share of those people rejected that
the judge did not call the same, the errors a judge exists to catch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from textattack_semparse.metrics.accuracy import percent
from textattack_semparse.validation.kappa import cohen_kappa

KEEP, REJECT = "keep", "reject"


@dataclass(frozen=True)
class Agreement:
    """A judge's agreement with people on the rewrites of one group (rates in percent).

    Args:
        group (str): ``all``, or the class or perturbation the rewrites share.
        pairs (int): Rewrites both judged.
        accuracy (float | None): Share of them on which the judge and people agree.
        cohen_kappa (float | None): Cohen's kappa of keep / reject (``None`` when undefined).
        people_rejected (int): Rewrites people rejected.
        rejected_recall (float | None): Share of those the judge did not call the same.
        judge_kept_rejected (int): Rewrites people rejected but the judge called the same.
    """

    group: str
    pairs: int
    accuracy: float | None
    cohen_kappa: float | None
    people_rejected: int
    rejected_recall: float | None
    judge_kept_rejected: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def judge_agreement(judge_keeps: Sequence[bool], people_keep: Sequence[bool], *, group: str = "all") -> Agreement:
    """The agreement of a judge's keep / reject with people's on the same rewrites, in order.

    Example:
        >>> result = judge_agreement([True, True, False, False], [True, False, False, True])
        >>> result.accuracy, result.people_rejected, result.rejected_recall
        (50.0, 2, 50.0)
    """
    judge = [KEEP if keeps else REJECT for keeps in judge_keeps]
    people = [KEEP if keeps else REJECT for keeps in people_keep]
    rejected = [index for index, label in enumerate(people) if label == REJECT]
    caught = sum(judge[index] == REJECT for index in rejected)
    return Agreement(
        group=group,
        pairs=len(people),
        accuracy=percent(sum(a == b for a, b in zip(judge, people, strict=True)), len(people)),
        cohen_kappa=cohen_kappa(judge, people),
        people_rejected=len(rejected),
        rejected_recall=percent(caught, len(rejected)),
        judge_kept_rejected=len(rejected) - caught,
    )
