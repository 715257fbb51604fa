"""A grammatical-error attack (``nucle-*``) reported as Yin et al. (2020) report theirs.

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against Grammatical
Errors", https://aclanthology.org/2020.acl-main.310/. The attack runs on the engine of
:mod:`textattack_semparse.experiments.attack` (sharded, journaled, resumable); from its results
this writes, in the output directory:

* ``attack_log.csv``: TextAttack's CSV log;
* ``summary.json``: attack success rate and mean % of modified words of successful attacks
  (Table 3), the errors of each type in successful attacks (Table 4), and the success rate when
  at most k errors are allowed, k = 1 .. the largest per-question budget (Figure 1);
* ``success_vs_budget.png``: that curve.

The Figure 1 curve is derived from the number of errors each successful attack used, not from
re-runs: the greedy and beam searches add one error per step and a smaller budget only stops
them earlier, so point k equals the success rate of a run allowing min(k, the question's budget)
errors. For nucle-genetic and nucle-probabilistic the curve describes how many errors their
successes used.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textattack_semparse.errors import RecipeError
from textattack_semparse.experiments.attack import (
    AttackConfig,
    attack_results,
    check_attack_victim,
    write_attack_logs,
)
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.run_directory import atomic_write_text
from textattack_semparse.runs.seeding import DEFAULT_SEED

COMMAND = "grammar-attack"
SUMMARY = "summary.json"
PLOT = "success_vs_budget.png"
LOG = "attack_log.csv"
DEFAULT_RECIPE = "nucle-greedy"
MAX_MODIFICATION_RATE = 0.15
"""Errors allowed per word (Yin et al. 2020: 15% of the tokens)."""


@dataclass(frozen=True)
class GrammarAttackConfig:
    """What decides a grammatical-error attack's results.

    Args:
        model: The victim, as :class:`~textattack_semparse.experiments.attack.AttackConfig` takes it.
        output_dir: Where the log, summary, plot and journal go.
        recipe: A ``nucle-*`` recipe (default ``nucle-greedy``).
        max_modification_rate: Errors allowed per word (the paper's 0.15).
        error_model: Error-model JSON from ``fit-grammar-errors`` (``None``: the packaged sets).
        recipe_options: Further keywords of the recipe's ``build``.
        task: Yin et al.'s task (``mnli``, ``qnli``, ``mrpc``, ``sst2``), which names the attacked
            sentence of a pair (the recipe's ``task``); ``None``: the input columns name it.
        dataset, num_examples, num_examples_offset, query_budget, seed, model_from_huggingface,
            dataset_from_huggingface, dataset_split: As for the attack (all examples by default).
    """

    model: str
    output_dir: str | os.PathLike[str]
    recipe: str = DEFAULT_RECIPE
    max_modification_rate: float = MAX_MODIFICATION_RATE
    error_model: str | None = None
    recipe_options: Mapping[str, Any] = field(default_factory=dict)
    task: str | None = None
    model_from_huggingface: str | None = None
    dataset: str | None = None
    dataset_from_huggingface: str | None = None
    dataset_split: str | None = None
    num_examples: int = -1
    num_examples_offset: int = 0
    query_budget: int | None = None
    seed: int = DEFAULT_SEED

    def __post_init__(self) -> None:
        self.attack_config()  # checks the shared settings

    def options(self) -> dict[str, Any]:
        """The recipe's build keywords: the rate, the error model, the task and ``recipe_options``."""
        options = {"max_modification_rate": self.max_modification_rate, **self.recipe_options}
        if self.error_model:
            options["error_model"] = self.error_model
        if self.task:
            options["task"] = self.task
        return options

    def attack_config(self) -> AttackConfig:
        """The attack this runs."""
        return AttackConfig(
            recipe=self.recipe,
            model=self.model,
            output_dir=self.output_dir,
            recipe_options=self.options(),
            model_from_huggingface=self.model_from_huggingface,
            dataset=self.dataset,
            dataset_from_huggingface=self.dataset_from_huggingface,
            dataset_split=self.dataset_split,
            num_examples=self.num_examples,
            num_examples_offset=self.num_examples_offset,
            query_budget=self.query_budget,
            seed=self.seed,
            csv_coloring_style="plain",
        )


@dataclass(frozen=True)
class GrammarAttackRun:
    """A finished grammatical-error attack: the summary (``summary.json``) and the files written."""

    summary: dict[str, Any]
    paths: tuple[Path, ...]


def grammar_recipe(name: str) -> Any:
    """The ``nucle-*`` recipe class registered as ``name``.

    Raises:
        RecipeError: ``name`` is another kind of recipe (naming the grammatical-error ones).
        RegistryError: ``name`` is not registered.
    """
    from textattack_semparse.registry import get_registry

    entry = get_registry().get("attack-recipe", name)  # before TextAttack loads with the recipe
    from textattack_semparse.recipes.attack.grammar_error_attack_yin_2020 import (
        GrammarErrorAttackYin2020,
    )

    if entry.load() is not GrammarErrorAttackYin2020:
        grammar = [
            item.name for item in get_registry().entries("attack-recipe") if item.load() is GrammarErrorAttackYin2020
        ]
        raise RecipeError(
            f"grammar-attack runs the grammatical-error recipes; {name!r} is {entry.target}. Use one of "
            f"{', '.join(grammar)}, or `textattack-semparse attack` and `textattack-semparse metrics` for other recipes."
        )
    return GrammarErrorAttackYin2020


def run(config: GrammarAttackConfig, context: RunContext | None = None) -> GrammarAttackRun:
    """Run (or resume) the attack and write its log, summary and plot."""
    from textattack_semparse.metrics.grammar_error_analysis import (
        grammar_attack_summary,
        plot_success_vs_budget,
        record_from_result,
    )

    attack = config.attack_config()
    check_attack_victim(attack.spec())  # a misspelt victim is told before the recipe loads TextAttack
    recipe = grammar_recipe(config.recipe)
    with (context or RunContext()) as context:
        results = attack_results(attack, context, command=COMMAND)
    output_dir = Path(config.output_dir)
    write_attack_logs(results, csv_path=output_dir / LOG, csv_coloring_style=attack.csv_coloring_style)
    options = config.options()
    budget = recipe.error_budget(
        config.max_modification_rate, task=options.get("task"), sentence=options.get("sentence")
    )
    records = [record_from_result(result, budget.text_budget(result.original_result.attacked_text)) for result in results]
    summary = {
        "recipe": config.recipe,
        "model": config.model,
        "options": {
            key: value if isinstance(value, (int, float, str, bool)) else str(value) for key, value in options.items()
        },
        **grammar_attack_summary(records),
    }
    atomic_write_text(output_dir / SUMMARY, json.dumps(summary, indent=2) + "\n")
    plot_success_vs_budget(
        {config.recipe: summary["success_vs_budget"]}, output_dir / PLOT, title=f"{config.recipe} on {config.model}"
    )
    return GrammarAttackRun(summary=summary, paths=(output_dir / LOG, output_dir / SUMMARY, output_dir / PLOT))
