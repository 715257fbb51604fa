"""Any registered attack recipe over a dataset, sharded over a backend's workers, every finished
example journaled, and TextAttack's own logs written from the results: ``textattack attack``
for the plugin's recipes and TextAttack's, resumable after a kill (docs/attack.md).

A worker builds the attack once from names (:class:`AttackSpec`: recipe, model, options), so a
Ray worker on another machine needs only this package, not the driver's objects. Each example
is attacked as by a freshly built attack: the attack's caches are emptied, the random
generators its components hold are rewound to their state after the build, and Python's,
NumPy's and torch's generators are seeded with ``seed + index`` (the example's dataset index).
So an example's result does not depend on which worker attacked it or what it attacked before,
and the logs are the same on every backend and after any number of resumes.

Each finished example is one line of ``examples.jsonl``
(:class:`~textattack_semparse.runs.journal.Journal`): a readable summary and the
``AttackResult`` itself, pickled and base64-encoded (TextAttack's own checkpoints pickle results
too; only resume from directories you wrote). The final files are rendered by TextAttack's
``AttackLogManager`` from the results in dataset order and replaced atomically. Original to
textattack-semparse.

Example:
    >>> import tempfile
    >>> config = AttackConfig(recipe="semparse-geo", model="knn-geo", output_dir=tempfile.mkdtemp(),
    ...                       num_examples=2)
    >>> config.configuration()["random_seed"]
    0
"""

from __future__ import annotations

import base64
import functools
import os
import pickle
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textattack_semparse.errors import (
    ConfigurationError,
    RecipeError,
    closest_match_hint,
)
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.run_directory import RunDirectory, atomic_write_text
from textattack_semparse.runs.seeding import DEFAULT_SEED, component_generators

COMMAND = "attack"
CSV_LOG, TXT_LOG, SUMMARY = "attack_log.csv", "attack_log.txt", "attack_summary.json"
COLORING_STYLES = ("file", "plain", "html")
"""``--csv-coloring-style`` values, as ``textattack attack`` accepts them."""

JOURNAL = "examples"
"""Journal name: ``examples.jsonl`` in the output directory, one finished example a line."""

SUCCEEDED, FAILED, SKIPPED = "Successful", "Failed", "Skipped"


@dataclass(frozen=True)
class AttackConfig:
    """What decides an attack's results (recorded in ``run.json``; a change is refused there).

    Args:
        recipe: A registered attack recipe or one of TextAttack's (``semparse-geo``, ``textfooler``).
        model: As ``textattack attack --model``: a registered victim (``knn-geo``), a local model
            directory, an LLM victim name or one of TextAttack's models.
        output_dir: Where the logs, the summary and the journal go.
        recipe_options: Further keywords of the recipe's ``build``.
        model_from_huggingface: As ``textattack attack --model-from-huggingface``.
        dataset: As ``--dataset-by-model``: a registered dataset (``geo-question-test``); a plugin
            victim brings its own when ``None``.
        dataset_from_huggingface: As ``textattack attack --dataset-from-huggingface``.
        dataset_split: As ``textattack attack --dataset-split``.
        num_examples: Examples to attack (``-1``: all).
        num_examples_offset: Examples skipped first.
        indices: The dataset indices to attack, instead of ``num_examples`` from the offset
            (e.g. the training part of a split, for adversarial training).
        query_budget: Victim queries allowed per example (``None``: the recipe's).
        seed: Example ``i`` is attacked with seed ``seed + i``.
        csv_coloring_style: How TextAttack's CSV log marks changed words.
    """

    recipe: str
    model: str
    output_dir: str | os.PathLike[str]
    recipe_options: Mapping[str, Any] = field(default_factory=dict)
    model_from_huggingface: str | None = None
    dataset: str | None = None
    dataset_from_huggingface: str | None = None
    dataset_split: str | None = None
    num_examples: int = 10
    num_examples_offset: int = 0
    indices: tuple[int, ...] | None = None
    query_budget: int | None = None
    seed: int = DEFAULT_SEED
    csv_coloring_style: str = "file"

    def __post_init__(self) -> None:
        check_example_range(self.num_examples, self.num_examples_offset)
        if self.indices is not None:
            object.__setattr__(self, "indices", tuple(self.indices))
            if any(isinstance(index, bool) or not isinstance(index, int) or index < 0 for index in self.indices):
                raise ConfigurationError(f"indices must be dataset indices (ints >= 0), got {self.indices!r}.")
        if self.query_budget is not None and (isinstance(self.query_budget, bool) or self.query_budget < 1):
            raise ConfigurationError(f"--query-budget must be a positive integer, got {self.query_budget!r}.")
        if self.csv_coloring_style not in COLORING_STYLES:
            raise ConfigurationError(
                f"--csv-coloring-style must be one of {', '.join(COLORING_STYLES)}, got {self.csv_coloring_style!r}."
            )

    def spec(self) -> AttackSpec:
        """What a worker needs to build this attack."""
        return AttackSpec(
            recipe=self.recipe,
            model=self.model,
            model_from_huggingface=self.model_from_huggingface,
            dataset=self.dataset,
            options=self.recipe_options,
            query_budget=self.query_budget,
        )

    def configuration(self) -> dict[str, Any]:
        """What ``run.json`` records: everything that decides the results (not the backend,
        workers, progress bar or log style)."""
        chosen = {} if self.indices is None else {"indices": list(self.indices)}
        return {
            **chosen,
            "recipe": self.recipe,
            "recipe_options": {key: repr(value) for key, value in sorted(self.recipe_options.items())},
            "model": self.model,
            "model_from_huggingface": self.model_from_huggingface,
            "dataset": self.dataset,
            "dataset_from_huggingface": self.dataset_from_huggingface,
            "dataset_split": self.dataset_split,
            "num_examples": self.num_examples,
            "num_examples_offset": self.num_examples_offset,
            "query_budget": self.query_budget,
            "random_seed": self.seed,
        }


@dataclass(frozen=True)
class AttackRun:
    """A finished attack: the ``AttackResult`` of every example in dataset order, TextAttack's
    summary (as ``attack_summary.json`` holds it) and the files written."""

    results: list[Any]
    summary: dict[str, Any]
    paths: tuple[Path, ...]


def check_example_range(num_examples: int, offset: int) -> None:
    """``num_examples`` is ``-1`` (all) or positive, and ``offset`` is not negative.

    Raises:
        ConfigurationError: Either is not.
    """
    for name, value, valid in (
        ("--num-examples", num_examples, num_examples == -1 or num_examples > 0),
        ("--num-examples-offset", offset, offset >= 0),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not valid:
            expected = "-1 (all) or a positive integer" if name == "--num-examples" else "0 or a positive integer"
            raise ConfigurationError(f"{name} must be {expected}, got {value!r}.")


def run(config: AttackConfig, context: RunContext | None = None) -> AttackRun:
    """Attack the examples of ``config`` (resuming its output directory's journal) and write
    TextAttack's CSV log, text log and JSON summary there."""
    with (context or RunContext()) as context:
        results = attack_results(config, context)
        output = Path(config.output_dir)
        paths = (output / CSV_LOG, output / TXT_LOG, output / SUMMARY)
        summary = write_attack_logs(
            results,
            csv_path=paths[0],
            txt_path=paths[1],
            summary_path=paths[2],
            csv_coloring_style=config.csv_coloring_style,
        )
    return AttackRun(results=results, summary=summary, paths=paths)


def attack_results(config: AttackConfig, context: RunContext, *, command: str = COMMAND) -> list[Any]:
    """Run (or resume) the sharded attack of ``config`` in its output directory: the results in
    dataset order. Everything is checked before the directory is written."""
    spec = config.spec()
    check_recipe_name(spec.recipe)
    check_attack_victim(spec)
    dataset = load_attack_dataset(spec, from_huggingface=config.dataset_from_huggingface, split=config.dataset_split)
    check_recipe_fits(spec)
    check_recipe_options(spec.recipe, spec.options)
    if config.indices is not None and any(index >= len(dataset) for index in config.indices):
        raise ConfigurationError(f"indices must be below the dataset's {len(dataset)} examples, got {max(config.indices)}.")
    if config.indices is not None:
        indices = list(config.indices)
    else:
        indices = example_indices(len(dataset), config.num_examples, config.num_examples_offset)
    if config.indices is None and config.num_examples != -1 and len(indices) < config.num_examples:
        context.say(
            f"Attacking {len(indices)} examples: the dataset has no more after offset {config.num_examples_offset}."
        )
    tasks = attack_tasks(dataset, indices, config.seed)
    with context.open_directory(config.output_dir, command, config.configuration()) as directory:
        return run_sharded_attack(spec, tasks, directory, context)


@dataclass(frozen=True)
class AttackSpec:
    """What a worker needs to build the attack: names and options only (picklable, small).

    Args:
        recipe: A registered attack recipe or one of TextAttack's.
        model: As ``textattack attack --model``.
        model_from_huggingface: As ``textattack attack --model-from-huggingface``.
        dataset: As ``--dataset-by-model``; a victim needing a benchmark (an LLM) is bound to it.
        options: Further keywords of the recipe's ``build``.
        query_budget: Victim queries allowed per example (``None``: the recipe's).
    """

    recipe: str
    model: str
    model_from_huggingface: str | None = None
    dataset: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    query_budget: int | None = None


@dataclass(frozen=True)
class AttackTask:
    """One example to attack: its dataset index, TextAttack's inputs and ground truth, and the seed."""

    index: int
    inputs: Any
    ground_truth: Any
    label_names: Any
    seed: int


def check_recipe_name(name: str) -> None:
    """Fail, naming the closest names, when neither the plugin registry nor TextAttack's stock table
    knows the recipe ``name``; TextAttack is not imported (:mod:`~textattack_semparse.textattack_tables`).

    Raises:
        RecipeError: An unknown name.
    """
    from textattack_semparse.registry import get_registry
    from textattack_semparse.textattack_tables import RECIPES, is_textattack_recipe, table_names

    registry = get_registry()
    if ("attack-recipe", name) not in registry and not is_textattack_recipe(name):
        choices = sorted({*registry.names("attack-recipe"), *table_names(*RECIPES)})
        raise RecipeError(
            f"Unknown attack recipe {name!r}; `textattack-semparse list attack-recipe` and `textattack list "
            f"attack-recipes` name them." + closest_match_hint(name, choices)
        )


def recipe_class(name: str) -> Any:
    """The recipe called ``name``: the plugin registry's, else TextAttack's stock table (resolved
    as a module attribute, without TextAttack's ``eval``).

    Raises:
        RecipeError: Neither knows the name (with the closest names).
    """
    import importlib

    from textattack_semparse.registry import attack_recipe_class, get_registry

    check_recipe_name(name)
    if ("attack-recipe", name) in get_registry():
        return attack_recipe_class(name)
    from textattack.attack_args import ATTACK_RECIPE_NAMES

    module, _, attribute = ATTACK_RECIPE_NAMES[name].rpartition(".")
    return getattr(importlib.import_module(module), attribute)


def check_attack_victim(spec: AttackSpec) -> None:
    """Fail, naming the fix, when ``spec.model`` names no victim the plugin or TextAttack can load."""
    from textattack_semparse.victims.resolution import check_victim_name

    check_victim_name(spec.model, textattack_models=True, model_from_huggingface=spec.model_from_huggingface)


def check_recipe_fits(spec: AttackSpec) -> None:
    """Fail before anything runs when the recipe judges outputs on another benchmark than the
    one the attacked dataset (and so the victim) belongs to."""
    from textattack_semparse.recipes.recipe_fit import check_recipe_fits_dataset
    from textattack_semparse.victims.resolution import is_plugin_victim, victim_dataset

    if is_plugin_victim(spec.model):
        check_recipe_fits_dataset(spec.recipe, victim_dataset(spec.model, spec.dataset))


def check_recipe_options(name: str, options: Mapping[str, Any]) -> None:
    """Fail before anything runs when the recipe's ``build`` takes no such option (``--judge`` on a
    recipe that applies no meaning judge, a misspelled ``--recipe-option``), naming those it takes."""
    import inspect

    from textattack_semparse.registry import BoundRecipe

    if not options:
        return
    recipe = recipe_class(name)
    build = (recipe.recipe if isinstance(recipe, BoundRecipe) else recipe).build
    parameters = list(inspect.signature(build).parameters.values())[1:]  # after the model wrapper
    if any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
        return
    taken = [parameter.name for parameter in parameters if parameter.kind is not parameter.VAR_POSITIONAL]
    unknown = sorted(set(options) - set(taken))
    if unknown:
        judge = " (--judge and --no-judge: it applies no meaning judge)" if "judge" in unknown else ""
        raise RecipeError(
            f"Recipe {name!r} takes no option {', '.join(map(repr, unknown))}{judge}; "
            f"it takes {', '.join(taken) or 'none'}."
        )


def load_victim(spec: AttackSpec) -> Any:
    """The victim (a TextAttack model wrapper) ``spec.model`` names, resolved as ``textattack attack`` does."""
    from textattack_semparse.victims.resolution import is_plugin_victim, resolve_victim

    if is_plugin_victim(spec.model):
        return resolve_victim(spec.model, dataset=spec.dataset)[0]
    import textattack

    return textattack.ModelArgs._create_model_from_args(
        textattack.ModelArgs(model=spec.model, model_from_huggingface=spec.model_from_huggingface)
    )


def load_attack_dataset(spec: AttackSpec, *, from_huggingface: str | None = None, split: str | None = None) -> Any:
    """The TextAttack dataset to attack: a plugin victim's registered dataset (``spec.dataset``
    or the victim's own), else TextAttack's ``--dataset-by-model``/``--dataset-from-huggingface``."""
    from textattack_semparse.victims.resolution import (
        is_plugin_victim,
        load_dataset,
        required_dataset,
        victim_dataset,
    )

    if is_plugin_victim(spec.model) and not from_huggingface:
        return load_dataset(required_dataset(spec.model, victim_dataset(spec.model, spec.dataset)))
    import textattack

    return textattack.DatasetArgs._create_dataset_from_args(
        textattack.DatasetArgs(
            dataset_by_model=spec.dataset or spec.model, dataset_from_huggingface=from_huggingface, dataset_split=split
        )
    )


def example_indices(dataset_size: int, num_examples: int, offset: int) -> list[int]:
    """The dataset indices TextAttack's ``Attacker`` attacks: ``num_examples`` from ``offset``
    (``-1``: all from ``offset``).

    Example:
        >>> example_indices(28, 3, 5), example_indices(4, -1, 1), example_indices(4, 10, 2)
        ([5, 6, 7], [1, 2, 3], [2, 3])
    """
    available = range(offset, dataset_size)
    return list(available if num_examples == -1 else available[:num_examples])


def attack_tasks(dataset: Any, indices: Sequence[int], seed: int) -> list[AttackTask]:
    """One :class:`AttackTask` per index, seeded ``seed + index``."""
    tasks = []
    for index in indices:
        inputs, ground_truth = dataset[index]
        tasks.append(AttackTask(index, inputs, ground_truth, dataset.label_names, seed + index))
    return tasks


class AttackWorker:
    """What a worker holds: the attack, and the state its components' own random generators had
    when it was built (restored before each example, see :func:`attack_example`)."""

    def __init__(self, attack: Any) -> None:
        self.attack = attack
        self.generators = [(generator, generator.getstate()) for generator in component_generators(attack)]

    def reset(self) -> None:
        """Empty the caches and rewind the components' generators: the attack as just built."""
        clear_caches(self.attack)
        for generator, state in self.generators:
            generator.setstate(state)


def build_attack(spec: AttackSpec) -> AttackWorker:
    """A worker's attack: ``recipe.build(victim, **options)`` with the query budget applied."""
    import torch

    attack = recipe_class(spec.recipe).build(load_victim(spec), **dict(spec.options))
    if spec.query_budget:
        attack.goal_function.query_budget = spec.query_budget
    if torch.cuda.is_available():
        attack.cuda_()
    return AttackWorker(attack)


def attack_example(worker: AttackWorker, task: AttackTask) -> Any:
    """Attack one example as a freshly built attack would (caches empty, the components' own
    generators rewound) with Python's, NumPy's and torch's generators seeded: its ``AttackResult``."""
    from textattack.shared import AttackedText
    from textattack.shared.utils import set_seed

    worker.reset()
    set_seed(task.seed)
    text = AttackedText(task.inputs)
    if task.label_names is not None:
        text.attack_attrs["label_names"] = task.label_names
    return worker.attack.attack(text, task.ground_truth)


def clear_caches(attack: Any) -> None:
    """Empty every cache of ``attack``: ``Attack.clear_cache`` and the constraints a search method
    holds itself (e.g. the deferred Sentence-BERT constraint of ``GreedyWordImportanceSearch``,
    which ``Attack.clear_cache`` does not reach). Cached embeddings were computed in other
    batches, whose padding changes their last bits and so, at a threshold, the attack."""
    from textattack.constraints import Constraint

    attack.clear_cache()
    for value in vars(attack.search_method).values():
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, Constraint) and callable(getattr(item, "clear_cache", None)):
                item.clear_cache()


def result_type(result: Any) -> str:
    """``Successful``, ``Failed``, ``Skipped`` or ``Maximized``, as TextAttack's CSV log names it."""
    return type(result).__name__.replace("AttackResult", "")


def journal_record(result: Any) -> dict[str, Any]:
    """A journal line's value: what a person reads, and the pickled result."""
    return {
        "result_type": result_type(result),
        "original_text": result.original_text(),
        "perturbed_text": result.perturbed_text(),
        "num_queries": result.num_queries,
        "result": base64.b64encode(pickle.dumps(result)).decode("ascii"),
    }


def result_from_record(record: Mapping[str, Any]) -> Any:
    """The ``AttackResult`` of a journal line."""
    return pickle.loads(base64.b64decode(record["result"]))


def run_sharded_attack(
    spec: AttackSpec, tasks: Sequence[AttackTask], directory: RunDirectory, context: RunContext
) -> list[Any]:
    """The ``AttackResult`` of every task, in task order: read from the directory's journal when
    finished there, else attacked on the context's backend (each worker built by
    :func:`build_attack`) and journaled as each arrives."""
    journal = directory.journal(JOURNAL)
    done = journal.read()
    results = {task.index: result_from_record(done[str(task.index)]) for task in tasks if str(task.index) in done}
    todo = [task for task in tasks if task.index not in results]
    counts = {SUCCEEDED: 0, FAILED: 0, SKIPPED: 0}

    def count(result: Any) -> str:
        kind = {"Maximized": SUCCEEDED}.get(result_type(result), result_type(result))
        counts[kind] = counts.get(kind, 0) + 1
        return f"{spec.recipe}: {counts[SUCCEEDED]} succeeded, {counts[FAILED]} failed, {counts[SKIPPED]} skipped"

    with context.progress(len(tasks), spec.recipe) as bar:
        for result in results.values():
            bar.describe(count(result))
        bar.advance(len(results))
        finished = context.map(
            todo,
            functools.partial(build_attack, spec),
            attack_example,
            journal=journal,
            done=done,
            records=lambda task, result: [(str(task.index), journal_record(result))],
            progress=bar,
        )
        for task, result in finished:
            results[task.index] = result
            bar.describe(count(result))
    return [results[task.index] for task in tasks]


def write_attack_logs(
    results: Sequence[Any],
    *,
    csv_path: Path | None = None,
    txt_path: Path | None = None,
    summary_path: Path | None = None,
    csv_coloring_style: str = "file",
) -> dict[str, Any]:
    """Write TextAttack's CSV log, text log and JSON summary of ``results`` (through
    ``AttackArgs.create_loggers_from_args``, so with the plugin's summary rows, exactly as
    ``textattack attack`` writes them), each replacing its file atomically. Returns the summary."""
    import json

    from textattack import AttackArgs
    from textattack.shared.utils import logger

    paths = {"csv": csv_path, "txt": txt_path, "json": summary_path}
    wanted = {kind: Path(path) for kind, path in paths.items() if path is not None}
    folder = next(iter(wanted.values())).parent if wanted else Path.cwd()
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".attack-logs.") as scratch:
        scratch_paths = {kind: os.path.join(scratch, f"log.{kind}") for kind in ("csv", "txt", "json")}
        level = logger.level
        logger.setLevel("WARNING")  # TextAttack would announce the scratch paths
        try:
            manager = AttackArgs.create_loggers_from_args(
                AttackArgs(
                    log_to_csv=scratch_paths["csv"],
                    log_to_txt=scratch_paths["txt"],
                    log_summary_to_json=scratch_paths["json"],
                    csv_coloring_style=csv_coloring_style,
                    disable_stdout=True,
                    silent=True,
                )
            )
        finally:
            logger.setLevel(level)
        for result in results:
            manager.log_result(result)
        manager.log_summary()
        manager.flush()
        for log in manager.loggers:
            log.close()
        summary = json.loads(Path(scratch_paths["json"]).read_text(encoding="utf-8") or "{}")
        for kind, path in wanted.items():
            atomic_write_text(path, Path(scratch_paths[kind]).read_text(encoding="utf-8"))
    return summary
