"""Running a victim over many inputs and judging its predictions, for every evaluation.

Used by ``textattack-semparse evaluate`` (standard accuracy) and by the robustness
evaluation (originals and perturbed utterances alike), so both judge the same way: by the
benchmark's :class:`~textattack_semparse.scoring.scoring.Scoring`. No TextAttack import here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.scoring.scoring import Scoring

if TYPE_CHECKING:
    from textattack_semparse.runs.progress import ProgressBar
    from textattack_semparse.tables.table import Table

BATCH_SIZE = 64
"""Inputs per victim call."""

VictimInput = str | tuple[str, str]
"""What a victim is called with: the question, ``(question, db_id)`` or, for Table QA,
``(question, table_json)``."""


def victim_input(question: str, db_id: str | None, table: Table | None = None) -> VictimInput:
    """The victim input for a question: with its table as ``Table.to_json()`` text when it has
    one (Table QA), else with its ``db_id`` column when it has one.

    Example:
        >>> victim_input("how many singers", "concert_singer"), victim_input("rivers in texas", None)
        (('how many singers', 'concert_singer'), 'rivers in texas')
        >>> from textattack_semparse.tables.table import Table
        >>> victim_input("which city?", "csv/1.csv", Table(["City"], [["Oslo"]]))[1]
        '{"name": null, "header": ["City"], "rows": [["Oslo"]]}'
    """
    if table is not None:
        return (question, table.to_json())
    return question if db_id is None else (question, db_id)


def predict(
    victim: Callable[[list[Any]], list[str]],
    inputs: Sequence[VictimInput],
    *,
    batch_size: int = BATCH_SIZE,
    progress: ProgressBar | None = None,
) -> list[str]:
    """The victim's prediction for each input, in order; each distinct input is parsed once.
    ``progress`` (a :func:`~textattack_semparse.runs.progress.progress_bar`) counts the distinct
    inputs as their batches finish.

    Example:
        >>> predict(lambda batch: [q.upper() for q in batch], ["a", "b", "a"], batch_size=1)
        ['A', 'B', 'A']
    """
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigurationError(f"batch_size must be a positive int, got {batch_size!r}.")
    distinct = list(dict.fromkeys(inputs))
    if progress is not None:
        progress.set_total(len(distinct))
    outputs: list[str] = []
    for start in range(0, len(distinct), batch_size):
        batch = distinct[start : start + batch_size]
        outputs.extend(victim(batch))
        if progress is not None:
            progress.advance(len(batch))
    by_input = dict(zip(distinct, outputs))
    return [by_input[item] for item in inputs]


def judge_predictions(
    scoring: Scoring,
    predictions: Sequence[str],
    golds: Sequence[str],
    db_ids: Sequence[str | None] | None = None,
) -> list[Outcome]:
    """The outcome of each prediction against its gold, judged by ``scoring``.

    Example:
        >>> from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
        >>> from textattack_semparse.scoring.scoring import Scoring
        >>> [o.value for o in judge_predictions(Scoring(ExactMatchScorer()), ["(a (b))", "(a c)"], ["( a ( b ) )", "(a b)"])]
        ['correct', 'wrong']
    """
    if len(predictions) != len(golds) or (db_ids is not None and len(db_ids) != len(golds)):
        raise ValueError(
            f"judge_predictions needs one gold (and db_id) per prediction, got {len(predictions)} predictions, "
            f"{len(golds)} golds and {'no' if db_ids is None else len(db_ids)} db_ids."
        )
    ids = [None] * len(golds) if db_ids is None else db_ids
    return [scoring.judge(prediction, gold, db_id).outcome for prediction, gold, db_id in zip(predictions, golds, ids)]
