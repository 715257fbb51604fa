"""Search-based meaning-preserving attack on semantic parsers (Huang et al. 2021; Zhuo et al. 2023)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textattack import Attack
from textattack.constraints.overlap import MaxWordsPerturbed
from textattack.constraints.pre_transformation import RepeatModification
from textattack.transformations import CompositeTransformation

from textattack_semparse.constraints.meaning_judgement import MeaningJudgement, judgement_constraints
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE
from textattack_semparse.recipes.attack.recipe_ingredients import benchmark_goal_function, perturbation
from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch

WORD_LEVEL_PERTURBATIONS = ("insertion", "deletion", "substitution-f")
"""The offline word-level operations combined by default: Huang et al.'s function-word
insertion, deletion and substitution. Zhuo et al.'s distraction suffix (DB) is not among them:
its five appended statements are far from the question by Sentence-BERT (cosine about 0.65 on
GeoQuery), so the 0.8 threshold would reject every DB candidate; ``semparse-distraction``
applies it as the paper does."""


class MeaningPreservingAttackHuang2021:
    """Greedy word-importance attack combining meaning-preserving perturbations.

    Shuo Huang, Zhuang Li, Lizhen Qu and Lei Pan (2021). On Robustness of Neural Semantic
    Parsers. EACL 2021. https://aclanthology.org/2021.eacl-main.292/

    Terry Yue Zhuo, Zhuang Li, Yujin Huang, Fatemeh Shiri, Weiqing Wang, Gholamreza Haffari
    and Yuan-Fang Li (2023). On Robustness of Prompt-based Semantic Parsing with Large
    Pre-trained Language Model: An Empirical Study on Codex. EACL 2023.
    https://arxiv.org/abs/2301.12868

    Registered as ``semparse-<benchmark>`` for every benchmark whose entry sets
    ``attack_recipe`` (``semparse-geo``, ``semparse-atis``, ``semparse-scholar``,
    ``semparse-spider``), each bound to its benchmark.
    """

    @staticmethod
    def build(
        model_wrapper: Any,
        *,
        benchmark: str | None = None,
        execution_mode: str | None = None,
        perturbations: Sequence[str] = WORD_LEVEL_PERTURBATIONS,
        similarity_threshold: float = 0.8,
        max_words_perturbed: int = 2,
        judge: str | Sequence[str] | None = DEFAULT_JUDGE,
    ) -> Attack:
        """Compose the attack.

        Args:
            model_wrapper: The victim.
            benchmark: Registered benchmark whose scorer and databases judge the outputs
                (``"geo"``); ``None``: the benchmark the victim is bound to.
            execution_mode: ``"classical"`` or ``"test-suite"`` overriding the benchmark's.
            perturbations: Registered perturbation names to combine.
            similarity_threshold: Minimum Sentence-BERT cosine to the original question.
            max_words_perturbed: Words the search may edit per question.
            judge: The meaning judges a candidate must pass (:mod:`textattack_semparse.judges`;
                several must all agree; ``None``: none), applied before the victim sees a
                candidate: this package's automatic filter. The papers had people check some
                rewrites (Huang et al.: two of three crowd workers, for substitution (nf), back
                translation and reordering, not the function-word operations; Zhuo et al.:
                experts).
        """
        # Goal: the victim's output stops matching the gold, judged as the benchmark judges (execution
        # match on its databases, exact match without); examples already wrong are skipped.
        goal_function = benchmark_goal_function(model_wrapper, benchmark=benchmark, execution_mode=execution_mode)
        # Huang et al. §3.1 word-level operations, as registered perturbations.
        transformation = CompositeTransformation([perturbation(name) for name in perturbations])
        constraints = [
            # Never edit the same word twice.
            RepeatModification(),
            # Words carrying the gold query's database values stay as they are.
            PreserveLiterals(),
            # Deviation: the papers apply one operation per utterance; search may combine a few.
            MaxWordsPerturbed(max_num_words=max_words_perturbed),
            # A candidate must ask what the original asked (the papers' human check, automated).
            *judgement_constraints(MeaningJudgement(judge) if judge else None),
        ]
        # Zhuo et al. rank candidates by Sentence-BERT similarity (the 10 most similar of 20, no
        # threshold); a search judges one candidate at a time, so a threshold (this package's, 0.8)
        # stands in, checked only on the candidates the search could pick (function-word edits
        # rarely fall below it).
        similarity = SentenceBERTSimilarity(threshold=similarity_threshold)
        # Greedy search over words ranked by the effect of deleting them; unlike TextAttack's
        # GreedyWordSwapWIR it also drives insertions and keeps word positions right after them.
        search_method = GreedyWordImportanceSearch(wir_method="delete", deferred_constraints=[similarity])
        return Attack(goal_function, constraints, transformation, search_method)
