"""Grammatical-error attack from learner-English confusion sets (Yin et al. 2020)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.search_methods import SearchMethod

from textattack_semparse.constraints.attacked_sentence import AttackedSentence, task_sentence
from textattack_semparse.constraints.max_grammar_error_rate import MaxGrammarErrorRate
from textattack_semparse.constraints.preserve_entities import PreserveEntities
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.errors import RecipeError, closest_match_hint
from textattack_semparse.recipes.attack.recipe_ingredients import benchmark_goal_function
from textattack_semparse.search_methods.grammar_error_beam_search import GrammarErrorBeamSearch
from textattack_semparse.search_methods.grammar_error_genetic_algorithm import GrammarErrorGeneticAlgorithm
from textattack_semparse.search_methods.grammar_error_greedy_search import GrammarErrorGreedySearch
from textattack_semparse.search_methods.grammar_error_sampling_search import GrammarErrorSamplingSearch
from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined

SEARCHES = ("greedy", "beam", "beam-skip", "genetic", "probabilistic")
"""Variants of :meth:`GrammarErrorAttackYin2020.build` (registered as ``nucle-<search>``)."""

TASKS = ("mnli", "qnli", "mrpc", "sst2", "ner")
"""Yin et al.'s downstream tasks, which decide what the attack may change (``task`` keyword)."""


class GrammarErrorAttackYin2020:
    """Simulated learner grammatical errors: worst-case search or sampled ("dist.") corruption.

    Yin, Long, Meng and Chang (2020). On the Robustness of Language Encoders against
    Grammatical Errors. ACL 2020. https://aclanthology.org/2020.acl-main.310/

    The eight error types of the paper's Table 1 (ArtOrDet, Prep, Trans, Nn, SVA, Vform,
    Wchoice, Worder) with confusion weights from an error model (default: the paper's sets
    with uniform weights; fit NUCLE-style weights with ``textattack-semparse
    fit-grammar-errors``). The goal follows the victim: execution match for SQL parsers,
    exact match for parsers without a database, untargeted classification for TextAttack
    classifiers. Only the attacked sentence of a pair is changed (:class:`AttackedSentence`: the
    second for MNLI and QNLI, the first for MRPC; the question of a parser's input), and for NER
    the gold entities are kept (:class:`PreserveEntities`). Registered as ``nucle-greedy``,
    ``nucle-beam``, ``nucle-beam-skip``, ``nucle-genetic`` and ``nucle-probabilistic`` (the
    ``search`` keyword).
    """

    @staticmethod
    def attacked_sentence(task: str | None = None, sentence: str | None = None) -> AttackedSentence:
        """The constraint that picks the attacked sentence: ``sentence`` (``"first"``/``"second"``),
        else the rule of ``task``, else the input columns' (see :class:`AttackedSentence`).

        Example:
            >>> GrammarErrorAttackYin2020.attacked_sentence(task="mnli").sentence
            'second'
        """
        if sentence is None and task is not None and task.lower() != "ner":
            sentence = task_sentence(task)
        return AttackedSentence(sentence=sentence)

    @staticmethod
    def error_budget(
        max_modification_rate: float = 0.15, *, task: str | None = None, sentence: str | None = None
    ) -> MaxGrammarErrorRate:
        """The constraint that caps a text's errors, as :meth:`build` applies it (reports of
        a run ask it each question's budget with ``text_budget``).

        Example:
            >>> GrammarErrorAttackYin2020.error_budget(0.15).budget(20)
            3
        """
        return MaxGrammarErrorRate(
            max_rate=max_modification_rate, sentence=GrammarErrorAttackYin2020.attacked_sentence(task, sentence).sentence
        )

    @staticmethod
    def build(
        model_wrapper: Any,
        *,
        search: str = "greedy",
        max_modification_rate: float = 0.15,
        beam_width: int = 5,
        population_size: int = 60,
        iterations_ratio: float = 0.23,
        num_samples: int = 1,
        error_model: str | os.PathLike[str] | None = None,
        error_types: tuple[str, ...] = ERROR_TYPES,
        benchmark: str | None = None,
        seed: int | None = 0,
        task: str | None = None,
        sentence: str | None = None,
        entity_spans: Mapping[str, Iterable[tuple[int, int]]] | None = None,
    ) -> Attack:
        """Compose the attack.

        Args:
            model_wrapper: The victim (a semantic parser or a TextAttack classifier).
            search: ``"greedy"``, ``"beam"`` (the released code's beam search), ``"beam-skip"``
                (the plugin's beam variant, where a step may leave its word correct),
                ``"genetic"`` or ``"probabilistic"`` (the paper's "dist." corruption: sampled
                errors, no search).
            max_modification_rate: Errors allowed per word of the question (at least one).
            beam_width: Beam search only: texts kept per step (paper: 5).
            population_size: Genetic search only: population size (paper: 60).
            iterations_ratio: Genetic search only: generations per word of the question, rounded
                up (paper: 0.23).
            num_samples: Probabilistic only: corrupted copies tried per question.
            error_model: JSON written by ``fit-grammar-errors``; ``None`` uses the packaged sets.
            error_types: Error types to simulate (default all eight).
            benchmark: Registered benchmark whose scorer and databases judge a parser's outputs;
                ``None``: the benchmark the victim is bound to.
            seed: Seed of the sampled errors (probabilistic) and of the genetic crossover.
            task: Yin et al.'s task (``"mnli"``, ``"qnli"``, ``"mrpc"``, ``"sst2"``, ``"ner"``):
                MNLI and QNLI attack the second sentence, MRPC the first; NER keeps
                ``entity_spans``. ``None``: the sentence follows from the input columns.
            sentence: ``"first"`` or ``"second"``: the attacked sentence of a pair, overriding
                ``task``'s rule (for pair layouts the paper does not name, e.g. QQP).
            entity_spans: Gold named entities never modified: sentence (tokens joined by
                spaces) -> token spans ``(start, end)``; required for ``task="ner"``.
        """
        if search not in SEARCHES:
            raise RecipeError(
                f"Unknown search {search!r} for the grammatical-error attack; accepted: {', '.join(SEARCHES)}."
                f"{closest_match_hint(str(search), SEARCHES)}"
            )
        # Goal: execution match (SQL parsers with a database), exact match (other parsers) or
        # untargeted classification (TextAttack classifiers), so the recipe serves both, as
        # Yin et al. attack classifiers and the plugin attacks parsers.
        if task is not None:
            task = str(task).lower().replace("-", "")
            if task not in TASKS:
                raise RecipeError(
                    f"Unknown task {task!r} for the grammatical-error attack; Yin et al.'s tasks: {', '.join(TASKS)}."
                    f"{closest_match_hint(task, TASKS)}"
                )
        if task == "ner" and entity_spans is None:
            raise RecipeError(
                "task='ner' keeps the gold named entities (Yin et al.); pass entity_spans={sentence: [(start, end), "
                "...]} (token spans; bio_entity_spans(tags) in textattack_semparse.constraints.preserve_entities "
                "reads BIO tags)."
            )
        goal_function = benchmark_goal_function(model_wrapper, benchmark=benchmark)
        # Yin et al. §3: the eight NUCLE error types of Table 1. Worst case (greedy, beam,
        # genetic): every applicable error at each position; "dist.": errors sampled from the
        # error model's type distribution and confusion weights, up to the rate (paper: 15%).
        # Every search gets every error type, insertions and deletions included (the genetic
        # crossover recombines errors at original positions, not word indices).
        transformation = GrammarErrorCombined(
            error_model=error_model,
            error_types=tuple(error_types),
            mode="probabilistic" if search == "probabilistic" else "worst-case",
            rate=max_modification_rate,
            num_samples=num_samples,
            seed=seed,
        )
        constraints = [
            # No word is corrupted twice.
            RepeatModification(),
            # Yin et al. attack one sentence of a pair: the second for MNLI and QNLI, the first
            # for MRPC (their released code); a parser's question, never its db_id or table.
            GrammarErrorAttackYin2020.attacked_sentence(task, sentence),
            # Words naming the gold query's database values stay as they are (parsers only).
            PreserveLiterals(),
            # Yin et al.: at most 15% of the tokens carry errors, counted in errors rather than
            # TextAttack's modified word indices (see MaxGrammarErrorRate), as a share of the
            # attacked sentence's words. No StopwordModification: articles, prepositions and
            # link words are the errors.
            GrammarErrorAttackYin2020.error_budget(max_modification_rate, task=task, sentence=sentence),
        ]
        if entity_spans is not None:
            # Yin et al., NER: the named entities are kept.
            constraints.insert(2, PreserveEntities(entity_spans))
        search_method: SearchMethod
        if search == "greedy":
            # Yin et al.: words ranked by the score change when deleted, then the most damaging
            # error at each word in turn, until the victim fails. Deviation: an error is kept
            # only if it raises the goal score (TextAttack's rule; their released code keeps it).
            search_method = GrammarErrorGreedySearch(wir_method="delete")
        elif search in ("beam", "beam-skip"):
            # Yin et al.: beam search, beam width 5, over the words in the greedy attack's order of
            # importance (score change when deleted): step t expands only the t-th word, and the
            # best expansions form the next beam. "beam-skip" (the plugin's variant) lets the
            # unchanged beam compete with its expansions.
            search_method = GrammarErrorBeamSearch(
                beam_width=beam_width, keep_unchanged=search == "beam-skip", wir_method="delete"
            )
        elif search == "genetic":
            # Yin et al., after Alzantot et al. 2018: population 60, at most ceil(0.23 x the
            # question's number of words) generations (computed per question; their released
            # code takes int(0.23 x the words that have candidate errors)).
            search_method = GrammarErrorGeneticAlgorithm(
                pop_size=population_size, iterations_ratio=iterations_ratio, seed=seed
            )
        else:
            # Yin et al.'s probabilistic ("dist.") setting: each question is corrupted by sampled
            # errors and queried once per sample; no search.
            search_method = GrammarErrorSamplingSearch()
        return Attack(goal_function, constraints, transformation, search_method)
