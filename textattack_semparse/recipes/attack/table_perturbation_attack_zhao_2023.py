"""RobuT's table perturbations as attacks on Table QA victims (Zhao et al. 2023)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.transformations import Transformation

from textattack_semparse.constraints.meaning_judgement import MeaningJudgement, judgement_constraints
from textattack_semparse.errors import RecipeError
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE
from textattack_semparse.recipes.attack.recipe_ingredients import benchmark_goal_function, perturbation
from textattack_semparse.search_methods.single_perturbation_search import SinglePerturbationSearch
from textattack_semparse.tables import ROBUT_LLM_PERTURBATIONS, ROBUT_LLM_TABLE_PERTURBATIONS, ROBUT_TABLE_PERTURBATIONS
from textattack_semparse.tables.table_text import freeze_table_column

CANDIDATES = 10
"""Perturbed tables (or mixes) tried per example (each a different seeded draw)."""

_DRAWN = frozenset((*ROBUT_TABLE_PERTURBATIONS, *ROBUT_LLM_TABLE_PERTURBATIONS, "robut-mix"))
"""The perturbations that draw ``num_candidates`` outputs (question rewrites give all theirs)."""


class TablePerturbationAttackZhao2023:
    """Perturb the table, the question or (the mix) two or three levels once; succeed if the answer breaks.

    Yilun Zhao, Chen Zhao, Linyong Nan, Zhenting Qi, Wenlin Zhang, Xiangru Tang, Boyu Mi and
    Dragomir Radev (2023). RobuT: A Systematic Study of Table QA Robustness Against
    Human-Annotated Adversarial Perturbations. ACL 2023. https://arxiv.org/abs/2306.14321

    RobuT's annotators wrote one perturbed example per perturbation type; here the registered
    perturbation generates the candidates and every one is tried (black-box). Registered as
    ``robut-<perturbation>`` for each of RobuT's table perturbations (and its LLM-written header
    names, ``robut-llm-header-synonym``/``-abbreviation``), and under their own names for its
    question perturbations (``robut-word``, ``robut-sentence``, ``robut-sentence-llm``, ...) and
    ``robut-mix`` (header, content and question levels, two or three at a time).
    """

    @staticmethod
    def build(
        model_wrapper: Any,
        *,
        perturbation_name: str,
        num_candidates: int = CANDIDATES,
        benchmark: str | None = None,
        llm: str | None = None,
        judge: str | Sequence[str] | None = DEFAULT_JUDGE,
    ) -> Attack:
        """Compose the attack.

        Args:
            model_wrapper: The Table QA victim (``(question, table_json)`` inputs).
            perturbation_name: A registered table perturbation (``"header-synonym"``), one of
                RobuT's question perturbations (``"robut-word"``) or ``"robut-mix"``.
            num_candidates: Perturbed tables or mixes tried per example (a question
                perturbation gives all its rewrites).
            benchmark: Registered benchmark whose scorer judges the answers (``"wtq"``);
                ``None``: the benchmark the victim is bound to.
            llm: The LLM victim name that writes an LLM-written perturbation
                (``llm-header-*``, ``robut-*-llm``; ``None``: ``SEMPARSE_PERTURBATION_LLM``).

            judge: The meaning judges a rewritten question must pass
                (:mod:`textattack_semparse.judges`; ``None``: none); added for the perturbations
                that rewrite the question (a table perturbation leaves it as it is).

        Raises:
            RecipeError: ``llm`` given for a perturbation that uses no LLM.
        """
        options: dict[str, Any] = {}
        if llm is not None:
            if perturbation_name not in ROBUT_LLM_PERTURBATIONS:
                raise RecipeError(
                    f"llm={llm!r} is for the LLM-written perturbations ({', '.join(ROBUT_LLM_PERTURBATIONS)}); "
                    f"{perturbation_name!r} uses no LLM: drop the option."
                )
            options["llm"] = llm
        # Goal: the answer stops matching the gold by WTQ's denotation match; examples the
        # victim already answers wrongly are skipped (RobuT's robust accuracy counts those
        # answered correctly before the perturbation).
        goal_function = benchmark_goal_function(model_wrapper, benchmark=benchmark)
        # RobuT §3: one table perturbation (or the mix of two or three levels); table
        # perturbations keep every gold answer value valid (they read the gold recorded on
        # the original).
        if perturbation_name in _DRAWN:
            options["num_candidates"] = num_candidates
        transformation: Transformation = perturbation(perturbation_name, **options)
        constraints: list[Any] = [
            # Question words are edited at most once.
            RepeatModification(),
            # Question perturbations never touch the table column.
            freeze_table_column(),
        ]
        if perturbation_name not in _DRAWN or perturbation_name == "robut-mix":
            # A rewritten question must ask what the original asked (RobuT's annotators wrote
            # meaning-preserving perturbations; the judge is the automatic substitute).
            constraints += judgement_constraints(MeaningJudgement(judge) if judge else None)
        # One application, every candidate tried.
        search_method = SinglePerturbationSearch()
        return Attack(goal_function, constraints, transformation, search_method)
