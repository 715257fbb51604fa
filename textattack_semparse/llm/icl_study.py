"""The in-context-learning study of Zhuo et al. (2023): shots x few-shot selection x adversarial
demonstrations, each cell evaluated on one meaning-preserving test set.

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large
Pre-trained Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868, vary
how many demonstrations a prompt shows, how they are selected (§4.3) and whether each is followed
by a perturbed copy (adversarial in-context learning, §4.2), and report standard, perturbation and
robust accuracy per test perturbation together with the lexical diversity of the demonstrations.

A grid cell is an :class:`ICLCell`. Zero shots show no demonstrations, so selection and
adversarial copies mean nothing there: the grid has one zero-shot cell (selection ``"-"``,
adversarial ``"none"``) however many selections and adversarial perturbations it crosses.

On disk (``output_dir``)::

    run.json      what the study is (model, dataset, test perturbations, setting, seed, limit,
                  scoring); a later run on the directory must agree (RunDirectory)
    test_set/     the robustness test set, built once (robustness_test_set.py)
    cells.jsonl   the finished cells, one JSON line each (a Journal): its victim,
                  demonstrations, their diversity, the response-cache counts, the seconds it
                  took and the robustness report

A cell is journaled the moment it is finished and read, not re-run, when the journal has it; a
run that is killed (even with ``kill -9``) loses only the cells in flight, and even their
completions are in the LLM victim's response cache (:mod:`~textattack_semparse.victims.llm.response_cache`).
Cells run on a backend (:mod:`~textattack_semparse.runs.backends`): serial, or Ray workers that
each load the model once. Original to textattack-semparse: the file layout, the grid expansion
and the figure.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import DatasetError, VictimError, closest_match_hint
from textattack_semparse.metrics.lexical_diversity import LexicalDiversity, lexical_diversity
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.selection_settings import DEFAULT_SETTING
from textattack_semparse.runs.backends import Backend, SerialBackend
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.progress import progress_bar
from textattack_semparse.runs.run_directory import RUN_FILE, RunDirectory, atomic_write_text
from textattack_semparse.victims.llm.few_shot_selection import SELECTOR_NAMES
from textattack_semparse.victims.llm.response_cache import CacheCounts
from textattack_semparse.victims.llm_victim_name import is_llm_victim_name, parse_llm_victim_name, with_options

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NO_ADVERSARIAL = "none"
"""``adversarial`` of a cell whose demonstrations have no perturbed copies."""
ZERO_SHOT_SELECTION = "-"
"""``selection`` of the zero-shot cell: nothing is selected."""
DEFAULT_TEST_PERTURBATION = "typo"
"""The test perturbation when none is given and no adversarial perturbation names one."""
GRID_OPTIONS = ("shots", "selection", "adversarial", "seed")
"""LLM victim options the study sets per cell; a ``model`` name must leave them out."""
UNNAMEABLE_SELECTIONS = {"confidence": "it needs a confidence function, which a victim name cannot give"}

RUN_COMMAND = "icl"
TEST_SET_DIR = "test_set"
CELLS_JOURNAL = "cells"
"""The journal of finished cells: ``cells.jsonl`` in the output directory."""
CELL_FORMAT = "textattack-semparse icl cell"
RESULT_FORMAT = "textattack-semparse icl result"

MARKERS = ("o", "s", "^", "D", "v", "P")
"""Plot markers, one per selection line, so that lines on top of each other stay visible."""

ROW_FIELDS = (
    "cell",
    "shots",
    "selection",
    "adversarial",
    "perturbation",
    "examples",
    "utterances",
    "standard_accuracy",
    "perturbation_accuracy",
    "robust_accuracy",
    "black_box_success_rate",
    "originals_standard_accuracy",
    "demonstrations",
    "demo_tokens",
    "demo_types",
    "demo_ttr",
    "demo_yules_i",
    "demo_mtld",
    "cache_hits",
    "cache_misses",
)
"""Columns of :meth:`ICLStudy.rows` (``icl.csv``): the cell, the test perturbation, its four
robustness metrics (:mod:`~textattack_semparse.robustness.robustness_metrics`), standard
accuracy on all originals, then the demonstrations' count and lexical diversity and the cell's
response-cache hits and misses."""


@dataclass(frozen=True, order=True)
class ICLCell:
    """One cell of the grid: ``shots`` demonstrations chosen by ``selection``, each followed by a
    copy perturbed by ``adversarial`` unless it is ``"none"`` (Zhuo et al. 2023, §4.2-4.3).

    Example:
        >>> ICLCell(5, "cluster-tfidf", "typo").key, ICLCell(0).key
        ('5-shot_cluster-tfidf_typo', '0-shot')
    """

    shots: int
    selection: str = ZERO_SHOT_SELECTION
    adversarial: str = NO_ADVERSARIAL

    @property
    def key(self) -> str:
        """The cell's name, also its key in the ``cells.jsonl`` journal."""
        return "0-shot" if self.shots == 0 else f"{self.shots}-shot_{self.selection}_{self.adversarial}"

    @property
    def label(self) -> str:
        """A short name for tables, ``+`` marking adversarial copies.

        Example:
            >>> ICLCell(5, "cluster-tfidf", "typo").label, ICLCell(5, "random").label, ICLCell(0).label
            ('5-shot cluster-tfidf +typo', '5-shot random', '0-shot')
        """
        if self.shots == 0:
            return "0-shot"
        copies = "" if self.adversarial == NO_ADVERSARIAL else f" +{self.adversarial}"
        return f"{self.shots}-shot {self.selection}{copies}"

    def victim_name(self, model: str, seed: int) -> str:
        """``model`` with this cell's options (and ``seed``, of the selector and the copies).

        Example:
            >>> ICLCell(2, "random", "typo").victim_name("hf-causal:/m/x.gguf", 0)
            'hf-causal:/m/x.gguf?shots=2&selection=random&adversarial=typo&seed=0'
            >>> ICLCell(0).victim_name("hf-causal:/m/x.gguf", 0)
            'hf-causal:/m/x.gguf?shots=0'
        """
        if self.shots == 0:
            return with_options(model, shots=0)
        adversarial = None if self.adversarial == NO_ADVERSARIAL else self.adversarial
        return with_options(model, shots=self.shots, selection=self.selection, adversarial=adversarial, seed=seed)

    def to_json(self) -> dict[str, Any]:
        return {"shots": self.shots, "selection": self.selection, "adversarial": self.adversarial}


def expand_grid(shots: Sequence[int], selections: Sequence[str], adversarial: Sequence[str]) -> list[ICLCell]:
    """The cells of shots x selections x adversarial, in that order, repeats dropped; shots 0
    gives the one zero-shot cell.

    Example:
        >>> [cell.key for cell in expand_grid([0, 2], ["random"], ["none", "typo"])]
        ['0-shot', '2-shot_random_none', '2-shot_random_typo']
    """
    cells: list[ICLCell] = []
    for count in dict.fromkeys(shots):
        if count == 0:
            cells.append(ICLCell(0))
            continue
        cells.extend(ICLCell(count, selection, name) for selection in selections for name in adversarial)
    return list(dict.fromkeys(cells))


def default_test_perturbations(adversarial: Sequence[str]) -> list[str]:
    """The adversarial perturbations (a model is tested on what its demonstrations show), else
    ``["typo"]``.

    Example:
        >>> default_test_perturbations(["none", "typo"]), default_test_perturbations(["none"])
        (['typo'], ['typo'])
    """
    return [name for name in dict.fromkeys(adversarial) if name != NO_ADVERSARIAL] or [DEFAULT_TEST_PERTURBATION]


def check_grid(
    model: str,
    dataset: str,
    shots: Sequence[int],
    selections: Sequence[str],
    adversarial: Sequence[str],
    perturbations: Sequence[str] = (),
) -> None:
    """Fail before anything runs (or is written) on a study that cannot run.

    Raises:
        VictimError: ``model`` is not an LLM victim name, or it sets an option the grid sets.
        DatasetError: ``dataset`` is not a registered dataset of a benchmark (the prompt needs its
            database and training split).
        ValueError: No or negative shots, an unknown or unnameable selection.
        RegistryError: An adversarial name that is neither ``"none"`` nor a registered
            perturbation, or an unregistered test perturbation.
    """
    if not is_llm_victim_name(model):
        raise VictimError(
            f"The icl study prompts an in-context LLM victim; {model!r} is none. Pass hf-causal:PATH (a local causal "
            "LM directory or .gguf file) or openai:MODEL@URL (an OpenAI-compatible server)."
        )
    fixed = sorted(set(parse_llm_victim_name(model).options) & set(GRID_OPTIONS))
    if fixed:
        raise VictimError(
            f"{model!r} sets {', '.join(fixed)}, which the study sets per cell; drop them from the name and use "
            "shots/selections/adversarial/seed (--shots, --selection, --adversarial, --seed)."
        )
    if not shots or any(isinstance(count, bool) or not isinstance(count, int) or count < 0 for count in shots):
        raise ValueError(f"shots must be one or more ints >= 0, got {list(shots)!r}.")
    if any(count > 0 for count in shots):
        if not selections:
            raise ValueError("Give at least one few-shot selection for the cells with shots > 0, e.g. random.")
        for selection in selections:
            if selection not in SELECTOR_NAMES or selection in UNNAMEABLE_SELECTIONS:
                usable = [name for name in SELECTOR_NAMES if name not in UNNAMEABLE_SELECTIONS]
                why = UNNAMEABLE_SELECTIONS.get(selection, "it is unknown")
                raise ValueError(
                    f"Cannot use selection {selection!r}: {why}; choose from {', '.join(usable)}."
                    + closest_match_hint(str(selection), usable)
                )
        if not adversarial:
            raise ValueError("Give at least one adversarial setting, 'none' for demonstrations without copies.")
    from textattack_semparse.registry import get_registry
    from textattack_semparse.victims.resolution import dataset_benchmark

    for name in [*adversarial, *perturbations]:
        if name != NO_ADVERSARIAL:
            get_registry().get("perturbation", name)  # names the registered ones when unknown
    if dataset_benchmark(dataset) is None:
        raise DatasetError(
            f"{dataset!r} is not a registered dataset of a benchmark; the prompts show its database and draw "
            f"demonstrations from its training split. Pass one of: {', '.join(get_registry().names('dataset'))}."
        )


@dataclass(frozen=True)
class CellResult:
    """A finished cell: its victim's name, demonstrations ``(question, gold)``, their lexical
    diversity (``None`` without demonstrations), response-cache counts, seconds taken, the
    robustness report, and whether it was read from an earlier run's file (``reused``)."""

    cell: ICLCell
    victim: str
    demonstrations: tuple[tuple[str, str], ...]
    diversity: LexicalDiversity | None
    cache: CacheCounts
    seconds: float
    report: RobustnessReport
    reused: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CELL_FORMAT,
            "cell": self.cell.to_json(),
            "key": self.cell.key,
            "victim": self.victim,
            "demonstrations": [{"question": question, "gold": gold} for question, gold in self.demonstrations],
            "diversity": None if self.diversity is None else _finite_or_text(vars(self.diversity)),
            "cache": {"hits": self.cache.hits, "misses": self.cache.misses},
            "seconds": round(self.seconds, 3),
            "report": self.report.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str) -> CellResult:
        """Read what :meth:`to_json` wrote (``reused=True``).

        Raises:
            DatasetError: ``data`` is not a cell file.
        """
        if not isinstance(data, dict) or data.get("format") != CELL_FORMAT:
            raise DatasetError(
                f"{source} is not an icl cell (no 'format': {CELL_FORMAT!r}); use another output directory."
            )
        try:
            diversity = data["diversity"]
            return cls(
                cell=ICLCell(**data["cell"]),
                victim=data["victim"],
                demonstrations=tuple((item["question"], item["gold"]) for item in data["demonstrations"]),
                diversity=None if diversity is None else LexicalDiversity(**_numbers(diversity)),
                cache=CacheCounts(**data["cache"]),
                seconds=float(data["seconds"]),
                report=RobustnessReport.from_json(data["report"], source=source),
                reused=True,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DatasetError(
                f"{source} is a damaged icl cell ({type(error).__name__}: {error}); use another output directory."
            ) from None

    def rows(self) -> list[dict[str, Any]]:
        """One row per test perturbation (:data:`ROW_FIELDS`)."""
        diversity = self.diversity
        shared = {
            "cell": self.cell.key,
            **self.cell.to_json(),
            "originals_standard_accuracy": self.report.standard_accuracy,
            "demonstrations": len(self.demonstrations),
            "demo_tokens": None if diversity is None else diversity.tokens,
            "demo_types": None if diversity is None else diversity.types,
            "demo_ttr": None if diversity is None else diversity.ttr,
            "demo_yules_i": None if diversity is None else diversity.yules_i,
            "demo_mtld": None if diversity is None else diversity.mtld,
            "cache_hits": self.cache.hits,
            "cache_misses": self.cache.misses,
        }
        return [
            {
                **shared,
                "perturbation": name,
                "examples": metrics.examples,
                "utterances": metrics.utterances,
                **metrics.rates(),
            }
            for name, metrics in self.report.perturbations.items()
        ]


@dataclass(frozen=True)
class ICLStudy:
    """The finished cells of one study, in grid order, and how its test set was made."""

    model: str
    dataset: str
    parameters: Mapping[str, Any]
    cells: tuple[CellResult, ...]

    @property
    def model_label(self) -> str:
        """A short name of the model for titles: the last part of the name's target before any
        ``@URL`` (an ``hf-causal`` file or folder name, an ``openai`` model name)."""
        return parse_llm_victim_name(self.model).target.partition("@")[0].rstrip("/").rsplit("/", 1)[-1]

    def rows(self) -> list[dict[str, Any]]:
        """The paper's table: one row per cell and test perturbation (:data:`ROW_FIELDS`)."""
        return [{field: row.get(field) for field in ROW_FIELDS} for result in self.cells for row in result.rows()]

    def to_json(self) -> dict[str, Any]:
        """Everything: the parameters, every cell (with its full report) and the rows. Infinite
        diversity values (no repeated word) are written as the string ``"inf"``."""
        return {
            "format": RESULT_FORMAT,
            "model": self.model,
            "dataset": self.dataset,
            "parameters": dict(self.parameters),
            "cells": [result.to_json() for result in self.cells],
            "rows": [_finite_or_text(row) for row in self.rows()],
        }

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> ICLStudy:
        """Read the ``icl.json`` that :meth:`to_json` wrote.

        Raises:
            DatasetError: The file is missing, not JSON, or not an icl result.
        """
        path = Path(path)
        source = repr(str(path))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DatasetError(f"{source} does not exist; `textattack-semparse icl ... --output-dir DIR` writes it.") from None
        except json.JSONDecodeError as error:
            raise DatasetError(f"{source} is not valid JSON: {error}.") from None
        if not isinstance(data, dict) or data.get("format") != RESULT_FORMAT:
            raise DatasetError(f"{source} is not an icl result (no 'format': {RESULT_FORMAT!r}).")
        try:
            return cls(
                model=data["model"],
                dataset=data["dataset"],
                parameters=data["parameters"],
                cells=tuple(CellResult.from_json(cell, source=source) for cell in data["cells"]),
            )
        except (KeyError, TypeError) as error:
            raise DatasetError(f"{source} is a damaged icl result ({type(error).__name__}: {error}).") from None

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """:meth:`rows` as CSV, empty cells for undefined values; the file is replaced atomically."""
        import csv
        import io

        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, fieldnames=ROW_FIELDS)
        writer.writeheader()
        for row in self.rows():
            writer.writerow({key: "" if value is None else value for key, value in row.items()})
        atomic_write_text(path, text.getvalue())


def run_icl_study(
    model: str,
    dataset: str,
    *,
    output_dir: str | os.PathLike[str],
    shots: Sequence[int] = (0, 5),
    selections: Sequence[str] = ("random",),
    adversarial: Sequence[str] = (NO_ADVERSARIAL,),
    perturbations: Sequence[str] | None = None,
    setting: str = DEFAULT_SETTING,
    seed: int = 0,
    limit: int | None = None,
    scoring_options: Mapping[str, Any] | None = None,
    batch_size: int | None = None,
    progress: Callable[[str], None] | None = None,
    backend: Backend | None = None,
    show_progress: bool | None = False,
    resume: bool = False,
) -> ICLStudy:
    """Run (or resume) the study grid of Zhuo et al. (2023, §4.2-4.3) for the LLM victim ``model``.

    The test set of ``dataset`` under ``perturbations`` (default
    :func:`default_test_perturbations`) is built once, with ``setting``, ``seed`` and the first
    ``limit`` examples (:func:`~textattack_semparse.robustness.build_test_set.build_test_set`),
    and kept in ``output_dir/test_set``. Every cell of :func:`expand_grid` not yet in the
    ``cells.jsonl`` journal is the victim ``ICLCell.victim_name(model, seed)`` evaluated on it
    (:func:`~textattack_semparse.robustness.evaluate_test_set.evaluate_test_set`, judged by
    :func:`~textattack_semparse.robustness.evaluate_test_set.evaluation_scoring` with
    ``scoring_options``) on ``backend`` (default serial), and journaled when done. Cells may be
    added to or left out of a later run on the same directory; what the test set is and which
    model runs may not change. ``progress`` receives a line per step, ``show_progress`` shows a
    progress bar (``None``: when standard error is a terminal).

    Raises:
        VictimError, DatasetError, ValueError, RegistryError: See :func:`check_grid`.
        RunConfigurationChanged: ``output_dir`` holds a study with other parameters.
        FileNotFoundError: ``resume`` and ``output_dir`` holds no study.
        DatasetError: A damaged journal line.
    """
    perturbations = list(perturbations) if perturbations else default_test_perturbations(adversarial)
    check_grid(model, dataset, shots, selections, adversarial, perturbations)
    say = progress or (lambda message: None)
    output = Path(output_dir)
    parameters = {
        "perturbations": perturbations,
        "setting": setting,
        "seed": seed,
        "limit": limit,
        "scoring": dict(scoring_options or {}),
    }
    cells = expand_grid(shots, selections, adversarial)
    journal_path = output / f"{CELLS_JOURNAL}.jsonl"
    finished = Journal(journal_path).read() if (output / RUN_FILE).is_file() else {}
    to_run = [cell for cell in cells if cell.key not in finished]
    for cell in to_run:
        _victim(cell.victim_name(model, seed), dataset)  # a cell that cannot run fails before anything is written
    directory = RunDirectory(output, RUN_COMMAND, {"model": model, "dataset": dataset, **parameters}, resume=resume)
    test_set = _test_set(output / TEST_SET_DIR, dataset, perturbations, setting=setting, seed=seed, limit=limit)
    count = len(test_set.originals)
    say(f"Test set: {count} original{'' if count == 1 else 's'}, perturbed by {', '.join(test_set.perturbations)}")
    for name, reason in test_set.skipped.items():
        say(f"Skipped test perturbation {name!r}: {reason}")
    journal = directory.journal(CELLS_JOURNAL)
    results: dict[ICLCell, CellResult] = {}
    with progress_bar(len(cells), "icl cells", enabled=show_progress) as bar:
        for index, cell in enumerate(cells, start=1):
            if cell.key in finished:
                results[cell] = _read_cell(finished[cell.key], cell.victim_name(model, seed), f"{journal_path}, cell {cell.key}")
                say(f"[{index}/{len(cells)}] {cell.key}: read from {journal_path}")
                bar.advance()
        make_worker = functools.partial(
            _CellWorker, model, dataset, seed, test_set, scoring_options=scoring_options or {}, batch_size=batch_size
        )
        for cell, computed in zip(to_run, (backend or SerialBackend()).map(make_worker, _CellWorker.run, to_run)):
            record = computed.to_json()
            journal.append(cell.key, record)
            # As a resumed run will read it back (the journal sorts keys), so both write the same files.
            journaled = json.loads(json.dumps(record, sort_keys=True))
            result = dataclasses.replace(_read_cell(journaled, computed.victim, cell.key), reused=False)
            results[cell] = result
            say(
                f"[{cells.index(cell) + 1}/{len(cells)}] {cell.key}: done in {result.seconds:.1f} s "
                f"(cache hits {result.cache.hits}, misses {result.cache.misses})"
            )
            bar.describe(f"icl cells ({cell.label} done)")
            bar.advance()
    return ICLStudy(model=model, dataset=dataset, parameters=parameters, cells=tuple(results[cell] for cell in cells))


class _CellWorker:
    """What a backend worker holds: the study's test set, and the last victim it ran, whose
    loaded model the next cell's victim reuses (the model loads once per worker)."""

    def __init__(
        self,
        model: str,
        dataset: str,
        seed: int,
        test_set: Any,
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


def demonstration_diversity(questions: Sequence[str]) -> LexicalDiversity | None:
    """:func:`~textattack_semparse.metrics.lexical_diversity.lexical_diversity` of the
    demonstration questions; ``None`` for none (zero-shot)."""
    return lexical_diversity(questions) if questions else None


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
    test_set: Any,
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
    result = CellResult(
        cell=cell,
        victim=name,
        demonstrations=demonstrations,
        diversity=demonstration_diversity([question for question, _ in demonstrations]),
        cache=victim.cache_counts(),
        seconds=time.perf_counter() - start,
        report=report,
    )
    return result


def _test_set(
    folder: Path,
    dataset: str,
    perturbations: Sequence[str],
    *,
    setting: str,
    seed: int,
    limit: int | None,
) -> Any:
    """The study's test set: read from ``folder`` (its manifest is written last, so a folder
    without one is rebuilt), else built and written there."""
    from textattack_semparse.robustness.build_test_set import build_test_set
    from textattack_semparse.robustness.robustness_test_set import MANIFEST, RobustnessTestSet

    if (folder / MANIFEST).is_file():
        return RobustnessTestSet.read(folder)
    test_set = build_test_set(dataset, list(perturbations), setting=setting, seed=seed, limit=limit)
    if not test_set.perturbations:
        raise DatasetError(
            f"None of the test perturbations {list(perturbations)} could be built for {dataset}; "
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


def _finite_or_text(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with infinite floats as ``"inf"`` (JSON has no infinity)."""
    return {key: "inf" if isinstance(value, float) and math.isinf(value) else value for key, value in values.items()}


def _numbers(values: Mapping[str, Any]) -> dict[str, Any]:
    """Undo :func:`_finite_or_text`."""
    return {key: math.inf if value == "inf" else value for key, value in values.items()}


def plot_icl_study(study: ICLStudy, path: str | os.PathLike[str]) -> Path:
    """Draw :func:`icl_study_figure` as a PNG at ``path``."""
    path = Path(path)
    icl_study_figure(study).savefig(path, dpi=120)
    return path


def icl_study_figure(study: ICLStudy) -> Figure:
    """The study against shots: standard accuracy on all originals (top) and robust accuracy
    pooled over the test perturbations (bottom), one panel per adversarial setting and one line
    per selection (Zhuo et al. 2023, §4.2-4.3); the zero-shot cell starts every line."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    zero = next((result for result in study.cells if result.cell.shots == 0), None)
    few = [result for result in study.cells if result.cell.shots > 0]
    panels = list(dict.fromkeys(result.cell.adversarial for result in few)) or [NO_ADVERSARIAL]
    selections = list(dict.fromkeys(result.cell.selection for result in few))
    metrics = (
        ("standard accuracy (%)", lambda report: report.standard_accuracy, "no original could be judged"),
        ("robust accuracy (%)", lambda report: report.micro.robust_accuracy, "no original parsed correctly"),
    )
    figure = Figure(figsize=(3.6 * len(panels) + 0.8, 6))
    FigureCanvasAgg(figure)
    grid = figure.subplots(len(metrics), len(panels), squeeze=False, sharex=True, sharey=True)
    shots = sorted({result.cell.shots for result in study.cells})
    for column, adversarial in enumerate(panels):
        for row, (label, value, undefined) in enumerate(metrics):
            axes = grid[row][column]
            lines = {
                selection: [r for r in few if r.cell.selection == selection and r.cell.adversarial == adversarial]
                for selection in selections
            } or {"zero-shot": []}
            defined = False
            for line, (selection, results) in enumerate(lines.items()):
                points = ([zero] if zero is not None else []) + sorted(results, key=lambda r: r.cell.shots)
                values = [value(result.report) for result in points]
                defined = defined or any(item is not None for item in values)
                axes.plot(
                    [result.cell.shots for result in points],
                    [math.nan if item is None else item for item in values],
                    marker=MARKERS[line % len(MARKERS)],
                    alpha=0.8,
                    label=selection,
                )
            if not defined:
                axes.text(0.5, 0.5, f"undefined: {undefined}", ha="center", transform=axes.transAxes, fontsize=9)
            axes.set_ylim(-2, 102)
            axes.set_xticks(shots)
            axes.grid(alpha=0.3)
            if row == 0:
                axes.set_title(f"adversarial demos: {adversarial}", fontsize=10)
            if row == len(metrics) - 1:
                axes.set_xlabel("shots")
            if column == 0:
                axes.set_ylabel(label)
    grid[0][0].legend(title="selection", fontsize=8, title_fontsize=8)
    tested = ", ".join(study.parameters.get("perturbations", []))
    figure.suptitle(f"{study.model_label} on {study.dataset} (test perturbations: {tested})", fontsize=10)
    figure.tight_layout()
    return figure
