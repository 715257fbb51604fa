"""Whether a recipe can judge the outputs of the victim it attacks, checked before anything runs.

A recipe bound to a benchmark (``semparse-geo``: GeoQuery's SQL, executed on its database)
judges every output as that benchmark does. Pointed at a victim of another benchmark (a
logical-form parser, a schema-perturbed database), every gold output would be a *gold error*
and the run would report nothing while looking finished; so the pairing is refused up front,
naming the recipe that fits. Original to textattack-semparse.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textattack_semparse.errors import RecipeError
from textattack_semparse.registry import get_registry

UNBOUND_EXAMPLES = ("semparse-insertion", "semparse-typo", "nucle-greedy")
"""Recipes named as fitting any victim: they judge as the victim's own benchmark does."""


def recipe_benchmark(recipe: str, options: Mapping[str, Any] | None = None) -> str | None:
    """The benchmark a registered recipe judges on (its ``benchmark`` build option, as given in
    ``options`` or bound by its entry); ``None`` when it judges as the victim's benchmark does.

    Example:
        >>> recipe_benchmark("semparse-geo"), recipe_benchmark("semparse-typo")
        ('geo', None)
    """
    if options and options.get("benchmark") is not None:
        return str(options["benchmark"])
    registry = get_registry()
    if ("attack-recipe", recipe) not in registry:
        return None
    bound = registry.get("attack-recipe", recipe).options.get("benchmark")
    return None if bound is None else str(bound)


def check_recipe_fits_dataset(recipe: str, dataset: str | None, options: Mapping[str, Any] | None = None) -> None:
    """Refuse ``recipe`` on ``dataset`` (a registered dataset name) when the recipe judges on
    another benchmark than the dataset's.

    Benchmarks are compared as loaded, so ``geo`` (the real GeoQuery with
    ``SEMPARSE_DATA_DIR``, else the embedded geo-mini) fits the datasets of what it loads.

    Raises:
        RecipeError: The benchmarks differ (with the recipe that fits).
    """
    from textattack_semparse.datasets.benchmark import load_benchmark

    judged_on = recipe_benchmark(recipe, options)
    registry = get_registry()
    if judged_on is None or dataset is None or ("dataset", dataset) not in registry:
        return
    belongs_to = registry.get("dataset", dataset).options.get("benchmark")
    if belongs_to is None or judged_on == belongs_to:
        return
    judge, own = load_benchmark(judged_on), load_benchmark(str(belongs_to))
    if judge.name == own.name:
        return
    bound = f"semparse-{belongs_to}"
    fits = bound if ("attack-recipe", bound) in registry else " or ".join(UNBOUND_EXAMPLES)
    raise RecipeError(
        f"Recipe {recipe!r} judges outputs as benchmark {judged_on!r} does ({judge.scoring.describe()}), but "
        f"dataset {dataset!r} belongs to benchmark {belongs_to!r} ({own.scoring.describe()}): every gold output "
        f"would be a gold error. Use {fits}, which judge{'s' if fits == bound else ''} as {belongs_to!r} does."
    )
