"""Meaning-preserving function-word augmentation (Huang et al. 2021)."""

from __future__ import annotations

from typing import Any

from textattack.augmentation import Augmenter
from textattack.constraints.pre_transformation import RepeatModification
from textattack.transformations import CompositeTransformation

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.transformations.function_word_insertion import FunctionWordInsertion
from textattack_semparse.transformations.function_word_substitution import FunctionWordSubstitution


class FunctionWordAugmenter(Augmenter):
    """Augments questions by inserting, deleting or substituting function words.

    The word-level operations of meaning-preserving data augmentation (MDA) in Huang et al.
    (2021), On Robustness of Neural Semantic Parsers, https://aclanthology.org/2021.eacl-main.292/.
    Pass ``literals`` to keep database values (e.g. ``["new york"]``) untouched.

    Args:
        literals (tuple[str, ...], default ()): Phrases never modified.
        seed (int | None, default 0): Seed of the sampled candidates.
        **kwargs: TextAttack's augmenter keywords (``pct_words_to_swap``,
            ``transformations_per_example``, ...).
    """

    def __init__(self, *, literals: tuple[str, ...] = (), seed: int | None = 0, **kwargs: Any) -> None:
        transformation = CompositeTransformation(
            [FunctionWordInsertion(seed=seed), FunctionWordDeletion(), FunctionWordSubstitution(seed=seed)]
        )
        constraints = [RepeatModification(), PreserveLiterals(literals=tuple(literals))]
        super().__init__(transformation=transformation, constraints=constraints, **kwargs)
