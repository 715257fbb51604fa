"""Ingredients the semantic-parsing attack recipes share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textattack.goal_functions import GoalFunction
from textattack.transformations import Transformation

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.goal_functions.victim_goal_function import victim_goal_function
from textattack_semparse.registry import get_registry


def benchmark_goal_function(
    model_wrapper: Any, *, benchmark: str | None = None, database: str | Path | None = None
) -> GoalFunction:
    """The goal function for ``model_wrapper`` on ``benchmark``'s database (or ``database``).

    Execution match when a database is known, exact match for benchmarks without one
    (Scholar, logical forms), untargeted classification for classifiers.
    """
    if database is None and benchmark is not None:
        loaded = load_benchmark(benchmark)
        database = loaded.database or loaded.database_root
    return victim_goal_function(model_wrapper, database=database)


def perturbation(name: str, **options: Any) -> Transformation:
    """The registered perturbation ``name`` (``textattack-semparse list perturbation``)."""
    return get_registry().get("perturbation", name).create(**options)
