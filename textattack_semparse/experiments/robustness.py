"""Meaning-preserving test sets and the papers' robustness metrics: build, evaluate, or both.

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/, and Zhuo et al. (2023), "On Robustness of
Prompt-based Semantic Parsing with Large Pre-trained Language Model",
https://arxiv.org/abs/2301.12868: perturb a dataset split into a test set
(:func:`build`), run a victim on it and report standard, perturbation and robust accuracy and
the success rate of black-box attack per perturbation (:func:`evaluate`), or both in one
directory (:func:`build_and_evaluate`). On Table QA datasets the perturbed tables are written
as CSV beside the questions and RobuT's table (Zhao et al. 2023) is part of the report. A
released robustness benchmark (RobuT, Dr.Spider, Huang et al.'s sets) needs no build: its
originals and rewrites are materialised as a test set once per release and evaluated there
(:func:`evaluate_released`), its results laid out as its paper's table.

Every step is journaled in its run directory (``build.jsonl``, ``evaluate.jsonl``): a killed
run, started again with the same configuration, computes only what it had not finished.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, judges_from_names
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.robustness.selection_settings import (
    DEFAULT_SETTING,
    SELECTION_SETTINGS,
    check_setting,
)
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.run_directory import RunDirectory
from textattack_semparse.runs.seeding import DEFAULT_SEED

ALL = "all"
"""``candidates``/``keep`` value meaning every candidate."""
BATCH_SIZE = 64
"""Inputs per victim call by default."""
RESULT_JSON, RESULT_CSV = "robustness.json", "robustness.csv"
RELEASED_TEST_SETS = "released-test-sets"
"""Folder of the cache where released benchmarks are materialised as test sets."""
BUILD_JOURNAL, EVALUATE_JOURNAL = "build", "evaluate"


@dataclass(frozen=True)
class BuildSettings:
    """How a test set is made from a dataset (recorded in ``run.json``).

    Args:
        perturbations: Registered perturbations; ``None``: every registered one whose model or
            resource is available (the others are skipped with the reason).
        setting: ``huang-2021`` or ``zhuo-2023`` (:mod:`~textattack_semparse.robustness.selection_settings`).
        candidates: Candidates sampled per example (a count, or ``"all"``); with ``keep`` it
            overrides the setting's selection of every perturbation.
        keep: Most similar candidates kept (a count, or ``"all"``).
        seed: Seed of the perturbations and the sampler.
        num_examples: The first N examples of the dataset only (``None``: all).
        judges: The meaning judges that keep only the rewrites asking the same question
            (:mod:`textattack_semparse.judges`; several must all agree; empty: no judge, the
            perturbations' raw output). The judge is this package's automatic filter on every
            perturbation; the papers had people check some rewrites (Huang et al.'s three crowd
            workers, for substitution (nf), back translation and reordering only; Zhuo et al.'s
            experts), and ``textattack-semparse validate`` runs that human step.
    """

    perturbations: tuple[str, ...] | None = None
    setting: str = DEFAULT_SETTING
    candidates: int | str | None = None
    keep: int | str | None = None
    seed: int = DEFAULT_SEED
    num_examples: int | None = None
    judges: tuple[str, ...] = (DEFAULT_JUDGE,)

    def __post_init__(self) -> None:
        check_setting(self.setting)
        object.__setattr__(self, "judges", tuple(self.judges))
        if self.judges:
            judges_from_names(self.judges)  # unknown judges fail before anything is written
        if self.perturbations is not None:
            object.__setattr__(self, "perturbations", tuple(self.perturbations))
        for name, value in (("--candidates", self.candidates), ("--keep", self.keep)):
            if value is not None and value != ALL and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ConfigurationError(f"{name} must be a positive integer or 'all', got {value!r}.")
        if self.num_examples is not None and (isinstance(self.num_examples, bool) or self.num_examples < 1):
            raise ConfigurationError(f"--num-examples must be a positive integer, got {self.num_examples!r}.")
        self.selection()

    def selection(self) -> tuple[int | None, int | None] | None:
        """``None`` (the setting's selection per perturbation) unless ``candidates`` or ``keep``
        is given; then that pair for every perturbation, the missing one the setting's default.

        Raises:
            ConfigurationError: ``keep`` exceeds ``candidates``.
        """
        if self.candidates is None and self.keep is None:
            return None
        preset = SELECTION_SETTINGS[self.setting]
        candidates, keep = (
            default if value is None else None if value == ALL else int(value)
            for value, default in ((self.candidates, preset[0]), (self.keep, preset[1]))
        )
        if candidates is not None and keep is not None and keep > candidates:
            raise ConfigurationError(
                f"--keep {keep} exceeds --candidates {candidates} (setting {self.setting}); "
                "keep at most as many candidates as are sampled."
            )
        return candidates, keep

    def configuration(self, dataset: str) -> dict[str, Any]:
        """What ``run.json`` records of the build."""
        return {
            "dataset": dataset,
            "perturbations": None if self.perturbations is None else list(self.perturbations),
            "setting": self.setting,
            "candidates": self.candidates,
            "keep": self.keep,
            "seed": self.seed,
            "num_examples": self.num_examples,
            "judges": list(self.judges),
            # A resumed build with another reader (a new release) is refused, not mixed.
            "judge_identity": judges_from_names(self.judges).identity if self.judges else None,
        }


@dataclass(frozen=True)
class EvaluateSettings:
    """How a victim is run and judged on a test set (recorded in ``run.json``).

    Args:
        model: A registered victim, a local seq2seq or Table QA directory, or an LLM victim name.
        batch_size: Inputs per victim call.
        timeout: Seconds each predicted SQL query may run (``None``: the benchmark's).
        execution_mode: ``classical`` or ``test-suite`` (``None``: the benchmark's).
        gold_timeout: Seconds a gold query may run (``None``: the benchmark's).
        output_json, output_csv: Where the report goes (``None``: ``robustness.json`` and
            ``robustness.csv`` in the run directory).
    """

    model: str
    batch_size: int = BATCH_SIZE
    timeout: float | None = None
    execution_mode: str | None = None
    gold_timeout: float | None = None
    output_json: str | os.PathLike[str] | None = None
    output_csv: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        from textattack_semparse.arguments import check_choice, check_count
        from textattack_semparse.scoring.execution_scorer import MODES

        check_count("batch_size", self.batch_size)
        if self.execution_mode is not None:
            check_choice("execution_mode", self.execution_mode, MODES)
        for name, value in (("timeout", self.timeout), ("gold_timeout", self.gold_timeout)):
            if value is not None and not value > 0:
                raise ConfigurationError(f"{name} must be a positive number of seconds, got {value!r}.")

    def configuration(self) -> dict[str, Any]:
        """What ``run.json`` records of the evaluation (not where the report is written)."""
        return {
            "model": self.model,
            "batch_size": self.batch_size,
            "timeout": self.timeout,
            "execution_mode": self.execution_mode,
            "gold_timeout": self.gold_timeout,
        }

    def scoring_options(self) -> dict[str, Any]:
        return {"mode": self.execution_mode, "timeout": self.timeout, "gold_timeout": self.gold_timeout}


@dataclass(frozen=True)
class BuildConfig:
    """``robustness build``: perturb ``dataset`` into a test set in ``output_dir``."""

    dataset: str
    output_dir: str | os.PathLike[str]
    settings: BuildSettings = BuildSettings()


@dataclass(frozen=True)
class EvaluateConfig:
    """``robustness evaluate``: run a victim on the test set in ``input_dir``; the run directory is
    ``output_dir``, by default ``INPUT_DIR/evaluations/<model>-<digest of the settings>`` (the same
    command lands, and resumes, there)."""

    input_dir: str | os.PathLike[str]
    settings: EvaluateSettings
    output_dir: str | os.PathLike[str] | None = None


@dataclass(frozen=True)
class ReleasedEvaluateConfig:
    """``robustness evaluate --dataset``: run a victim on a released robustness benchmark (RobuT,
    Dr.Spider, Huang et al.'s sets), materialised once per release as a test set under
    ``test_set_root`` (default ``<cache>/released-test-sets``); the run directory is ``output_dir``,
    by default ``<test set>/evaluations/<model>-<digest of the settings>``.

    Args:
        dataset: A registered dataset of a released benchmark (``robut-wtq``).
        settings: How the victim is run and judged.
        output_dir: The evaluation's run directory.
        num_examples: The first N originals of the release only, and their rewrites.
        test_set_root: Where released test sets are materialised.
    """

    dataset: str
    settings: EvaluateSettings
    output_dir: str | os.PathLike[str] | None = None
    num_examples: int | None = None
    test_set_root: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        if self.num_examples is not None and (isinstance(self.num_examples, bool) or self.num_examples < 1):
            raise ConfigurationError(f"--num-examples must be a positive integer, got {self.num_examples!r}.")


@dataclass(frozen=True)
class RunConfig:
    """``robustness run``: build a test set of ``dataset`` (default: the victim's own) and evaluate
    the victim on it, both in ``output_dir``."""

    output_dir: str | os.PathLike[str]
    evaluation: EvaluateSettings
    build: BuildSettings = BuildSettings()
    dataset: str | None = None


@dataclass(frozen=True)
class BuildResult:
    """A built test set and where it was written."""

    test_set: RobustnessTestSet
    directory: Path
    journal: Path


@dataclass(frozen=True)
class EvaluationResult:
    """An evaluation's report, the test set it ran on and the files written."""

    report: RobustnessReport
    test_set: RobustnessTestSet
    output_json: Path
    output_csv: Path
    journal: Path
    leaderboard: str | None = None
    """The layout of a released benchmark's table (:mod:`~textattack_semparse.robustness.leaderboards`);
    ``None`` for a test set built by ``robustness build``."""
    test_set_dir: Path | None = None
    """Where the test set evaluated on is."""


@dataclass(frozen=True)
class RunResult:
    """What :func:`build_and_evaluate` did."""

    build: BuildResult
    evaluation: EvaluationResult


def build(config: BuildConfig, context: RunContext | None = None) -> BuildResult:
    """Build (or resume) the test set of ``config`` and write it to its output directory."""
    with (context or RunContext()) as context:
        _check_perturbations(config.settings.perturbations)
        _check_dataset(config.dataset, config.settings.num_examples)
        with context.open_directory(
            config.output_dir, "robustness build", config.settings.configuration(config.dataset)
        ) as directory:
            return _build(config.dataset, config.settings, directory, context)


def evaluate(config: EvaluateConfig, context: RunContext | None = None) -> EvaluationResult:
    """Evaluate (or resume evaluating) the victim of ``config`` on its test set."""
    from textattack_semparse.victims.resolution import check_victim_name

    with (context or RunContext()) as context:
        test_set = RobustnessTestSet.read(config.input_dir)
        check_victim_name(config.settings.model)
        return _evaluate_test_set_in(config.input_dir, test_set, config.settings, config.output_dir, context)


def evaluate_released(config: ReleasedEvaluateConfig, context: RunContext | None = None) -> EvaluationResult:
    """Evaluate (or resume evaluating) the victim of ``config`` on a released benchmark: its test set
    is materialised once per release (:func:`~textattack_semparse.robustness.released_test_set.materialise_released_test_set`),
    the evaluation is journaled as :func:`evaluate`'s, and the result names the benchmark's leaderboard layout.

    Raises:
        DatasetError: The dataset is not a released robustness benchmark (the message names
            ``robustness build`` and ``robustness run``), or its release is missing or malformed.
    """
    from textattack_semparse.cache import cache_dir
    from textattack_semparse.robustness.released_test_set import (
        materialise_released_test_set,
        released_benchmark,
    )
    from textattack_semparse.victims.resolution import check_victim_name

    with (context or RunContext()) as context:
        check_victim_name(config.settings.model)
        leaderboard = released_benchmark(config.dataset).leaderboard
        root = Path(config.test_set_root) if config.test_set_root is not None else cache_dir() / RELEASED_TEST_SETS
        test_set, input_dir = materialise_released_test_set(config.dataset, root, limit=config.num_examples)
        result = _evaluate_test_set_in(input_dir, test_set, config.settings, config.output_dir, context)
        return dataclasses.replace(result, leaderboard=leaderboard)


def _evaluate_test_set_in(
    input_dir: str | os.PathLike[str],
    test_set: RobustnessTestSet,
    settings: EvaluateSettings,
    output_dir: str | os.PathLike[str] | None,
    context: RunContext,
) -> EvaluationResult:
    """Evaluate on the test set read from ``input_dir``, in ``output_dir`` (default: under ``input_dir``)."""
    configuration = {**settings.configuration(), "test_set": test_set_digest(input_dir, test_set)}
    run_dir = Path(output_dir) if output_dir is not None else default_evaluation_dir(input_dir, configuration)
    directory = context.open_directory(run_dir, "robustness evaluate", configuration)
    result = _evaluate(settings, test_set, directory, context)
    return dataclasses.replace(result, test_set_dir=Path(input_dir))


def build_and_evaluate(config: RunConfig, context: RunContext | None = None) -> RunResult:
    """Build the test set and evaluate the victim on it, in one run directory."""
    from textattack_semparse.victims.resolution import (
        check_victim_name,
        required_dataset,
        victim_dataset,
    )

    model = config.evaluation.model
    with (context or RunContext()) as context:
        check_victim_name(model)
        dataset = required_dataset(model, victim_dataset(model, config.dataset))
        _check_perturbations(config.build.perturbations)
        _check_dataset(dataset, config.build.num_examples)
        configuration = {**config.build.configuration(dataset), **config.evaluation.configuration()}
        with context.open_directory(config.output_dir, "robustness run", configuration) as directory:
            built = _build(dataset, config.build, directory, context)
            return RunResult(built, _evaluate(config.evaluation, built.test_set, directory, context))


def _check_perturbations(perturbations: Sequence[str] | None) -> None:
    """Unknown perturbation names fail before the run directory is written; a family member
    (``nlpaug:KeyboardAug``) is also created, so an unknown augmenter or argument fails here too
    (creating one loads no model)."""
    from textattack_semparse.registry import get_registry
    from textattack_semparse.robustness.build_test_set import perturbation_file_names

    registry = get_registry()
    for name in perturbation_file_names(perturbations or ()):
        entry = registry.get("perturbation", name)
        if entry.name not in registry.names("perturbation"):
            entry.create()


def _check_dataset(dataset: str, limit: int | None) -> None:
    """An unknown or unreadable dataset fails before the run directory is written (benchmarks
    are cached once loaded, so the build reads it again for free)."""
    from textattack_semparse.robustness.build_test_set import dataset_examples

    dataset_examples(dataset, limit=limit)


def _build(dataset: str, settings: BuildSettings, directory: RunDirectory, context: RunContext) -> BuildResult:
    from textattack_semparse.robustness.build_test_set import build_test_set

    journal = directory.journal(BUILD_JOURNAL)
    with context.progress(None, f"perturbing {dataset}") as bar:
        test_set = build_test_set(
            dataset,
            settings.perturbations,
            setting=settings.setting,
            selection=settings.selection(),
            seed=settings.seed,
            limit=settings.num_examples,
            judges=settings.judges,
            context=context,
            journal=journal,
            progress=bar,
        )
    test_set.write(directory.path)
    return BuildResult(test_set=test_set, directory=directory.path, journal=journal.path)


def _evaluate(
    settings: EvaluateSettings, test_set: RobustnessTestSet, directory: RunDirectory, context: RunContext
) -> EvaluationResult:
    from textattack_semparse.robustness.evaluate_test_set import (
        EvaluationWorker,
        run_evaluation,
    )

    make_worker = functools.partial(
        EvaluationWorker.named,
        settings.model,
        test_set.dataset,
        batch_size=settings.batch_size,
        **settings.scoring_options(),
    )
    journal = directory.journal(EVALUATE_JOURNAL)
    with context.progress(None, f"evaluating {settings.model}") as bar:
        report = run_evaluation(
            test_set,
            make_worker,
            victim_name=settings.model,
            batch_size=settings.batch_size,
            context=context,
            journal=journal,
            progress=bar,
        )
    output_json = Path(settings.output_json or directory.path / RESULT_JSON)
    output_csv = Path(settings.output_csv or directory.path / RESULT_CSV)
    report.write_json(output_json)
    report.write_csv(output_csv)
    return EvaluationResult(report, test_set, output_json, output_csv, journal.path)


def test_set_digest(input_dir: str | os.PathLike[str], test_set: RobustnessTestSet) -> str:
    """SHA-256 of the test set's files (manifest, originals, perturbation files, tables), so that
    evaluating a rebuilt, different test set into the same directory is refused."""
    from textattack_semparse.robustness.robustness_test_set import (
        MANIFEST,
        ORIGINALS,
        TABLES,
    )

    folder = Path(input_dir)
    files = [folder / MANIFEST, folder / ORIGINALS, *(folder / f"{name}.jsonl" for name in test_set.perturbations)]
    files.extend(sorted(path for path in (folder / TABLES).rglob("*") if path.is_file()))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def default_evaluation_dir(input_dir: str | os.PathLike[str], configuration: dict[str, Any]) -> Path:
    """``INPUT_DIR/evaluations/<model>-<digest>``: the same command lands in the same directory (and
    resumes there), other settings in another one.

    Example:
        >>> default_evaluation_dir("ts", {"model": "hf-causal:/m/x.gguf"}).as_posix()
        'ts/evaluations/hf-causal_m_x.gguf-7ba4adcc9a'
    """
    digest = hashlib.sha256(json.dumps(configuration, sort_keys=True).encode("utf-8")).hexdigest()[:10]
    model = re.sub(r"[^A-Za-z0-9._-]+", "_", str(configuration["model"])).strip("._")[-60:] or "model"
    return Path(input_dir) / "evaluations" / f"{model}-{digest}"
