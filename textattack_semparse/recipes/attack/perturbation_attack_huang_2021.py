"""One meaning-preserving perturbation per utterance, as the robustness studies apply them, as an attack."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textattack import Attack
from textattack.constraints import Constraint

from textattack_semparse.constraints.meaning_judgement import MeaningJudgement, judgement_constraints
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE
from textattack_semparse.recipes.attack.recipe_ingredients import benchmark_goal_function, perturbation
from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch
from textattack_semparse.search_methods.single_perturbation_search import SinglePerturbationSearch
from textattack_semparse.transformations.top_k_by_similarity import TopKBySimilarity

SEARCHES = ("single", "word-importance")

WORD_IMPORTANCE_PERTURBATIONS = frozenset({"typo"})
"""Perturbations whose edits go to the words most important to the victim by default.

Zhuo et al.'s TB places TextBugger's typos (Li et al. 2019, https://arxiv.org/abs/1812.05271)
on the words that matter most, ranked by the victim's score drop when the word is removed."""


class PerturbationAttackHuang2021:
    """Perturb each utterance once with one operation; succeed if a perturbed utterance breaks the parse.

    Shuo Huang, Zhuang Li, Lizhen Qu and Lei Pan (2021). On Robustness of Neural Semantic
    Parsers. EACL 2021. https://aclanthology.org/2021.eacl-main.292/ (a success is an
    adversarial example of their Eq. 2, a rewrite by an operation of §3.1 that the parser gets
    wrong; the black-box attack of §3.2 also counts only rewrites that raise the parser's loss,
    which this recipe does not require).

    Terry Yue Zhuo, Zhuang Li, Yujin Huang, Fatemeh Shiri, Weiqing Wang, Gholamreza Haffari
    and Yuan-Fang Li (2023). On Robustness of Prompt-based Semantic Parsing with Large
    Pre-trained Language Model: An Empirical Study on Codex. EACL 2023.
    https://arxiv.org/abs/2301.12868 (TB, RD, RS, CS, CI, RB, DB; 20 candidates, the 10
    most similar kept).

    Registered once per perturbation as ``semparse-<perturbation>`` (``semparse-insertion``,
    ``semparse-typo``, ...), with the papers' candidate settings bound as options. TB
    (``typo``) follows TextBugger instead of a single application: greedy search over the
    words in order of importance to the victim, one bugged word per step, until the parse
    breaks or the perturbation's word budget (two words) is spent.
    """

    @staticmethod
    def build(
        model_wrapper: Any,
        *,
        perturbation_name: str,
        keep: int | None = None,
        benchmark: str | None = None,
        execution_mode: str | None = None,
        perturbation_options: dict[str, Any] | None = None,
        search: str | None = None,
        judge: str | Sequence[str] | None = DEFAULT_JUDGE,
    ) -> Attack:
        """Compose the attack.

        Args:
            model_wrapper: The victim.
            perturbation_name: A registered perturbation (``textattack-semparse list perturbation``).
            keep: Keep only the ``keep`` candidates most similar to the original by
                Sentence-BERT (Zhuo et al.: 10; Huang et al. back translation: 1); ``None``
                tries every candidate.
            benchmark: Registered benchmark whose scorer and databases judge the outputs;
                ``None``: the benchmark the victim is bound to.
            execution_mode: ``"classical"`` or ``"test-suite"`` overriding the benchmark's.
            perturbation_options: Keyword arguments for the perturbation (e.g. a model name).
            search: ``"single"`` (one application, every candidate tried) or
                ``"word-importance"`` (greedy, the victim's most important words first);
                ``None`` (default) = ``"word-importance"`` for the perturbations in
                :data:`WORD_IMPORTANCE_PERTURBATIONS` (TB), ``"single"`` otherwise.
            judge: The meaning judges a candidate must pass (:mod:`textattack_semparse.judges`;
                several must all agree; ``None``: none), applied before the victim sees a
                candidate: this package's automatic filter. The papers had people check some
                rewrites (Huang et al.: two of three crowd workers, for substitution (nf), back
                translation and reordering, not the function-word operations; Zhuo et al.:
                experts).
        """
        if search is None:
            search = "word-importance" if perturbation_name in WORD_IMPORTANCE_PERTURBATIONS else "single"
        if search not in SEARCHES:
            raise ConfigurationError(f"search={search!r} is not one of {SEARCHES}.")
        # Goal: the victim's output stops matching the gold; already-wrong examples are skipped.
        goal_function = benchmark_goal_function(model_wrapper, benchmark=benchmark, execution_mode=execution_mode)
        # The perturbation, optionally filtered to its most similar candidates.
        transformation = perturbation(perturbation_name, **(perturbation_options or {}))
        if keep is not None:
            transformation = TopKBySimilarity(transformation, k=keep)
        # Words carrying the gold query's database values stay as they are.
        constraints: list[Constraint] = [PreserveLiterals()]
        # A candidate must ask what the original asked (the papers' human check, automated).
        constraints += judgement_constraints(MeaningJudgement(judge) if judge else None)
        if search == "word-importance":
            # TextBugger (Li et al. 2019, Algorithm 2): words ranked by the victim's score drop when
            # deleted; most important first, the best bug of each word is kept while it helps, until
            # success; the perturbation stops at its word budget (TB: two words).
            search_method = GreedyWordImportanceSearch(wir_method="delete")
        else:
            # One application of the perturbation, every candidate tried (black-box).
            search_method = SinglePerturbationSearch()
        return Attack(goal_function, constraints, transformation, search_method)
