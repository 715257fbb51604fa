"""Standard accuracy of a victim on a dataset, without any attack.

Example:
    >>> run(EvaluateConfig(model="knn-geo", num_examples=3))["examples"]
    3
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textattack_semparse.errors import ConfigurationError, VictimError
from textattack_semparse.metrics.accuracy import standard_accuracy
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.run_directory import atomic_write_text, prepare_output_file
from textattack_semparse.scoring.outcome import Outcome


@dataclass(frozen=True)
class EvaluateConfig:
    """What decides a standard-accuracy evaluation.

    Args:
        model: A registered victim, a local seq2seq or Table QA directory, or an in-context LLM
            victim (``hf-causal:PATH``, ``openai:MODEL@URL``; it needs ``dataset``).
        dataset: A registered dataset (default: the victim's own).
        num_examples: The first N examples only (``None``: all).
        shots: LLM victims only: demonstrations in the prompt.
        selection: LLM victims only: the few-shot selector.
        execution_mode: ``classical`` or ``test-suite`` (``None``: the benchmark's).
        gold_timeout: Seconds a gold query may run (``None``: the benchmark's).
        test_suite_dir: Folder of distilled test suites (default ``$SEMPARSE_TEST_SUITE_DIR``).
        output: Where the report is written as JSON (``None``: nowhere).
        predictions: Where each example's prediction is written, one JSON object a line
            (``None``: nowhere; see :func:`evaluate_victim`).
    """

    model: str
    dataset: str | None = None
    num_examples: int | None = None
    shots: int | None = None
    selection: str | None = None
    execution_mode: str | None = None
    gold_timeout: float | None = None
    test_suite_dir: str | os.PathLike[str] | None = None
    output: str | os.PathLike[str] | None = None
    predictions: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        if self.num_examples is not None and (isinstance(self.num_examples, bool) or self.num_examples < 1):
            raise ConfigurationError(f"--num-examples must be a positive integer, got {self.num_examples!r}.")
        if self.shots is not None and self.shots < 0:
            raise ConfigurationError(f"--shots must be >= 0, got {self.shots}.")
        victim_name_with_options(self.model, shots=self.shots, selection=self.selection)


def run(config: EvaluateConfig, context: RunContext | None = None) -> dict[str, Any]:
    """The report of :func:`evaluate_victim` for ``config``, also written to ``config.output``."""
    from textattack_semparse.registry import get_registry
    from textattack_semparse.victims.resolution import check_victim_name

    context = context or RunContext()
    model = victim_name_with_options(config.model, shots=config.shots, selection=config.selection)
    check_victim_name(model)
    if config.dataset is not None:
        get_registry().get("dataset", config.dataset)  # an unknown name fails before any victim is built
    output = prepare_output_file(config.output) if config.output is not None else None
    with context.progress(None, f"parsing with {config.model}") as bar:
        report = evaluate_victim(
            model,
            dataset=config.dataset,
            limit=config.num_examples,
            execution_mode=config.execution_mode,
            gold_timeout=config.gold_timeout,
            test_suite_dir=config.test_suite_dir,
            progress=bar,
            predictions_output=config.predictions,
        )
    if output is not None:
        atomic_write_text(output, json.dumps(report, indent=2) + "\n")
    return report


def victim_name_with_options(model: str, *, shots: int | None = None, selection: str | None = None) -> str:
    """``model`` with ``shots``/``selection`` folded into an LLM victim name.

    Raises:
        VictimError: The options are given for a victim that is not an LLM victim.

    Example:
        >>> victim_name_with_options("hf-causal:/m/x.gguf", shots=2)
        'hf-causal:/m/x.gguf?shots=2'
    """
    from textattack_semparse.victims.llm_victim_name import (
        is_llm_victim_name,
        with_options,
    )

    given = {key: value for key, value in (("shots", shots), ("selection", selection)) if value is not None}
    if not given:
        return model
    if not is_llm_victim_name(model):
        flags = " and ".join(f"--{key}" for key in given)
        raise VictimError(
            f"{flags} {'apply' if len(given) > 1 else 'applies'} to in-context LLM victims only "
            f"(--model hf-causal:PATH or openai:MODEL@URL); drop {flags} for {model!r}, or pass an LLM victim."
        )
    return with_options(model, **given)


def evaluate_victim(
    model: str,
    *,
    dataset: str | None = None,
    limit: int | None = None,
    execution_mode: str | None = None,
    gold_timeout: float | None = None,
    test_suite_dir: str | os.PathLike[str] | None = None,
    progress: Any = None,
    predictions_output: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Standard accuracy (Huang et al. 2021) of ``model`` on ``dataset``, judged as the
    dataset's benchmark judges (execution or exact match).

    Gold errors and victim errors are counted apart and left out of the accuracy, as in the
    attack, where such examples are skipped and reported. When the benchmark is scored on a
    distilled test suite (``test_suite_dir`` or ``SEMPARSE_TEST_SUITE_DIR``; Zhong, Yu and
    Klein 2020), the standard accuracy is test-suite accuracy, and the same predictions are
    also judged on the benchmark's own database alone (``single_database_*``), with the
    count of predictions that one database accepts and the suite rejects. ``progress`` (a
    :func:`~textattack_semparse.runs.progress.progress_bar`) counts the questions as they are parsed.
    ``predictions_output``, when given, receives one JSON object a line per example, in order: its
    input columns (``question``, ``db_id`` ...), ``gold``, ``prediction`` and ``outcome`` (``correct``,
    ``wrong``, ``gold error`` or ``victim error``), to read the errors behind the figure.
    """
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.metrics.prediction_scoring import (
        judge_predictions,
        predict,
    )
    from textattack_semparse.scoring.databases import Databases
    from textattack_semparse.scoring.scoring import Scoring, scoring_for
    from textattack_semparse.victims.llm.prompted_parser import PromptedParser
    from textattack_semparse.victims.resolution import (
        dataset_rows,
        required_dataset,
        resolve_victim,
    )

    victim, dataset_name = resolve_victim(model, dataset=dataset)
    dataset_name = required_dataset(model, dataset_name)
    rows, benchmark = dataset_rows(dataset_name)
    if benchmark is not None and test_suite_dir is not None:
        benchmark = load_benchmark(benchmark.name, test_suite_dir=test_suite_dir)
    scoring = scoring_for(victim, benchmark=benchmark, mode=execution_mode, gold_timeout=gold_timeout)
    examples = rows[:limit]
    inputs: list[Any] = [
        tuple(columns.values()) if len(columns) > 1 else next(iter(columns.values())) for columns, _ in examples
    ]
    predictions = predict(victim, inputs, progress=progress)
    golds = [gold for _, gold in examples]
    db_ids = [columns.get("db_id") for columns, _ in examples]
    outcomes = judge_predictions(scoring, predictions, golds, db_ids)
    if predictions_output is not None:
        _write_predictions(predictions_output, examples, predictions, outcomes)
    report: dict[str, Any] = {"dataset": dataset_name, "scoring": scoring.describe(), **_accuracy_fields(outcomes)}
    if isinstance(victim, PromptedParser):
        counts = victim.cache_counts()
        report["response_cache"] = {"path": str(victim.cache_path), "hits": counts.hits, "misses": counts.misses}
    if benchmark is not None and benchmark.test_suite is not None and benchmark.database is not None:
        single = Scoring(scoring.scorer, Databases.at(benchmark.database))
        single_outcomes = judge_predictions(single, predictions, golds, db_ids)
        single_fields = _accuracy_fields(single_outcomes)
        report.update(
            single_database=str(benchmark.database),
            single_database_gold_errors=single_fields["gold_errors"],
            single_database_correct=single_fields["correct"],
            single_database_accuracy=single_fields["standard_accuracy"],
            accepted_by_single_database_only=sum(
                one is Outcome.CORRECT and suite is Outcome.WRONG for one, suite in zip(single_outcomes, outcomes)
            ),
        )
    return report


def _write_predictions(
    path: str | os.PathLike[str], examples: Sequence[tuple[Any, str]], predictions: Sequence[str], outcomes: Sequence[Outcome]
) -> None:
    """One JSON object a line per example: its input columns, gold, prediction and outcome."""
    from textattack_semparse.runs.run_directory import atomic_write_text

    lines = (
        json.dumps({**columns, "gold": gold, "prediction": prediction, "outcome": outcome.value}, ensure_ascii=False)
        for (columns, gold), prediction, outcome in zip(examples, predictions, outcomes, strict=True)
    )
    atomic_write_text(path, "".join(f"{line}\n" for line in lines))


def _accuracy_fields(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    counts = Counter(outcomes)
    judged = counts[Outcome.CORRECT] + counts[Outcome.WRONG]
    return {
        "examples": len(outcomes),
        "gold_errors": counts[Outcome.GOLD_ERROR],
        "victim_errors": counts[Outcome.VICTIM_ERROR],
        "correct": counts[Outcome.CORRECT],
        "standard_accuracy": standard_accuracy(counts[Outcome.CORRECT], judged),
    }
