"""Evaluating a victim on a robustness test set: originals, perturbed utterances, gold losses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.progress import ProgressBar
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.scoring.scoring import Scoring, scoring_for
from textattack_semparse.victims.resolution import dataset_benchmark, resolve_victim


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


class EvaluationWorker:
    """What each worker of an evaluation holds: a victim and how its predictions are judged.

    Args:
        victim: A :class:`~textattack_semparse.victims.semantic_parser.SemanticParser`
            (or any callable from inputs to predictions).
        scoring: How predictions are judged.
        batch_size: Inputs per victim call.
    """

    def __init__(self, victim: Any, scoring: Scoring, batch_size: int = BATCH_SIZE) -> None:
        self.victim = victim
        self.scoring = scoring
        self.batch_size = batch_size

    @classmethod
    def named(cls, model: str, dataset: str, *, batch_size: int = BATCH_SIZE, **scoring_options: Any) -> EvaluationWorker:
        """The worker for the victim called ``model`` (resolved where the worker runs, e.g. on a
        Ray node, so the victim is loaded there and never pickled), judged as :func:`evaluation_scoring`
        judges ``dataset`` with ``scoring_options`` (``mode``, ``timeout``, ``gold_timeout``)."""
        victim, _ = resolve_victim(model, dataset=dataset)
        return cls(victim, evaluation_scoring(victim, dataset, **scoring_options), batch_size)

    def about(self) -> dict[str, Any]:
        """What the report says of the victim and the scoring (the same on every worker)."""
        return {
            "scoring": self.scoring.describe(),
            "database": None if self.scoring.databases is None else self.scoring.databases.describe(),
            "loss_available": bool(getattr(self.victim, "supports_loss", False)),
            "exact_match": self.scoring.databases is None and isinstance(self.scoring.scorer, ExactMatchScorer),
        }

    def score(self, items: Sequence[EvaluationItem]) -> list[dict[str, Any]]:
        """Per item: the prediction, its outcome and, when the victim gives one, its loss on the gold."""
        inputs = [item.input for item in items]
        golds = [item.gold for item in items]
        predictions = predict(self.victim, inputs, batch_size=self.batch_size)
        outcomes = judge_predictions(self.scoring, predictions, golds, [item.db_id for item in items])
        losses: list[float | None] = [None] * len(items)
        if getattr(self.victim, "supports_loss", False):
            losses = list(gold_losses(self.victim, inputs, golds, batch_size=self.batch_size))
        return [
            {"prediction": prediction, "outcome": outcome.value, "loss": loss}
            for prediction, outcome, loss in zip(predictions, outcomes, losses)
        ]


@dataclass(frozen=True)
class EvaluationItem:
    """One victim input of an evaluation: an original or a perturbed utterance, keyed in the journal
    as ``originals/<example_id>`` or ``<perturbation>/<index in its file>``."""

    key: str
    input: VictimInput
    gold: str
    db_id: str | None


ORIGINALS_KEY = "originals"
"""Journal key prefix of the originals (a name no perturbation may take)."""

ABOUT_KEY = "victim"
"""The journal key of :meth:`EvaluationWorker.about`."""


def evaluation_items(test_set: RobustnessTestSet) -> list[EvaluationItem]:
    """The victim inputs of ``test_set``: the originals, then each perturbation's utterances."""
    items = [
        EvaluationItem(f"{ORIGINALS_KEY}/{index}", victim_input(example.question, example.db_id, example.table), example.gold, example.db_id)
        for index, example in enumerate(test_set.originals)
    ]
    for name, utterances in test_set.utterances.items():
        items.extend(
            EvaluationItem(f"{name}/{index}", victim_input(item.perturbed, item.db_id, item.table), item.gold, item.db_id)
            for index, item in enumerate(utterances)
        )
    return items


def _score_chunk(worker: EvaluationWorker, items: Sequence[EvaluationItem]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return worker.about(), worker.score(items)


def evaluate_test_set(
    victim: Any,
    test_set: RobustnessTestSet,
    *,
    victim_name: str | None = None,
    scoring: Scoring | None = None,
    batch_size: int = BATCH_SIZE,
) -> RobustnessReport:
    """Run ``victim`` on the originals and perturbed utterances of ``test_set`` in this process and score them.

    Args:
        victim: A :class:`~textattack_semparse.victims.semantic_parser.SemanticParser`
            (or any callable from inputs to predictions).
        test_set: The test set.
        victim_name: Name used in the report; default the victim's class name.
        scoring: How predictions are judged; ``None`` = :func:`evaluation_scoring`.
        batch_size: Inputs per victim call.
    """
    if scoring is None:
        scoring = evaluation_scoring(victim, test_set.dataset)
    worker = EvaluationWorker(victim, scoring, batch_size)
    return run_evaluation(test_set, lambda: worker, victim_name=victim_name or type(victim).__name__, batch_size=batch_size)


def run_evaluation(
    test_set: RobustnessTestSet,
    make_worker: Callable[[], EvaluationWorker],
    *,
    victim_name: str,
    batch_size: int = BATCH_SIZE,
    context: RunContext | None = None,
    journal: Journal | None = None,
    progress: ProgressBar | None = None,
) -> RobustnessReport:
    """Evaluate a victim on the originals and perturbed utterances of ``test_set``: the four metrics per perturbation.

    The inputs (:func:`evaluation_items`) go to the backend of ``context`` (default: this process) in chunks of
    ``batch_size``; each worker, built by ``make_worker`` (e.g.
    ``functools.partial(EvaluationWorker.named, model, dataset)``), predicts each distinct input
    of a chunk once and judges it. Examples whose gold output cannot be evaluated, and inputs the
    victim fails on, are excluded and counted (gold errors, victim errors). When the victim
    supports a loss, the loss on the gold output of every original and perturbed utterance
    decides the success rate of black-box attack; otherwise that rate is ``None`` and the report
    says why.

    Each finished input is appended to ``journal`` (its prediction, outcome and loss); inputs the
    journal already holds are not predicted again, so a killed evaluation continues where it stopped.
    """
    items = evaluation_items(test_set)
    done = journal.read() if journal is not None else {}
    pending = [item for item in items if item.key not in done]
    chunks = [pending[start : start + batch_size] for start in range(0, len(pending), batch_size)]
    if progress is not None:
        progress.set_total(len(items))
        progress.advance(len(items) - len(pending))

    def records(
        chunk: Sequence[EvaluationItem], result: tuple[dict[str, Any], list[dict[str, Any]]]
    ) -> list[tuple[str, Any]]:
        """The victim's description (once) and a record per input."""
        about, scored = result
        first = [] if ABOUT_KEY in done else [(ABOUT_KEY, about)]
        return first + [(item.key, record) for item, record in zip(chunk, scored)]

    for _ in (context or RunContext()).map(
        chunks, make_worker, _score_chunk, journal=journal, done=done, records=records, progress=progress, weight=len
    ):
        pass  # each result is journaled and kept in ``done`` by the map
    if ABOUT_KEY not in done:  # a test set without examples: nothing was sent to a worker
        done[ABOUT_KEY] = make_worker().about()
    return _report(test_set, victim_name, done[ABOUT_KEY], {item.key: done[item.key] for item in items})


def _report(
    test_set: RobustnessTestSet, name: str, about: dict[str, Any], records: dict[str, dict[str, Any]]
) -> RobustnessReport:
    """The report of the finished ``records`` (journal values keyed as in :func:`evaluation_items`)."""
    originals = [records[f"{ORIGINALS_KEY}/{index}"] for index in range(len(test_set.originals))]
    original_scores = [Outcome(record["outcome"]) for record in originals]
    loss_available = bool(about["loss_available"])
    outcomes: dict[str, list[UtteranceOutcome]] = {perturbation: [] for perturbation in test_set.perturbations}
    gold_errors: dict[str, set[int]] = {perturbation: set() for perturbation in test_set.perturbations}
    victim_errors: dict[str, int] = {perturbation: 0 for perturbation in test_set.perturbations}
    for perturbation, utterances in test_set.utterances.items():
        for index, item in enumerate(utterances):
            record = records[f"{perturbation}/{index}"]
            original, perturbed = original_scores[item.example_id], Outcome(record["outcome"])
            if Outcome.GOLD_ERROR in (original, perturbed):
                gold_errors[perturbation].add(item.example_id)
            elif Outcome.VICTIM_ERROR in (original, perturbed):
                victim_errors[perturbation] += 1
            else:
                loss_increased = record["loss"] > originals[item.example_id]["loss"] if loss_available else None
                outcomes[perturbation].append(
                    UtteranceOutcome(
                        perturbation,
                        item.example_id,
                        original is Outcome.CORRECT,
                        perturbed is Outcome.CORRECT,
                        loss_increased,
                        item.weight,
                    )
                )
    notes = []
    if not loss_available:
        notes.append(no_loss_message(name))
    if about["exact_match"]:
        notes.append("no database: outputs scored by exact match of normalised tokens")
    return RobustnessReport(
        victim=name,
        dataset=test_set.dataset,
        scoring=about["scoring"],
        database=about["database"],
        original_examples=len(test_set.originals),
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
            "coverage": test_set.coverage(),
            "judge": test_set.judge,
            "judged": {name: tally.to_json() for name, tally in test_set.judged.items()},
        },
        notes=notes,
    )
