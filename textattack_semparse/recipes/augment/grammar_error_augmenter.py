"""Grammatical-error augmentation from learner-English confusion sets (Yin et al. 2020)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from textattack.augmentation import Augmenter
from textattack.constraints.pre_transformation import RepeatModification

from textattack_semparse.constraints.meaning_judgement import MeaningJudgement, judgement_constraints
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE
from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined


class GrammarErrorAugmenter(Augmenter):
    """Augments sentences with grammatical errors sampled from a learner-error model.

    Each augmented copy is one draw of the probabilistic transformation of Yin et al. (2020):
    up to ``max(1, floor(pct_words_to_swap * words))`` errors, each with an error type drawn
    from the model's type distribution, a position where the type applies and a replacement
    by the confusion weights. The default rate, 3%, is that of the paper's probing data
    (one error in any sentence shorter than 67 words); ``textattack augment`` passes its own
    ``--pct-words-to-swap`` (default 0.1). As in every TextAttack augmenter, a copy whose
    errors modified fewer words than ``pct_words_to_swap`` asks for (deletions modify none)
    gets further errors. Sampling uses the transformation's own seeded generator, so a run
    is reproducible. Pass ``literals`` to keep database values (e.g. ``["new york"]``)
    untouched, and ``error_model`` (a ``fit-grammar-errors`` JSON) for corpus weights.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.

    Args:
        literals (tuple[str, ...], default ()): Phrases never modified.
        error_model (str | PathLike | None, default None): error-model JSON; ``None`` is the
            packaged default (the paper's sets, uniform weights).
        error_types (tuple[str, ...], default all eight): error types to sample from.
        seed (int | None, default 0): seed of the sampled errors.
        pct_words_to_swap (float, default 0.03): error rate per word.
        judge (str | Sequence[str] | None, default "default"): The meaning judges an augmentation
            must pass (:mod:`textattack_semparse.judges`; ``None``: none); ``judgement.tally``
            counts what they rejected.
        **kwargs: TextAttack's other augmenter keywords (``transformations_per_example``,
            ``high_yield``, ``fast_augment``, ``enable_advanced_metrics``).
    """

    def __init__(
        self,
        *,
        literals: tuple[str, ...] = (),
        error_model: str | os.PathLike[str] | None = None,
        error_types: tuple[str, ...] = ERROR_TYPES,
        seed: int | None = 0,
        pct_words_to_swap: float = 0.03,
        judge: str | Sequence[str] | None = DEFAULT_JUDGE,
        **kwargs: Any,
    ) -> None:
        transformation = GrammarErrorCombined(
            error_model=error_model,
            error_types=tuple(error_types),
            mode="probabilistic",
            rate=pct_words_to_swap,
            seed=seed,
        )
        self.judgement: MeaningJudgement | None = MeaningJudgement(judge) if judge else None
        constraints = [RepeatModification(), PreserveLiterals(literals=tuple(literals))]
        super().__init__(
            transformation=transformation,
            constraints=constraints + judgement_constraints(self.judgement),
            pct_words_to_swap=pct_words_to_swap,
            **kwargs,
        )

    def augment(self, text: str) -> Any:
        """TextAttack's ``augment`` without copies equal to ``text``.

        TextAttack's loop returns the unchanged sentence when a new draw repeats an earlier
        augmentation (short sentences have few possible errors); such a copy is dropped, so
        fewer than ``transformations_per_example`` copies may come back.
        """
        result = super().augment(text)
        if isinstance(result, tuple):  # enable_advanced_metrics: (texts, perplexity, USE)
            return ([augmented for augmented in result[0] if augmented != text], *result[1:])
        return [augmented for augmented in result if augmented != text]
