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

LAYER_EXAMPLES = 3
"""Judgements a tally keeps per layer and verdict, so a reader can check what each layer decided."""


class Verdict(str, enum.Enum):
    """A judge's answer, in the three options Huang et al. (2021) gave their crowd workers."""

    SAME = "same"
    DIFFERENT = "different"
    UNSURE = "unsure"


@dataclass(frozen=True)
class RewritePair:
    """A question and its rewrite, with the gold output when it is known (SQL or a logical form:
    its values and predicates name the words the rewrite must keep) and the words of the schema
    it is asked of (its tables' and columns' names, a logical-form language's predicates, a
    table's header), when known.

    Example:
        >>> RewritePair("where is dallas", "where is dallas located").gold is None
        True
    """

    original: str
    rewrite: str
    gold: str | None = None
    schema: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Judgement:
    """A verdict and the reason for it, in words a person checks quickly ("deleted 'most'").

    Example:
        >>> Judgement(Verdict.DIFFERENT, "deleted 'most' (quantifier)").keeps_meaning
        False
    """

    verdict: Verdict
    reason: str
    layer: str = ""
    """What decided: ``veto:<rule>``, ``reader``, ``words`` (the same words, or none), a judge's name."""

    @property
    def keeps_meaning(self) -> bool:
        """Whether the rewrite may be kept: only a ``same`` verdict keeps it (``unsure`` does not,
        as Huang et al.'s rule counts only "same" votes)."""
        return self.verdict is Verdict.SAME


@dataclass
class JudgeTally:
    """How many rewrites a judge saw and how many it rejected, with the first
    :data:`TALLY_EXAMPLES` rejections as ``(original, rewrite, reason)``, and what each layer of
    the judge decided (``layers``: layer -> verdict -> count, with up to :data:`LAYER_EXAMPLES`
    examples each): what a manifest, an augmentation and an attack report of their judge.

    Example:
        >>> tally = JudgeTally()
        >>> tally.add(RewritePair("where is dallas", "is dallas"), Judgement(Verdict.DIFFERENT, "dropped 'where'", "reader"))
        >>> tally.add(RewritePair("where is dallas", "where is dallas located"), Judgement(Verdict.SAME, "ok", "reader"))
        >>> tally.judged, tally.rejected, tally.acceptance, tally.layers["reader"]
        (2, 1, 0.5, {'different': 1, 'same': 1})
    """

    judged: int = 0
    rejected: int = 0
    examples: list[tuple[str, str, str]] = field(default_factory=list)
    layers: dict[str, dict[str, int]] = field(default_factory=dict)
    layer_examples: dict[str, list[tuple[str, str, str, str]]] = field(default_factory=dict)

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
        layer = judgement.layer or "judge"
        counts = self.layers.setdefault(layer, {})
        counts[judgement.verdict.value] = counts.get(judgement.verdict.value, 0) + 1
        self.layers[layer] = dict(sorted(counts.items()))
        shown = self.layer_examples.setdefault(layer, [])
        if sum(1 for example in shown if example[2] == judgement.verdict.value) < LAYER_EXAMPLES:
            shown.append((pair.original, pair.rewrite, judgement.verdict.value, judgement.reason))

    def merge(self, other: JudgeTally) -> None:
        """Add ``other``'s counts (and examples, up to the limits)."""
        self.judged += other.judged
        self.rejected += other.rejected
        self.examples.extend(other.examples[: max(TALLY_EXAMPLES - len(self.examples), 0)])
        for layer, counts in other.layers.items():
            mine = self.layers.setdefault(layer, {})
            for verdict, count in counts.items():
                mine[verdict] = mine.get(verdict, 0) + count
            self.layers[layer] = dict(sorted(mine.items()))
        for layer, examples in other.layer_examples.items():
            shown = self.layer_examples.setdefault(layer, [])
            for example in examples:
                if sum(1 for kept in shown if kept[2] == example[2]) < LAYER_EXAMPLES:
                    shown.append(example)

    def describe(self) -> str:
        """What was kept of what was judged, in words.

        Example:
            >>> JudgeTally(judged=4, rejected=1).describe(), JudgeTally().describe()
            ('3 of 4 kept (75%)', 'none judged')
        """
        if self.acceptance is None:
            return "none judged"
        return f"{self.judged - self.rejected} of {self.judged} kept ({self.acceptance:.0%})"

    def describe_layers(self) -> str:
        """What each layer decided, in words (empty when nothing was judged).

        Example:
            >>> tally = JudgeTally()
            >>> tally.add(RewritePair("a b", "a c"), Judgement(Verdict.SAME, "ok", "reader"))
            >>> tally.add(RewritePair("a 3", "a 4"), Judgement(Verdict.DIFFERENT, "number", "veto:number"))
            >>> tally.describe_layers()
            'reader: 1 same; veto:number: 1 different'
        """
        return "; ".join(
            f"{layer}: " + ", ".join(f"{count} {verdict}" for verdict, count in counts.items())
            for layer, counts in sorted(self.layers.items())
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "judged": self.judged,
            "rejected": self.rejected,
            "examples": [
                {"original": original, "rewrite": rewrite, "reason": reason}
                for original, rewrite, reason in self.examples
            ],
            "layers": {
                layer: {
                    "verdicts": counts,
                    "examples": [
                        {"original": original, "rewrite": rewrite, "verdict": verdict, "reason": reason}
                        for original, rewrite, verdict, reason in self.layer_examples.get(layer, [])
                    ],
                }
                for layer, counts in sorted(self.layers.items())
            },
        }

    @classmethod
    def from_json(cls, record: Any, source: str) -> JudgeTally:
        """The tally :meth:`to_json` wrote; ``DatasetError`` naming ``source`` otherwise."""
        try:
            examples = [
                (str(item["original"]), str(item["rewrite"]), str(item["reason"])) for item in record["examples"]
            ]
            layers = record.get("layers", {})
            return cls(
                int(record["judged"]),
                int(record["rejected"]),
                examples,
                {str(layer): {str(v): int(n) for v, n in entry["verdicts"].items()} for layer, entry in layers.items()},
                {
                    str(layer): [
                        (str(item["original"]), str(item["rewrite"]), str(item["verdict"]), str(item["reason"]))
                        for item in entry["examples"]
                    ]
                    for layer, entry in layers.items()
                },
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DatasetError(
                f'{source}: expected {{"judged", "rejected", "examples", "layers"}}, got {record!r:.200}.'
            ) from None
