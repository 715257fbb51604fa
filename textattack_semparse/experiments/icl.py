"""The in-context-learning study of Zhuo et al. (2023) for an LLM victim: every cell of shots x
few-shot selection x adversarial demonstrations (§4.2-4.3) evaluated on one meaning-preserving
test set, with the lexical diversity of each cell's demonstrations (docs/icl.md).

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868. The grid is
:mod:`textattack_semparse.llm.icl_grid`, the results :mod:`textattack_semparse.llm.icl_results`,
the figure :mod:`textattack_semparse.llm.icl_figure`.

On disk (``output_dir``)::

    run.json      what the study is (model, dataset, test perturbations, setting, seed, limit,
                  scoring); a later run on the directory must agree
    test_set/     the robustness test set, built once
    cells.jsonl   the finished cells, one JSON line each: its victim, demonstrations, their
                  diversity, the response-cache counts, the seconds it took and the robustness report
    icl.json, icl.csv, icl.png   the study, its table and its figure

A cell is journaled the moment it is finished and read, not re-run, when the journal has it; a
run that is killed (even with ``kill -9``) loses only the cells in flight, and even their
completions are in the LLM victim's response cache. Cells may be added to or left out of a later
run on the same directory; what the test set is and which model runs may not change. Cells run
serially, or on Ray workers that each load the model once. Original to textattack-semparse: the
file layout.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.errors import ConfigurationError, DatasetError, VictimError
from textattack_semparse.llm.icl_grid import (
    NO_ADVERSARIAL,
    ICLCell,
    check_grid,
    default_test_perturbations,
    expand_grid,
)
from textattack_semparse.llm.icl_results import ICL_TEST_SET_DIR, CellResult, ICLStudy, demonstration_diversity
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.robustness.selection_settings import DEFAULT_SETTING, check_setting
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.run_directory import RUN_FILE, atomic_write_text
from textattack_semparse.runs.seeding import DEFAULT_SEED

COMMAND = "icl"
CELLS_JOURNAL = "cells"
"""The journal of finished cells: ``cells.jsonl`` in the output directory."""
JSON_FILE, CSV_FILE, PLOT_FILE = "icl.json", "icl.csv", "icl.png"


@dataclass(frozen=True)
class ICLConfig:
    """What decides an in-context-learning study.

    Args:
        model: An in-context LLM victim name, ``hf-causal:PATH`` or ``openai:MODEL@URL``, with its
            own options but not those the grid sets (shots, selection, adversarial, seed).
        dataset: A registered dataset of a benchmark (``geo-question-test``).
        output_dir: The study directory.
        shots: Demonstrations per prompt, one cell (row of cells) per value.
        selections: Few-shot selectors (``random``, ``cluster-tfidf``, ``ppl-asc``, ...).
        adversarial: ``"none"`` (plain demonstrations) or registered perturbations that add a
            perturbed copy of each demonstration.
        perturbations: Test perturbations (default: the adversarial ones, else ``typo``).
        setting: How perturbed utterances are selected, as for ``robustness build``.
        seed: Seed of the test set, the selectors and the copies.
        num_examples: The first N examples of the dataset only.
        execution_mode, timeout, gold_timeout: Overrides of the benchmark's scoring.
        batch_size: Inputs per victim call (default: the evaluation's).
    """

    model: str
    dataset: str
    output_dir: str | os.PathLike[str]
    shots: Sequence[int] = (0, 5)
    selections: Sequence[str] = ("random",)
    adversarial: Sequence[str] = (NO_ADVERSARIAL,)
    perturbations: Sequence[str] | None = None
    setting: str = DEFAULT_SETTING
    seed: int = DEFAULT_SEED
    num_examples: int | None = None
    execution_mode: str | None = None
    timeout: float | None = None
    gold_timeout: float | None = None
    batch_size: int | None = None

    def __post_init__(self) -> None:
        for name in ("shots", "selections", "adversarial"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.perturbations is not None:
            object.__setattr__(self, "perturbations", tuple(self.perturbations))
        check_setting(self.setting)
        if self.num_examples is not None and (isinstance(self.num_examples, bool) or self.num_examples < 1):
            raise ConfigurationError(f"--num-examples must be a positive integer, got {self.num_examples!r}.")

    def test_perturbations(self) -> list[str]:
        """The test perturbations: those given, else :func:`default_test_perturbations`."""
        return list(self.perturbations) if self.perturbations else default_test_perturbations(self.adversarial)

    def scoring_options(self) -> dict[str, Any]:
        """The scoring overrides given (``mode``, ``timeout``, ``gold_timeout``)."""
        given = (("mode", self.execution_mode), ("timeout", self.timeout), ("gold_timeout", self.gold_timeout))
        return {key: value for key, value in given if value is not None}

    def parameters(self) -> dict[str, Any]:
        """What the study records of its test set and scoring (``ICLStudy.parameters``)."""
        return {
            "perturbations": self.test_perturbations(),
            "setting": self.setting,
            "seed": self.seed,
            "limit": self.num_examples,
            "scoring": self.scoring_options(),
        }


@dataclass(frozen=True)
class ICLRun:
    """The finished study and the files written (``icl.json``, ``icl.csv``, ``icl.png``)."""

    study: ICLStudy
    paths: tuple[Path, ...]


def run(config: ICLConfig, context: RunContext | None = None) -> ICLRun:
    """Run (or resume) the study of ``config`` and write its JSON, CSV and figure."""
    from textattack_semparse.llm.icl_figure import plot_icl_study

    with (context or RunContext()) as context:
        study = run_study(config, context)
    output = Path(config.output_dir)
    atomic_write_text(output / JSON_FILE, json.dumps(study.to_json(), indent=2) + "\n")
    study.write_csv(output / CSV_FILE)
    plot_icl_study(study, output / PLOT_FILE)
    return ICLRun(study, (output / JSON_FILE, output / CSV_FILE, output / PLOT_FILE))


def run_study(config: ICLConfig, context: RunContext) -> ICLStudy:
    """The study's cells, each read from the journal when finished there, else evaluated on the
    context's backend and journaled; every cell that must run is built (and so checked) first."""
    perturbations = config.test_perturbations()
    check_grid(config.model, config.dataset, config.shots, config.selections, config.adversarial, perturbations)
    output = Path(config.output_dir)
    cells = expand_grid(config.shots, config.selections, config.adversarial)
    journal_path = output / f"{CELLS_JOURNAL}.jsonl"
    started = (output / RUN_FILE).is_file() and not context.options.overwrite
    done = Journal(journal_path).records() if started else {}
    to_run = [cell for cell in cells if cell.key not in done]
    if to_run:
        from textattack_semparse.victims.resolution import check_victim_available

        check_victim_available(config.model)
    for cell in to_run:
        _victim(cell.victim_name(config.model, config.seed), config.dataset)  # fails before anything is written
    parameters = config.parameters()
    directory = context.open_directory(output, COMMAND, {"model": config.model, "dataset": config.dataset, **parameters})
    test_set = _test_set(output / ICL_TEST_SET_DIR, config, perturbations)
    count = len(test_set.originals)
    context.say(f"Test set: {count} original{'' if count == 1 else 's'}, perturbed by {', '.join(test_set.perturbations)}")
    for name, reason in test_set.skipped.items():
        context.say(f"Skipped test perturbation {name!r}: {reason}")
    journal = directory.journal(CELLS_JOURNAL)
    done = journal.read()
    results: dict[ICLCell, CellResult] = {}
    with context.progress(len(cells), "icl cells") as bar:
        for index, cell in enumerate(cells, start=1):
            if cell.key in done:
                name = cell.victim_name(config.model, config.seed)
                results[cell] = _read_cell(done[cell.key], name, f"{journal_path}, cell {cell.key}")
                context.say(f"[{index}/{len(cells)}] {cell.key}: read from {journal_path}")
                bar.advance()
        make_worker = functools.partial(
            _CellWorker,
            config.model,
            config.dataset,
            config.seed,
            test_set,
            scoring_options=config.scoring_options(),
            batch_size=config.batch_size,
        )
        finished = context.map(
            to_run,
            make_worker,
            _CellWorker.run,
            journal=journal,
            done=done,
            records=lambda cell, computed: [(cell.key, computed.to_json())],
            progress=bar,
        )
        for cell, computed in finished:
            # As a resumed run will read it back (the journal sorts keys), so both write the same files.
            journaled = json.loads(json.dumps(done[cell.key], sort_keys=True))
            result = dataclasses.replace(_read_cell(journaled, computed.victim, cell.key), reused=False)
            results[cell] = result
            context.say(
                f"[{cells.index(cell) + 1}/{len(cells)}] {cell.key}: done in {result.seconds:.1f} s "
                f"(cache hits {result.cache.hits}, misses {result.cache.misses})"
            )
            bar.describe(f"icl cells ({cell.label} done)")
    return ICLStudy(
        model=config.model,
        dataset=config.dataset,
        parameters=parameters,
        cells=tuple(results[cell] for cell in cells),
    )


class _CellWorker:
    """What a backend worker holds: the study's test set, and the last victim it ran, whose
    loaded model the next cell's victim reuses (the model loads once per worker)."""

    def __init__(
        self,
        model: str,
        dataset: str,
        seed: int,
        test_set: RobustnessTestSet,
        *,
        scoring_options: Mapping[str, Any],
        batch_size: int | None,
    ) -> None:
        self.model = model
        self.dataset = dataset
        self.seed = seed
        self.test_set = test_set
        self.scoring_options = scoring_options
        self.batch_size = batch_size
        self.previous: Any = None

    def run(self, cell: ICLCell) -> CellResult:
        """The finished cell."""
        name = cell.victim_name(self.model, self.seed)
        victim = _victim(name, self.dataset)
        if self.previous is not None:
            victim.reuse_loaded_model(self.previous)
        result = _run_cell(
            cell, name, victim, self.test_set, scoring_options=self.scoring_options, batch_size=self.batch_size
        )
        self.previous = victim
        return result


def _victim(name: str, dataset: str) -> Any:
    """The cell's victim, built before anything runs so that a cell that cannot run (e.g.
    ``ppl-asc`` for a GGUF file, a multi-database benchmark) fails first; models load lazily."""
    from textattack_semparse.victims.resolution import resolve_victim

    try:
        return resolve_victim(name, dataset=dataset)[0]
    except ValueError as error:
        raise VictimError(f"Cannot build the victim {name!r}: {error}") from error


def _run_cell(
    cell: ICLCell,
    name: str,
    victim: Any,
    test_set: RobustnessTestSet,
    *,
    scoring_options: Mapping[str, Any],
    batch_size: int | None,
) -> CellResult:
    from textattack_semparse.robustness.evaluate_test_set import evaluate_test_set, evaluation_scoring

    start = time.perf_counter()
    scoring = evaluation_scoring(victim, test_set.dataset, **scoring_options)
    extra = {} if batch_size is None else {"batch_size": batch_size}
    report = evaluate_test_set(victim, test_set, victim_name=name, scoring=scoring, **extra)
    demonstrations = tuple((example.question, example.gold) for example in victim.demonstrations)
    return CellResult(
        cell=cell,
        victim=name,
        demonstrations=demonstrations,
        diversity=demonstration_diversity([question for question, _ in demonstrations]),
        cache=victim.cache_counts(),
        seconds=time.perf_counter() - start,
        report=report,
    )


def _test_set(folder: Path, config: ICLConfig, perturbations: Sequence[str]) -> RobustnessTestSet:
    """The study's test set: read from ``folder`` (its manifest is written last, so a folder
    without one is rebuilt), else built and written there."""
    from textattack_semparse.robustness.build_test_set import build_test_set
    from textattack_semparse.robustness.robustness_test_set import MANIFEST

    if (folder / MANIFEST).is_file():
        return RobustnessTestSet.read(folder)
    test_set = build_test_set(
        config.dataset, list(perturbations), setting=config.setting, seed=config.seed, limit=config.num_examples
    )
    if not test_set.perturbations:
        raise DatasetError(
            f"None of the test perturbations {list(perturbations)} could be built for {config.dataset}; "
            "choose others (`textattack-semparse list perturbation`)."
        )
    test_set.write(folder)
    return test_set


def _read_cell(data: Any, victim: str, source: str) -> CellResult:
    result = CellResult.from_json(data, source=source)
    if result.victim != victim:
        raise DatasetError(
            f"{source} was run with victim {result.victim!r}, not {victim!r}; use another output directory."
        )
    return result
