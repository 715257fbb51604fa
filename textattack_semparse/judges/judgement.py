"""What a meaning judge is asked and what it answers: a rewrite of a question, and whether it
asks the same thing of the database.

Original to textattack-semparse.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from textattack_semparse.errors import DatasetError

TALLY_EXAMPLES = 5
"""Rejected rewrites a tally keeps, so a reader can check the judge's reasons."""


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


@dataclass
class JudgeTally:
    """How many rewrites a judge saw and how many it rejected, with the first
    :data:`TALLY_EXAMPLES` rejections as ``(original, rewrite, reason)``: what a manifest, an
    augmentation and an attack report of their judge.

    Example:
        >>> tally = JudgeTally()
        >>> tally.add(RewritePair("where is dallas", "is dallas"), Judgement(Verdict.DIFFERENT, "dropped 'where'"))
        >>> tally.add(RewritePair("where is dallas", "where is dallas located"), Judgement(Verdict.SAME, "ok"))
        >>> tally.judged, tally.rejected, tally.acceptance
        (2, 1, 0.5)
    """

    judged: int = 0
    rejected: int = 0
    examples: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def acceptance(self) -> float | None:
        """The share of judged rewrites kept (``None`` when none was judged)."""
        return None if self.judged == 0 else (self.judged - self.rejected) / self.judged

    def add(self, pair: RewritePair, judgement: Judgement) -> None:
        """Count one judgement."""
        self.judged += 1
        if not judgement.keeps_meaning:
            self.rejected += 1
            if len(self.examples) < TALLY_EXAMPLES:
                self.examples.append((pair.original, pair.rewrite, judgement.reason))

    def merge(self, other: JudgeTally) -> None:
        """Add ``other``'s counts (and examples, up to the limit)."""
        self.judged += other.judged
        self.rejected += other.rejected
        self.examples.extend(other.examples[: max(TALLY_EXAMPLES - len(self.examples), 0)])

    def describe(self) -> str:
        """What was kept of what was judged, in words.

        Example:
            >>> JudgeTally(judged=4, rejected=1).describe(), JudgeTally().describe()
            ('3 of 4 kept (75%)', 'none judged')
        """
        if self.acceptance is None:
            return "none judged"
        return f"{self.judged - self.rejected} of {self.judged} kept ({self.acceptance:.0%})"

    def to_json(self) -> dict[str, Any]:
        return {
            "judged": self.judged,
            "rejected": self.rejected,
            "examples": [
                {"original": original, "rewrite": rewrite, "reason": reason}
                for original, rewrite, reason in self.examples
            ],
        }

    @classmethod
    def from_json(cls, record: Any, source: str) -> JudgeTally:
        """The tally :meth:`to_json` wrote; ``DatasetError`` naming ``source`` otherwise."""
        try:
            examples = [
                (str(item["original"]), str(item["rewrite"]), str(item["reason"])) for item in record["examples"]
            ]
            return cls(int(record["judged"]), int(record["rejected"]), examples)
        except (KeyError, TypeError, ValueError):
            raise DatasetError(
                f'{source}: expected {{"judged", "rejected", "examples"}}, got {record!r:.200}.'
            ) from None
