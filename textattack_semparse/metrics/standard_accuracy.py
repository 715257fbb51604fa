"""Standard accuracy of a victim on a dataset, without any attack."""

from __future__ import annotations

from collections import Counter
from typing import Any


def evaluate_victim(
    model: str,
    *,
    dataset: str | None = None,
    limit: int | None = None,
    execution_mode: str | None = None,
    gold_timeout: float | None = None,
) -> dict[str, Any]:
    """Standard accuracy (Huang et al. 2021) of ``model`` on ``dataset``, judged as the
    dataset's benchmark judges (execution or exact match).

    Gold errors and victim errors are counted apart and left out of the accuracy, as in the
    attack, where such examples are skipped and reported.
    """
    from textattack_semparse.metrics.accuracy import standard_accuracy
    from textattack_semparse.metrics.prediction_scoring import judge_predictions, predict
    from textattack_semparse.scoring.outcome import Outcome
    from textattack_semparse.scoring.scoring import scoring_for
    from textattack_semparse.victims.resolution import load_dataset, required_dataset, resolve_victim

    victim, dataset_name = resolve_victim(model, dataset=dataset)
    dataset_name = required_dataset(model, dataset_name)
    data = load_dataset(dataset_name)
    scoring = scoring_for(
        victim, benchmark=getattr(data, "benchmark", None), mode=execution_mode, gold_timeout=gold_timeout
    )
    examples = list(data)[:limit]
    inputs = [
        tuple(columns.values()) if len(columns) > 1 else next(iter(columns.values())) for columns, _ in examples
    ]
    outcomes = Counter(
        judge_predictions(
            scoring,
            predict(victim, inputs),
            [gold for _, gold in examples],
            [columns.get("db_id") for columns, _ in examples],
        )
    )
    judged = outcomes[Outcome.CORRECT] + outcomes[Outcome.WRONG]
    return {
        "dataset": dataset_name,
        "scoring": scoring.describe(),
        "examples": len(examples),
        "gold_errors": outcomes[Outcome.GOLD_ERROR],
        "victim_errors": outcomes[Outcome.VICTIM_ERROR],
        "correct": outcomes[Outcome.CORRECT],
        "standard_accuracy": standard_accuracy(outcomes[Outcome.CORRECT], judged),
    }
