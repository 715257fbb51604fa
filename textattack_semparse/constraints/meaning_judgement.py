"""Meaning judgement
=====================

Keep a perturbation only when a meaning judge calls it the same question as the original.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textattack.constraints import Constraint

from textattack_semparse.attack_attrs import gold_output, schema_words
from textattack_semparse.judges.judgement import Judgement, JudgeTally, RewritePair
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, MeaningJudge, judges_from_names
from textattack_semparse.tables.table_text import question_of

if TYPE_CHECKING:
    from textattack.shared import AttackedText

JUDGEMENT_ATTR = "meaning_judgement"
"""``attack_attrs`` key of the :class:`~textattack_semparse.judges.judgement.Judgement` of a candidate."""


class MeaningJudgement(Constraint):
    """A TextAttack constraint that keeps a candidate only when ``judge`` calls its question the
    same question as the original's (:mod:`textattack_semparse.judges`).

    The question is the ``question`` input column (so a Table QA table perturbation, which leaves
    it as it is, always passes); the gold output recorded on the original
    (:func:`~textattack_semparse.attack_attrs.gold_output`) names the values and predicates the
    rewrite must keep. Candidates are judged in one batch (``_check_constraint_many``); each
    keeps its :class:`~textattack_semparse.judges.judgement.Judgement` in
    ``attack_attrs["meaning_judgement"]``, and ``tally`` counts what was judged and rejected (an
    augmentation or attack reports it). Huang et al. (2021) had three crowd workers judge their
    substitution (nf), back-translation and reordering rewrites and kept those at least two said
    keep the meaning (function-word rewrites and MDA examples were not checked); this constraint
    is this package's automatic filter on every candidate, not the paper's step.

    Args:
        judge (str | Sequence[str] | MeaningJudge, default "default"): Registered judge names
            (several: all must say same) or a judge.
        compare_against_original (bool, default True): Judge against the original question
            (``False``: against the text the candidate was derived from).

    Example:
        >>> MeaningJudgement().judge.name
        'default'
    """

    def __init__(
        self, judge: str | Sequence[str] | MeaningJudge = DEFAULT_JUDGE, compare_against_original: bool = True
    ) -> None:
        super().__init__(compare_against_original)
        if isinstance(judge, MeaningJudge):
            self.judge = judge
        else:
            self.judge = judges_from_names([judge] if isinstance(judge, str) else list(judge))
        self.tally = JudgeTally()

    def read_ahead(self, questions: Sequence[str]) -> None:
        """Prepare, in batches, what judging candidates of these questions reads (:meth:`MeaningJudge.read_ahead`)."""
        self.judge.read_ahead(questions)

    def judgements(self, transformed_texts: Sequence[AttackedText], reference_text: AttackedText) -> list[Judgement]:
        """The judgement of each candidate against ``reference_text`` (counted in ``tally``)."""
        rewrites = [question_of(text) for text in transformed_texts]
        return self.judge_questions(
            question_of(reference_text), rewrites, gold_output(reference_text), schema_words(reference_text)
        )

    def judge_questions(
        self, original: str, rewrites: Sequence[str], gold: str | None = None, schema: frozenset[str] = frozenset()
    ) -> list[Judgement]:
        """The judgement of each of ``rewrites`` of the question ``original`` (counted in ``tally``),
        for a caller that holds questions rather than ``AttackedText``."""
        pairs = [RewritePair(original, rewrite, gold, schema) for rewrite in rewrites]
        judgements = self.judge.judge(pairs)
        for pair, judgement in zip(pairs, judgements, strict=True):
            self.tally.add(pair, judgement)
        return judgements

    def _check_constraint_many(
        self, transformed_texts: list[AttackedText], reference_text: AttackedText
    ) -> list[AttackedText]:
        kept = []
        for text, judgement in zip(transformed_texts, self.judgements(transformed_texts, reference_text), strict=True):
            text.attack_attrs[JUDGEMENT_ATTR] = judgement
            if judgement.keeps_meaning:
                kept.append(text)
        return kept

    def _check_constraint(self, transformed_text: AttackedText, reference_text: AttackedText) -> bool:
        return len(self._check_constraint_many([transformed_text], reference_text)) == 1

    def extra_repr_keys(self) -> list[str]:
        return ["judge"] + super().extra_repr_keys()


def judgement_constraints(judgement: MeaningJudgement | None) -> list[MeaningJudgement]:
    """``[judgement]``, or no constraint without one: what a recipe adds to its constraints."""
    return [] if judgement is None else [judgement]
