"""Standard accuracy of a victim on a dataset, without any attack."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.metrics.accuracy import standard_accuracy
from textattack_semparse.scoring.outcome import Outcome


def evaluate_victim(
    model: str,
    *,
    dataset: str | None = None,
    limit: int | None = None,
    execution_mode: str | None = None,
    gold_timeout: float | None = None,
    test_suite_dir: str | Path | None = None,
    progress: Any = None,
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
    """
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.metrics.prediction_scoring import judge_predictions, predict
    from textattack_semparse.scoring.databases import Databases
    from textattack_semparse.scoring.scoring import Scoring, scoring_for
    from textattack_semparse.victims.llm.prompted_parser import PromptedParser
    from textattack_semparse.victims.resolution import load_dataset, required_dataset, resolve_victim

    victim, dataset_name = resolve_victim(model, dataset=dataset)
    dataset_name = required_dataset(model, dataset_name)
    data = load_dataset(dataset_name)
    benchmark = getattr(data, "benchmark", None)
    if benchmark is not None and test_suite_dir is not None:
        benchmark = load_benchmark(benchmark.name, test_suite_dir=test_suite_dir)
    scoring = scoring_for(victim, benchmark=benchmark, mode=execution_mode, gold_timeout=gold_timeout)
    examples = list(data)[:limit]
    inputs = [
        tuple(columns.values()) if len(columns) > 1 else next(iter(columns.values())) for columns, _ in examples
    ]
    predictions = predict(victim, inputs, progress=progress)
    golds = [gold for _, gold in examples]
    db_ids = [columns.get("db_id") for columns, _ in examples]
    outcomes = judge_predictions(scoring, predictions, golds, db_ids)
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
