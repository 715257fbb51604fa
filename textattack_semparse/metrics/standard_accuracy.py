"""Standard accuracy of a victim on a dataset, without any attack."""

from __future__ import annotations

from typing import Any

from textattack_semparse.errors import DatasetError

BATCH_SIZE = 64


def evaluate_victim(model: str, *, dataset: str | None = None, limit: int | None = None) -> dict[str, Any]:
    """Execution accuracy (exact match for victims without a database) of ``model`` on ``dataset``.

    Gold queries that fail to execute are counted apart (``gold_errors``) and left out of
    the accuracy, as in the attack, where such examples are skipped.
    """
    from textattack_semparse.goal_functions.exact_match import normalize_logical_form
    from textattack_semparse.registry import get_registry
    from textattack_semparse.sql.execution import execution_match
    from textattack_semparse.victims.resolution import create_victim

    victim, default_dataset = create_victim(model)
    dataset_name = dataset or default_dataset
    if dataset_name is None:
        raise DatasetError(f"Victim {model!r} names no default dataset; pass --dataset NAME.")
    examples = list(get_registry().get("dataset", dataset_name).create())[:limit]
    inputs = [
        tuple(columns.values()) if len(columns) > 1 else next(iter(columns.values())) for columns, _ in examples
    ]
    predictions: list[str] = []
    for start in range(0, len(inputs), BATCH_SIZE):
        predictions.extend(victim(inputs[start : start + BATCH_SIZE]))
    database = getattr(victim, "database", None)
    correct = gold_errors = 0
    for prediction, (_, gold) in zip(predictions, examples):
        if database is None:
            correct += normalize_logical_form(prediction) == normalize_logical_form(gold)
            continue
        try:
            correct += execution_match(prediction, gold, database).match
        except DatasetError:
            gold_errors += 1
    scored = len(examples) - gold_errors
    return {
        "dataset": dataset_name,
        "database": None if database is None else str(database),
        "examples": len(examples),
        "gold_errors": gold_errors,
        "correct": correct,
        "standard_accuracy": 100.0 * correct / scored if scored else None,
    }
