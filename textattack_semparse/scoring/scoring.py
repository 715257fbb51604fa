"""One rule for judging predictions: a scorer on a benchmark's databases, errors set apart."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import RecipeError
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
from textattack_semparse.scoring.execution_scorer import ExecutionScorer
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.scoring.scorer import GoldError, MeasuredDistance, Scorer

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark


class Judgement(MeasuredDistance):
    """The verdict on one prediction.

    Args:
        outcome (Outcome): Correct, wrong, gold error or victim error.
        distance (float | Callable[[], float], default 0.0): 0.0 when correct (and for left-out
            outcomes); otherwise in (0, 1]; or a function measuring it when first read
            (:class:`~textattack_semparse.scoring.scorer.MeasuredDistance`).
        detail (str, default ""): Why a left-out outcome was left out.
    """

    __slots__ = ("outcome", "detail")
    _FIELDS = ("outcome", "distance", "detail")
    outcome: Outcome
    detail: str

    def __init__(self, outcome: Outcome, distance: float | Callable[[], float] = 0.0, detail: str = "") -> None:
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "detail", detail)
        super().__init__(distance)


_CORRECT = Judgement(Outcome.CORRECT)


@dataclass(frozen=True)
class Scoring:
    """A scorer and the databases it runs on: how a benchmark's predictions are judged.

    Every evaluation (the goal functions, ``evaluate``, the robustness evaluation) judges a
    prediction with :meth:`judge`, so all of them agree on what is correct and on what is
    left out: a prediction the victim failed to produce (it carries an ``error``, see
    :class:`~textattack_semparse.victims.prediction.Prediction`) is a victim error, an example
    whose gold output cannot be evaluated is a gold error. Original to textattack-semparse.

    Args:
        scorer (Scorer): How outputs compare.
        databases (Databases | None, default None): Where queries run; required when
            ``scorer.needs_databases``.

    Example:
        >>> Scoring(ExactMatchScorer()).judge("(a (b))", "(a (b))").outcome
        <Outcome.CORRECT: 'correct'>
    """

    scorer: Scorer
    databases: Databases | None = None

    def __post_init__(self) -> None:
        if self.scorer.needs_databases and self.databases is None:
            raise RecipeError(
                f"{type(self.scorer).__name__} runs queries and needs databases; pass the benchmark's "
                "(or a victim bound to a database)."
            )

    def judge(self, prediction: str, gold: str, db_id: str | None = None) -> Judgement:
        """Judge ``prediction`` against ``gold`` (of the example with ``db_id``)."""
        error = getattr(prediction, "error", None)
        if error is not None:
            return Judgement(Outcome.VICTIM_ERROR, detail=str(error))
        try:
            score = self.scorer.score(prediction, gold, self._databases(db_id))
        except GoldError as gold_error:
            return Judgement(Outcome.GOLD_ERROR, detail=str(gold_error))
        if score.match and score.distance == 0.0:
            return _CORRECT  # shared: judgments are immutable, and this is the common one
        return Judgement(Outcome.CORRECT if score.match else Outcome.WRONG, lambda: score.distance)

    def gold_error(self, gold: str, db_id: str | None = None) -> str | None:
        """Why ``gold`` cannot be evaluated, or ``None`` when it can."""
        try:
            self.scorer.check_gold(gold, self._databases(db_id))
        except GoldError as error:
            return str(error)
        return None

    def describe(self) -> str:
        """One line for reports: the scorer (and mode) and the databases.

        Example:
            >>> Scoring(ExactMatchScorer()).describe()
            'exact match (no database)'
        """
        mode = getattr(self.scorer, "mode", None)
        what = f"{self.scorer.name} match" + (f" ({mode})" if mode else "")
        return f"{what} on {self.databases.describe()}" if self.databases is not None else f"{what} (no database)"

    def _databases(self, db_id: str | None) -> tuple[Any, ...]:
        return () if self.databases is None else self.databases.for_example(db_id)


def scoring_for(
    victim: Any,
    *,
    benchmark: Benchmark | None = None,
    mode: str | None = None,
    timeout: float | None = None,
    gold_timeout: float | None = None,
) -> Scoring:
    """How ``victim``'s predictions are judged: the one place that decides it.

    The ``benchmark``'s scoring when given, else that of the benchmark the victim is bound
    to (its ``benchmark`` attribute), else execution match on the victim's own ``database``,
    else exact match. ``mode``, ``timeout`` (of predicted queries) and ``gold_timeout``
    override an execution scorer's settings.

    Raises:
        RecipeError: An override given for a benchmark scored without execution.
    """
    benchmark = benchmark if benchmark is not None else getattr(victim, "benchmark", None)
    if benchmark is not None:
        scoring = benchmark.scoring
    elif getattr(victim, "database", None) is not None:
        scoring = Scoring(ExecutionScorer(), Databases.at(victim.database))
    else:
        scoring = Scoring(ExactMatchScorer())
    overrides: dict[str, Any] = {
        name: value
        for name, value in (("mode", mode), ("timeout", timeout), ("gold_timeout", gold_timeout))
        if value is not None
    }
    if not overrides:
        return scoring
    if not isinstance(scoring.scorer, ExecutionScorer):
        where = f"benchmark {benchmark.name!r}" if benchmark is not None else f"{type(victim).__name__} (no database)"
        raise RecipeError(
            f"{where} is scored by {scoring.scorer.name} match; "
            f"{' and '.join(sorted(overrides))} {'applies' if len(overrides) == 1 else 'apply'} only to "
            "execution-scored benchmarks. Leave them out."
        )
    return Scoring(dataclasses.replace(scoring.scorer, **overrides), scoring.databases)
