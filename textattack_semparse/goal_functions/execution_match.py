"""Execution-match goal function for text-to-SQL victims."""

from __future__ import annotations

import os
from typing import Any

from textattack_semparse.errors import RecipeError
from textattack_semparse.goal_functions.semantic_parsing_goal_function import (
    SemanticParsingGoalFunction,
    declare_compatibility,
)
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.scoring.execution_scorer import GOLD_TIMEOUT, TIMEOUT, ExecutionScorer
from textattack_semparse.scoring.scoring import Scoring, scoring_for


class ExecutionMatch(SemanticParsingGoalFunction):
    """Succeeds when the victim's SQL no longer returns the gold query's result.

    Execution accuracy is the metric of the text-to-SQL robustness studies (Zhuo et al. 2023,
    "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained Language Model",
    https://arxiv.org/abs/2301.12868; Huang et al. 2021,
    https://aclanthology.org/2021.eacl-main.292/, score logical forms by exact match instead).
    Both queries run on a read-only,
    time-limited connection (:mod:`textattack_semparse.sql`), on every database of the
    benchmark (test-suite accuracy when there are several). A prediction that fails to run is
    a mismatch; an example whose gold query fails is skipped as a gold error.

    Args:
        model_wrapper: The victim.
        database (str | os.PathLike | Databases | None, default None): A SQLite file, a folder
            of per-``db_id`` databases (Spider), or :class:`Databases`; default the databases
            of the benchmark the victim is bound to, else the victim's ``database``.
        mode (str, default "classical"): One of
            :data:`~textattack_semparse.scoring.execution_scorer.MODES` (``docs/sql.md``).
        timeout (float, default :data:`~textattack_semparse.scoring.execution_scorer.TIMEOUT`):
            Seconds a predicted query may run.
        gold_timeout (float, default
            :data:`~textattack_semparse.scoring.execution_scorer.GOLD_TIMEOUT`): Seconds a gold
            query may run.
        max_rows (int, default 10000): Rows fetched per query.
        Other arguments: as :class:`SemanticParsingGoalFunction`.

    Example:
        >>> from textattack_semparse.datasets.benchmark import load_benchmark
        >>> from textattack_semparse.victims.knn_template_parser import KNNTemplateParser
        >>> geo = load_benchmark("geo-mini")
        >>> victim = KNNTemplateParser(geo.split("question", "train"), database=geo.database)
        >>> goal = ExecutionMatch(victim, mode="test-suite")
        >>> goal.scoring.databases.primary == geo.database, goal.scoring.scorer.mode
        (True, 'test-suite')
    """

    def __init__(
        self,
        model_wrapper: Any,
        *args: Any,
        database: str | os.PathLike[str] | Databases | None = None,
        mode: str = "classical",
        timeout: float = TIMEOUT,
        gold_timeout: float = GOLD_TIMEOUT,
        max_rows: int = 10_000,
        **kwargs: Any,
    ) -> None:
        self.database = database
        self.scorer = ExecutionScorer(mode=mode, timeout=timeout, gold_timeout=gold_timeout, max_rows=max_rows)
        super().__init__(model_wrapper, *args, **kwargs)

    def _scoring(self, model_wrapper: Any) -> Scoring:
        if self.database is not None:
            databases: Databases | None = (
                self.database if isinstance(self.database, Databases) else Databases.at(self.database)
            )
        else:
            databases = scoring_for(model_wrapper, benchmark=self.benchmark).databases
        if databases is None:
            raise RecipeError(
                f"ExecutionMatch needs a database: {type(model_wrapper).__name__} is bound to none. "
                "Pass database=<sqlite file> (or a folder of per-db_id databases), or bind the victim to a benchmark."
            )
        return Scoring(self.scorer, databases)


declare_compatibility(ExecutionMatch)
