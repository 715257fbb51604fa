"""RobuT's table perturbations as attacks on Table QA victims (Zhao et al. 2023)."""

from __future__ import annotations

from typing import Any

from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.transformations import Transformation

from textattack_semparse.errors import RecipeError
from textattack_semparse.recipes.attack.recipe_ingredients import benchmark_goal_function, perturbation
from textattack_semparse.search_methods.single_perturbation_search import SinglePerturbationSearch
from textattack_semparse.tables import ROBUT_LLM_PERTURBATIONS
from textattack_semparse.tables.table_text import freeze_table_column

CANDIDATES = 10
"""Perturbed tables tried per example (each a different seeded draw)."""


class TablePerturbationAttackZhao2023:
    """Perturb the table (for the mix, two or three levels) once; succeed if the answer breaks.

    Yilun Zhao, Chen Zhao, Linyong Nan, Zhenting Qi, Wenlin Zhang, Xiangru Tang, Boyu Mi and
    Dragomir Radev (2023). RobuT: A Systematic Study of Table QA Robustness Against
    Human-Annotated Adversarial Perturbations. ACL 2023. https://arxiv.org/abs/2306.14321

    RobuT's annotators wrote one perturbed example per perturbation type; here the registered
    table perturbation generates the candidates and every one is tried (black-box). Registered
    as ``robut-<perturbation>`` for each of RobuT's table perturbations (and its LLM-written
    header names, ``robut-llm-header-synonym``/``-abbreviation``) and as ``robut-mix`` (the
    ``robut-mix`` perturbation: header, content and question levels, two or three at a time).
    """

    @staticmethod
    def build(
        model_wrapper: Any,
        *,
        perturbation_name: str,
        num_candidates: int = CANDIDATES,
        benchmark: str | None = None,
        llm: str | None = None,
    ) -> Attack:
        """Compose the attack.

        Args:
            model_wrapper: The Table QA victim (``(question, table_json)`` inputs).
            perturbation_name: A registered table perturbation (``"header-synonym"``) or
                ``"robut-mix"``.
            num_candidates: Perturbed tables tried per example.
            benchmark: Registered benchmark whose scorer judges the answers (``"wtq"``);
                ``None``: the benchmark the victim is bound to.
            llm: The LLM victim name that writes an LLM-written perturbation
                (``llm-header-*``; ``None``: ``SEMPARSE_PERTURBATION_LLM``).

        Raises:
            RecipeError: ``llm`` given for a perturbation that uses no LLM.
        """
        llm_options = {}
        if llm is not None:
            if perturbation_name not in ROBUT_LLM_PERTURBATIONS:
                raise RecipeError(
                    f"llm={llm!r} is for the LLM-written perturbations ({', '.join(ROBUT_LLM_PERTURBATIONS)}); "
                    f"{perturbation_name!r} uses no LLM: drop the option."
                )
            llm_options["llm"] = llm
        # Goal: the answer stops matching the gold by WTQ's denotation match; examples the
        # victim already answers wrongly are skipped (RobuT's robust accuracy counts those
        # answered correctly before the perturbation).
        goal_function = benchmark_goal_function(model_wrapper, benchmark=benchmark)
        # RobuT §3: one table perturbation (or the mix of two or three levels); table
        # perturbations keep every gold answer value valid (they read the gold recorded on
        # the original).
        transformation: Transformation = perturbation(perturbation_name, num_candidates=num_candidates, **llm_options)
        constraints = [
            # Question words are edited at most once.
            RepeatModification(),
            # Question perturbations never touch the table column.
            freeze_table_column(),
        ]
        # One application, every candidate tried.
        search_method = SinglePerturbationSearch()
        return Attack(goal_function, constraints, transformation, search_method)
