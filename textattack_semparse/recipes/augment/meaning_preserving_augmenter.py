"""Meaning-preserving data augmentation (MDA; Huang et al. 2021)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from textattack.constraints.pre_transformation import RepeatModification
from textattack.transformations import CompositeTransformation

from textattack_semparse.augmentation.word_list_augmenter import WordListAugmenter
from textattack_semparse.constraints.meaning_judgement import MeaningJudgement, judgement_constraints
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE
from textattack_semparse.recipes.attack.recipe_ingredients import perturbation
from textattack_semparse.transformations.top_k_by_similarity import TopKBySimilarity

MDA_OFFLINE_PERTURBATIONS = ("insertion", "deletion", "substitution-f", "substitution-wordnet", "reordering")
"""Huang et al.'s MDA operations that run offline. The paper's masked-LM substitution and back
translation are ``substitution-nf`` and ``backtranslation``: add them when their models are at
hand (``perturbations=MDA_OFFLINE_PERTURBATIONS + ("substitution-nf", "backtranslation")``);
``substitution-wordnet`` stands in for ``substitution-nf`` offline."""


class MeaningPreservingAugmenter(WordListAugmenter):
    """Augments questions with meaning-preserving perturbations, keeping database values intact.

    Shuo Huang, Zhuang Li, Lizhen Qu and Lei Pan (2021). On Robustness of Neural Semantic
    Parsers. EACL 2021. https://aclanthology.org/2021.eacl-main.292/ — §4.1, meaning-preserving
    data augmentation (MDA): training utterances perturbed by the operations, paired with
    their original logical forms. Registered as ``semparse-mda`` (all offline operations)
    and ``semparse-function-words`` (function-word insertion, deletion and substitution).

    Deviation: one augmenter combines all ``perturbations`` into one transformation, and
    augments every question it is given. The paper perturbs "20% of the original instances
    for each dataset"; ``textattack-semparse augment --sample 0.2`` draws that sample once and
    builds one augmenter per operation (``perturbations=(name,)``) to perturb it, as it does (:mod:`textattack_semparse.augmentation.per_operation`, docs/augmentation.md),
    with the ``huang-2021`` robustness setting's options and selection per operation
    (``perturbation_options``, ``most_similar``; the paper gives none for MDA).

    Args:
        perturbations (Sequence[str], default ``MDA_OFFLINE_PERTURBATIONS``): Registered
            perturbation names to combine.
        literals (Sequence[str], default ()): Phrases never modified (e.g. ``["new york"]``);
            ``textattack-semparse augment`` adds each row's gold-query literals.
        perturbation_options (Mapping[str, Mapping[str, Any]], default {}): Perturbation name ->
            constructor options on top of its registered ones (e.g. ``{"insertion": {"word_list":
            "huang-2021"}}``).
        most_similar (Collection[str], default ()): Perturbations of which only the output most
            similar to the question by Sentence-BERT is a candidate
            (:class:`~textattack_semparse.transformations.top_k_by_similarity.TopKBySimilarity`,
            ``k=1``, the packaged all-MiniLM-L6-v2); the others' outputs are all candidates,
            of which TextAttack's ``Augmenter`` draws one at random.
        judge (str | Sequence[str] | None, default "default"): The meaning judges an augmentation
            must pass (:mod:`textattack_semparse.judges`; ``None``: none), applied to every
            candidate before one is drawn; ``judgement.tally`` counts what they rejected.
        **kwargs: TextAttack's augmenter keywords (``pct_words_to_swap``,
            ``transformations_per_example``, ...).

    With one perturbation that edits words alone (``random-deletion``, ``random-swap``), only
    the augmentations kept are made, on word lists (:class:`~textattack_semparse.augmentation.
    word_list_augmenter.WordListAugmenter`).

    Example:
        >>> augmenter = MeaningPreservingAugmenter(perturbations=("deletion", "insertion"), literals=("texas",), high_yield=True)
        >>> outputs = augmenter.augment("what is the capital of texas")
        >>> "what is capital of texas" in outputs, "what is however the capital of texas" in outputs
        (True, True)
        >>> original, rejected, reason = augmenter.judgement.tally.examples[0]
        >>> rejected, reason.split(" (p = ")[0]
        ('what is the therefore capital of texas', 'the reader: another question')
    """

    def __init__(
        self,
        *,
        perturbations: Sequence[str] = MDA_OFFLINE_PERTURBATIONS,
        literals: Sequence[str] = (),
        perturbation_options: Mapping[str, Mapping[str, Any]] | None = None,
        most_similar: Collection[str] = (),
        judge: str | Sequence[str] | None = DEFAULT_JUDGE,
        **kwargs: Any,
    ) -> None:
        self.perturbations = tuple(perturbations)
        options = perturbation_options or {}
        transformations = [perturbation(name, **options.get(name, {})) for name in self.perturbations]
        transformation = CompositeTransformation(
            [
                TopKBySimilarity(transformation, k=1) if name in most_similar else transformation
                for name, transformation in zip(self.perturbations, transformations)
            ]
        )
        self.judgement: MeaningJudgement | None = MeaningJudgement(judge) if judge else None
        constraints = [RepeatModification(), PreserveLiterals(literals=tuple(literals))]
        super().__init__(
            transformation=transformation, constraints=constraints + judgement_constraints(self.judgement), **kwargs
        )
