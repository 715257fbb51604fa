"""Evaluating a victim on a robustness test set: originals, perturbed utterances, gold losses."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.metrics.prediction_scoring import (
    BATCH_SIZE,
    VictimInput,
    predict,
    score_predictions,
    scoring_method,
    victim_input,
)
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.robustness.utterance_outcome import UtteranceOutcome
from textattack_semparse.victims.resolution import dataset_database


def no_loss_message(victim_name: str) -> str:
    """What the reports say when the victim gives no loss on gold outputs."""
    return (
        f"victim {victim_name} cannot compute its loss on the gold query; "
        "success rate of black-box attack not available"
    )


def evaluation_database(victim: Any, dataset: str) -> Path | None:
    """Where queries run: the victim's database, else that of the benchmark the registered
    ``dataset`` comes from (its entry's ``benchmark`` option), else ``None`` (exact match)."""
    database = getattr(victim, "database", None)
    return Path(database) if database is not None else dataset_database(dataset)


def gold_losses(
    victim: Any, inputs: Sequence[VictimInput], golds: Sequence[str], *, batch_size: int = BATCH_SIZE
) -> list[float]:
    """The victim's loss on each gold output (``victim.gold_loss``), each distinct pair computed once."""
    pairs = list(zip(inputs, golds))
    distinct = list(dict.fromkeys(pairs))
    losses: list[float] = []
    for start in range(0, len(distinct), batch_size):
        batch = distinct[start : start + batch_size]
        losses.extend(victim.gold_loss([item for item, _ in batch], [gold for _, gold in batch]))
    by_pair = dict(zip(distinct, losses))
    return [by_pair[pair] for pair in pairs]


def evaluate_test_set(
    victim: Any,
    test_set: RobustnessTestSet,
    *,
    victim_name: str | None = None,
    database: str | os.PathLike[str] | None = None,
    batch_size: int = BATCH_SIZE,
    timeout: float = 5.0,
) -> RobustnessReport:
    """Run ``victim`` on the originals and perturbed utterances of ``test_set`` and score them.

    Predictions are made in batches, each distinct input once, and scored by
    :func:`~textattack_semparse.metrics.prediction_scoring.score_predictions` (execution
    match on ``database``, exact match without one). Examples whose gold query fails to
    execute are excluded and counted. When ``victim.supports_loss``, the loss on the gold
    output of every original and perturbed utterance decides the success rate of black-box
    attack; otherwise that rate is ``None`` and the report says why.

    Args:
        victim: A :class:`~textattack_semparse.victims.semantic_parser.SemanticParser`
            (or any callable from inputs to predictions).
        test_set: The test set.
        victim_name: Name used in the report; default the victim's class name.
        database: Database to score on; ``None`` = :func:`evaluation_database`.
        batch_size: Inputs per victim call.
        timeout: Seconds each query may run.
    """
    name = victim_name or type(victim).__name__
    if database is None:
        database = evaluation_database(victim, test_set.dataset)
    originals = test_set.originals
    original_inputs = [victim_input(example.question, example.db_id) for example in originals]
    original_scores = score_predictions(
        predict(victim, original_inputs, batch_size=batch_size),
        [example.gold for example in originals],
        database=database,
        db_ids=[example.db_id for example in originals],
        timeout=timeout,
    )
    utterances = [item for items in test_set.utterances.values() for item in items]
    perturbed_inputs = [victim_input(item.perturbed, item.db_id) for item in utterances]
    perturbed_scores = score_predictions(
        predict(victim, perturbed_inputs, batch_size=batch_size),
        [item.gold for item in utterances],
        database=database,
        db_ids=[item.db_id for item in utterances],
        timeout=timeout,
    )
    loss_available = bool(getattr(victim, "supports_loss", False))
    loss_increased: list[bool | None] = [None] * len(utterances)
    if loss_available:
        referenced = sorted({item.example_id for item in utterances})
        losses = gold_losses(
            victim, [original_inputs[i] for i in referenced], [originals[i].gold for i in referenced], batch_size=batch_size
        )
        original_losses = dict(zip(referenced, losses))
        perturbed_losses = gold_losses(victim, perturbed_inputs, [item.gold for item in utterances], batch_size=batch_size)
        loss_increased = [
            perturbed_losses[index] > original_losses[item.example_id] for index, item in enumerate(utterances)
        ]
    outcomes: dict[str, list[UtteranceOutcome]] = {perturbation: [] for perturbation in test_set.perturbations}
    gold_errors: dict[str, set[int]] = {perturbation: set() for perturbation in test_set.perturbations}
    for index, item in enumerate(utterances):
        original_correct, perturbed_correct = original_scores[item.example_id], perturbed_scores[index]
        if original_correct is None or perturbed_correct is None:
            gold_errors[item.perturbation].add(item.example_id)
            continue
        outcomes[item.perturbation].append(
            UtteranceOutcome(item.perturbation, item.example_id, original_correct, perturbed_correct, loss_increased[index])
        )
    notes = []
    if not loss_available:
        notes.append(no_loss_message(name))
    if database is None:
        notes.append("no database: outputs scored by exact match of normalised tokens")
    return RobustnessReport(
        victim=name,
        dataset=test_set.dataset,
        scoring=scoring_method(database),
        database=None if database is None else str(database),
        original_examples=len(originals),
        original_correct=sum(score is True for score in original_scores),
        original_gold_errors=sum(score is None for score in original_scores),
        perturbations={
            perturbation: RobustnessMetrics.from_outcomes(
                outcomes[perturbation], loss_available=loss_available, gold_errors=len(gold_errors[perturbation])
            )
            for perturbation in test_set.perturbations
        },
        loss_available=loss_available,
        test_set={
            "setting": test_set.setting,
            "candidates": test_set.candidates,
            "keep": test_set.keep,
            "seed": test_set.seed,
            "skipped": dict(test_set.skipped),
        },
        notes=notes,
    )
