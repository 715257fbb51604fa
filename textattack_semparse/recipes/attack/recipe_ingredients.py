"""Ingredients the semantic-parsing attack recipes share."""

from __future__ import annotations

from typing import Any

from textattack.goal_functions import GoalFunction
from textattack.transformations import Transformation

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.goal_functions.victim_goal_function import victim_goal_function
from textattack_semparse.registry import get_registry


def benchmark_goal_function(
    model_wrapper: Any, *, benchmark: str | None = None, execution_mode: str | None = None
) -> GoalFunction:
    """The goal function for ``model_wrapper`` judged as the named ``benchmark`` (default: the
    benchmark the victim is bound to) judges: execution or exact match; untargeted
    classification for classifiers."""
    return victim_goal_function(
        model_wrapper,
        benchmark=None if benchmark is None else load_benchmark(benchmark),
        **({} if execution_mode is None else {"execution_mode": execution_mode}),
    )


def perturbation(name: str, **options: Any) -> Transformation:
    """The registered perturbation ``name`` (``textattack-semparse list perturbation``)."""
    return get_registry().get("perturbation", name).create(**options)
