"""What a meaning judge is asked and what it answers: a rewrite of a question, and whether it
asks the same thing of the database.

Original to textattack-semparse.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Verdict(str, enum.Enum):
    """A judge's answer, in the three options Huang et al. (2021) gave their crowd workers."""

    SAME = "same"
    DIFFERENT = "different"
    UNSURE = "unsure"


@dataclass(frozen=True)
class RewritePair:
    """A question and its rewrite, with the gold output when it is known (SQL or a logical form:
    its values and predicates name the words the rewrite must keep).

    Example:
        >>> RewritePair("where is dallas", "where is dallas located").gold is None
        True
    """

    original: str
    rewrite: str
    gold: str | None = None


@dataclass(frozen=True)
class Judgement:
    """A verdict and the reason for it, in words a person checks quickly ("deleted 'most'").

    Example:
        >>> Judgement(Verdict.DIFFERENT, "deleted 'most' (quantifier)").keeps_meaning
        False
    """

    verdict: Verdict
    reason: str

    @property
    def keeps_meaning(self) -> bool:
        """Whether the rewrite may be kept: only a ``same`` verdict keeps it (``unsure`` does not,
        as Huang et al.'s rule counts only "same" votes)."""
        return self.verdict is Verdict.SAME
