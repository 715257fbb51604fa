"""Any registered attack recipe over a dataset, sharded over a backend's workers, every finished
example journaled, and TextAttack's own logs written from the results.

A worker builds the attack once from names (:class:`AttackSpec`: recipe, model, options), so a
Ray worker on another machine needs only this package, not the driver's objects. Each example
is attacked as by a freshly built attack: the attack's caches are emptied, the random
generators its components hold are rewound to their state after the build, and Python's,
NumPy's and torch's generators are seeded with ``random_seed + index`` (the example's dataset
index). So an example's result does not depend on which worker attacked it or what it attacked
before, and the logs are the same on every backend and after any number of resumes.

Each finished example is one line of ``examples.jsonl``
(:class:`~textattack_semparse.runs.journal.Journal`): a readable summary and the
``AttackResult`` itself, pickled and base64-encoded (TextAttack's own checkpoints pickle results
too; only resume from directories you wrote). The final files are rendered by TextAttack's
``AttackLogManager`` from the results in dataset order and replaced atomically. Original to
textattack-semparse.
"""

from __future__ import annotations

import ast
import base64
import functools
import os
import pickle
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textattack_semparse.errors import RecipeError, closest_match_hint
from textattack_semparse.runs.backends import Backend
from textattack_semparse.runs.progress import progress_bar
from textattack_semparse.runs.run_directory import RunDirectory, atomic_write_text
from textattack_semparse.runs.seeding import component_generators

JOURNAL = "examples"
"""Journal name: ``examples.jsonl`` in the output directory, one finished example a line."""

SUCCEEDED, FAILED, SKIPPED = "Successful", "Failed", "Skipped"


@dataclass(frozen=True)
class AttackSpec:
    """What a worker needs to build the attack: names and options only (picklable, small).

    Args:
        recipe: A registered attack recipe or one of TextAttack's (``semparse-geo``, ``textfooler``).
        model: As ``textattack attack --model``: a registered victim (``knn-geo``), a local model
            directory, an LLM victim name or one of TextAttack's models.
        model_from_huggingface: As ``textattack attack --model-from-huggingface``.
        dataset: As ``--dataset-by-model``: a registered dataset (``geo-question-test``) for a
            plugin victim; a victim needing a benchmark (an LLM) is bound to it.
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


def recipe_options(entries: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` entries as build keywords, each VALUE read as a Python literal (a bare
    string such as a path stays a string).

    Example:
        >>> recipe_options(["beam_width=3", "error_model=/tmp/m.json"])
        {'beam_width': 3, 'error_model': '/tmp/m.json'}
    """
    options: dict[str, Any] = {}
    for entry in entries:
        key, separator, value = entry.partition("=")
        if not separator or not key.isidentifier():
            raise RecipeError(f"--recipe-option {entry!r} is not KEY=VALUE (e.g. --recipe-option beam_width=3).")
        try:
            options[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            options[key] = value
    return options


def recipe_class(name: str) -> Any:
    """The recipe called ``name``: the plugin registry's, else TextAttack's stock table (resolved
    as a module attribute, without TextAttack's ``eval``).

    Raises:
        RecipeError: Neither knows the name (with the closest names).
    """
    import importlib

    from textattack.attack_args import ATTACK_RECIPE_NAMES

    from textattack_semparse.registry import attack_recipe_class, get_registry

    if ("attack-recipe", name) in get_registry():
        return attack_recipe_class(name)
    if name in ATTACK_RECIPE_NAMES:
        module, _, attribute = ATTACK_RECIPE_NAMES[name].rpartition(".")
        return getattr(importlib.import_module(module), attribute)
    choices = sorted(ATTACK_RECIPE_NAMES)
    raise RecipeError(
        f"Unknown attack recipe {name!r}; `textattack-semparse list attack-recipe` and `textattack list "
        f"attack-recipes` name them." + closest_match_hint(name, choices)
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
    from textattack_semparse.victims.resolution import is_plugin_victim, load_dataset, required_dataset, victim_dataset

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


def attack_tasks(dataset: Any, indices: Sequence[int], random_seed: int) -> list[AttackTask]:
    """One :class:`AttackTask` per index, seeded ``random_seed + index``."""
    tasks = []
    for index in indices:
        inputs, ground_truth = dataset[index]
        tasks.append(AttackTask(index, inputs, ground_truth, dataset.label_names, random_seed + index))
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
    spec: AttackSpec,
    tasks: Sequence[AttackTask],
    directory: RunDirectory,
    backend: Backend,
    *,
    progress: bool | None = None,
) -> list[Any]:
    """The ``AttackResult`` of every task, in task order: read from the directory's journal when
    finished there, else attacked on ``backend`` (each worker built by :func:`build_attack`) and
    journaled as each arrives; ``progress`` shows a bar (``None``: when standard error is a terminal)."""
    journal = directory.journal(JOURNAL)
    finished = {int(key): result_from_record(value) for key, value in journal.read().items()}
    results = {task.index: finished[task.index] for task in tasks if task.index in finished}
    todo = [task for task in tasks if task.index not in results]
    counts = {SUCCEEDED: 0, FAILED: 0, SKIPPED: 0}

    def count(result: Any) -> str:
        kind = {"Maximized": SUCCEEDED}.get(result_type(result), result_type(result))
        counts[kind] = counts.get(kind, 0) + 1
        return f"{spec.recipe}: {counts[SUCCEEDED]} succeeded, {counts[FAILED]} failed, {counts[SKIPPED]} skipped"

    with progress_bar(len(tasks), spec.recipe, enabled=progress) as bar:
        for result in results.values():
            bar.describe(count(result))
        bar.advance(len(results))
        make_worker = functools.partial(build_attack, spec)
        for task, result in zip(todo, backend.map(make_worker, attack_example, todo)):
            journal.append(str(task.index), journal_record(result))
            results[task.index] = result
            bar.describe(count(result))
            bar.advance()
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
        for logger in manager.loggers:
            logger.close()
        summary = json.loads(Path(scratch_paths["json"]).read_text(encoding="utf-8") or "{}")
        for kind, path in wanted.items():
            atomic_write_text(path, Path(scratch_paths[kind]).read_text(encoding="utf-8"))
    return summary
