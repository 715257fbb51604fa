"""Standard accuracy of a victim on a dataset, without any attack."""

from __future__ import annotations

from typing import Any

from textattack_semparse.errors import DatasetError


def evaluate_victim(model: str, *, dataset: str | None = None, limit: int | None = None) -> dict[str, Any]:
    """Execution accuracy (exact match for victims without a database) of ``model`` on ``dataset``.

    Gold queries that fail to execute are counted apart (``gold_errors``) and left out of
    the accuracy, as in the attack, where such examples are skipped. Predictions are scored
    by :func:`~textattack_semparse.metrics.prediction_scoring.score_predictions`, as in the
    robustness evaluation.
    """
    from textattack_semparse.metrics.prediction_scoring import predict, score_predictions
    from textattack_semparse.registry import get_registry
    from textattack_semparse.victims.resolution import create_victim

    victim, default_dataset = create_victim(model, dataset=dataset)
    dataset_name = dataset or default_dataset
    if dataset_name is None:
        raise DatasetError(f"Victim {model!r} names no default dataset; pass --dataset NAME.")
    examples = list(get_registry().get("dataset", dataset_name).create())[:limit]
    inputs = [
        tuple(columns.values()) if len(columns) > 1 else next(iter(columns.values())) for columns, _ in examples
    ]
    database = getattr(victim, "database", None)
    scores = score_predictions(
        predict(victim, inputs),
        [gold for _, gold in examples],
        database=database,
        db_ids=[columns.get("db_id") for columns, _ in examples],
    )
    correct = sum(score is True for score in scores)
    gold_errors = sum(score is None for score in scores)
    scored = len(examples) - gold_errors
    return {
        "dataset": dataset_name,
        "database": None if database is None else str(database),
        "examples": len(examples),
        "gold_errors": gold_errors,
        "correct": correct,
        "standard_accuracy": 100.0 * correct / scored if scored else None,
    }
