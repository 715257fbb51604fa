"""The goal function a recipe uses for a given victim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textattack.goal_functions import GoalFunction, UntargetedClassification

from textattack_semparse.goal_functions.exact_match import ExactMatch
from textattack_semparse.goal_functions.execution_match import ExecutionMatch
from textattack_semparse.victims.semantic_parser import SemanticParser


def victim_goal_function(
    model_wrapper: Any,
    *,
    database: str | Path | None = None,
    database_root: str | Path | None = None,
    **goal_function_options: Any,
) -> GoalFunction:
    """Execution match for SQL parsers, exact match for parsers without a database,
    TextAttack's untargeted classification goal for every other victim.

    A victim is a semantic parser when it subclasses :class:`SemanticParser`; its database is
    ``database`` (or ``database_root`` for Spider-style benchmarks), else its own
    ``database`` attribute. This lets one recipe attack semantic parsers and ordinary
    TextAttack classifiers, as Yin et al. (2020) attack classifiers with grammatical errors.
    """
    if not isinstance(model_wrapper, SemanticParser):
        return UntargetedClassification(model_wrapper, **goal_function_options)
    if database is None and database_root is None and model_wrapper.database is None:
        return ExactMatch(model_wrapper, **goal_function_options)
    return ExecutionMatch(model_wrapper, database=database, database_root=database_root, **goal_function_options)
