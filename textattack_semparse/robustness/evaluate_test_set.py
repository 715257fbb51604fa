"""Evaluating a victim on a robustness test set: originals, perturbed utterances, gold losses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textattack_semparse.metrics.prediction_scoring import (
    BATCH_SIZE,
    VictimInput,
    judge_predictions,
    predict,
    victim_input,
)
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.robustness.utterance_outcome import UtteranceOutcome
from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.scoring.scoring import Scoring, scoring_for
from textattack_semparse.victims.resolution import dataset_benchmark


def no_loss_message(victim_name: str) -> str:
    """What the reports say when the victim gives no loss on gold outputs."""
    return (
        f"victim {victim_name} cannot compute its loss on the gold query; "
        "success rate of black-box attack not available"
    )


def evaluation_scoring(victim: Any, dataset: str, **overrides: Any) -> Scoring:
    """How the test set of the registered ``dataset`` is judged: as its benchmark judges, else
    as the victim's (:func:`~textattack_semparse.scoring.scoring.scoring_for`)."""
    return scoring_for(victim, benchmark=dataset_benchmark(dataset), **overrides)


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
    scoring: Scoring | None = None,
    batch_size: int = BATCH_SIZE,
) -> RobustnessReport:
    """Run ``victim`` on the originals and perturbed utterances of ``test_set`` and score them.

    Predictions are made in batches, each distinct input once, and judged by ``scoring``.
    Examples whose gold output cannot be evaluated, and inputs the victim fails on, are
    excluded and counted (gold errors, victim errors). When ``victim.supports_loss``, the loss on the gold
    output of every original and perturbed utterance decides the success rate of black-box
    attack; otherwise that rate is ``None`` and the report says why.

    Args:
        victim: A :class:`~textattack_semparse.victims.semantic_parser.SemanticParser`
            (or any callable from inputs to predictions).
        test_set: The test set.
        victim_name: Name used in the report; default the victim's class name.
        scoring: How predictions are judged; ``None`` = :func:`evaluation_scoring`.
        batch_size: Inputs per victim call.
    """
    name = victim_name or type(victim).__name__
    if scoring is None:
        scoring = evaluation_scoring(victim, test_set.dataset)
    originals = test_set.originals
    original_inputs = [victim_input(example.question, example.db_id, example.table) for example in originals]
    original_scores = judge_predictions(
        scoring,
        predict(victim, original_inputs, batch_size=batch_size),
        [example.gold for example in originals],
        [example.db_id for example in originals],
    )
    utterances = [item for items in test_set.utterances.values() for item in items]
    perturbed_inputs = [victim_input(item.perturbed, item.db_id, item.table) for item in utterances]
    perturbed_scores = judge_predictions(
        scoring,
        predict(victim, perturbed_inputs, batch_size=batch_size),
        [item.gold for item in utterances],
        [item.db_id for item in utterances],
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
    victim_errors: dict[str, int] = {perturbation: 0 for perturbation in test_set.perturbations}
    for index, item in enumerate(utterances):
        original, perturbed = original_scores[item.example_id], perturbed_scores[index]
        if Outcome.GOLD_ERROR in (original, perturbed):
            gold_errors[item.perturbation].add(item.example_id)
        elif Outcome.VICTIM_ERROR in (original, perturbed):
            victim_errors[item.perturbation] += 1
        else:
            outcomes[item.perturbation].append(
                UtteranceOutcome(
                    item.perturbation,
                    item.example_id,
                    original is Outcome.CORRECT,
                    perturbed is Outcome.CORRECT,
                    loss_increased[index],
                )
            )
    notes = []
    if not loss_available:
        notes.append(no_loss_message(name))
    if scoring.databases is None and isinstance(scoring.scorer, ExactMatchScorer):
        notes.append("no database: outputs scored by exact match of normalised tokens")
    return RobustnessReport(
        victim=name,
        dataset=test_set.dataset,
        scoring=scoring.describe(),
        database=None if scoring.databases is None else scoring.databases.describe(),
        original_examples=len(originals),
        original_correct=original_scores.count(Outcome.CORRECT),
        original_gold_errors=original_scores.count(Outcome.GOLD_ERROR),
        original_victim_errors=original_scores.count(Outcome.VICTIM_ERROR),
        perturbations={
            perturbation: RobustnessMetrics.from_outcomes(
                outcomes[perturbation],
                loss_available=loss_available,
                gold_errors=len(gold_errors[perturbation]),
                victim_errors=victim_errors[perturbation],
            )
            for perturbation in test_set.perturbations
        },
        loss_available=loss_available,
        test_set={
            "setting": test_set.setting,
            "candidates": test_set.candidates,
            "keep": test_set.keep,
            "selection": {
                name: dict(zip(("candidates", "keep"), test_set.selection_of(name))) for name in test_set.perturbations
            },
            "seed": test_set.seed,
            "skipped": dict(test_set.skipped),
            "left_out": {name: dict(counts) for name, counts in test_set.left_out.items()},
        },
        notes=notes,
    )
