"""Function-word and distraction attack on semantic parsers (Huang et al. 2021; Zhuo et al. 2023)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textattack import Attack
from textattack.constraints.overlap import MaxWordsPerturbed
from textattack.constraints.pre_transformation import RepeatModification
from textattack.transformations import CompositeTransformation

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.goal_functions.execution_match import ExecutionMatch
from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch
from textattack_semparse.transformations.distraction_suffix import DistractionSuffix
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.transformations.function_word_insertion import FunctionWordInsertion
from textattack_semparse.transformations.function_word_substitution import FunctionWordSubstitution


class FunctionWordAttackHuang2021:
    """Meaning-preserving function-word attack with execution match.

    Huang, Li, Liu, Qi, Dong, Chen, Liu and Zhou (2021). On Robustness of Neural Semantic
    Parsers. EACL 2021. https://aclanthology.org/2021.eacl-main.123/

    Zhuo, Li, Huang, Qu, Zhang and Haffari (2023). On Robustness of Prompt-based Semantic
    Parsing with Large Pre-trained Language Model: An Empirical Study on Codex. EACL 2023.
    https://aclanthology.org/2023.eacl-main.77/

    Registered as ``semparse-geo`` (bound to the GeoQuery benchmark).
    """

    @staticmethod
    def build(
        model_wrapper: Any,
        *,
        benchmark: str | None = None,
        database: str | Path | None = None,
        similarity_threshold: float = 0.8,
        max_words_perturbed: int = 2,
        seed: int | None = 0,
    ) -> Attack:
        """Compose the attack.

        Args:
            model_wrapper: The victim.
            benchmark: Benchmark whose database the gold queries run on (``"geo"``); ``None``
                uses ``database`` or the victim's database.
            database: SQLite file overriding the benchmark's.
            similarity_threshold: Minimum Sentence-BERT cosine to the original question.
            max_words_perturbed: Edits allowed per question.
            seed: Seed of the sampled insertion/substitution candidates.
        """
        if database is None and benchmark is not None:
            database = load_benchmark(benchmark).database
        # Goal: the victim's SQL stops returning the gold denotation; already-wrong examples are skipped.
        goal_function = ExecutionMatch(model_wrapper, database=database)
        # Huang et al. 2021 §3.1: insertion, deletion and substitution of one function word each;
        # Zhuo et al. 2023 DB: a distraction suffix ("what is what", ...).
        transformation = CompositeTransformation(
            [
                FunctionWordInsertion(seed=seed),
                FunctionWordDeletion(),
                FunctionWordSubstitution(seed=seed),
                DistractionSuffix(),
            ]
        )
        constraints = [
            # Never edit the same word twice.
            RepeatModification(),
            # Words carrying the gold query's database values stay as they are.
            PreserveLiterals(),
            # Deviation: the papers keep one edit per utterance; search may combine a few.
            MaxWordsPerturbed(max_num_words=max_words_perturbed),
            # Zhuo et al. 2023 filter candidates by Sentence-BERT similarity to the original.
            SentenceBERTSimilarity(threshold=similarity_threshold),
        ]
        # Greedy search over words ranked by the effect of deleting them; unlike TextAttack's
        # GreedyWordSwapWIR it also drives insertions and keeps word positions right after them.
        search_method = GreedyWordImportanceSearch(wir_method="delete")
        return Attack(goal_function, constraints, transformation, search_method)
