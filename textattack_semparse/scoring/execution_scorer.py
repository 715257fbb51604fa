"""Execution match on every database of a benchmark: classical or test-suite comparison."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError, DatasetError, SchemaError, closest_match_hint
from textattack_semparse.scoring.scorer import GoldError, Score, Scorer

MODES = ("classical", "test-suite")
"""Result comparisons (``docs/sql.md``), the only list of them: ``classical`` compares results
as multisets with numeric tolerance, ordered when the gold's outermost query orders;
``test-suite`` follows test-suite-sql-eval's ``result_eq`` (``execution_match(test_suite=True)``)."""

TIMEOUT = 5.0
"""Seconds a predicted query may run by default: a model's SQL is hostile input. The defaults
are set here only; :mod:`textattack_semparse.sql` takes its limits from its caller."""

GOLD_TIMEOUT = 60.0
"""Seconds a gold query may run by default: generous, its result is computed once per database."""


_MATCH = Score(match=True, distance=0.0)


@functools.cache
def _execution_match() -> Callable[..., Any]:
    """:func:`~textattack_semparse.sql.execution.execution_match`, imported on first use (it
    loads sqlglot) and not on every judgment."""
    from textattack_semparse.sql.execution import execution_match

    return execution_match


@dataclass(frozen=True)
class ExecutionScorer(Scorer):
    """A prediction is correct when it returns the gold query's result on every database.

    Execution accuracy is the metric of the text-to-SQL robustness studies (Zhuo et al. 2023,
    https://arxiv.org/abs/2301.12868); Huang et al. 2021,
    https://aclanthology.org/2021.eacl-main.292/, parse into logical forms and score exact
    match instead. With several databases of one schema the
    rule is test-suite accuracy (Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL
    with Distilled Test Suites", https://aclanthology.org/2020.emnlp-main.29/): one database
    that tells the prediction from the gold makes it wrong. Queries run sandboxed
    (:mod:`textattack_semparse.sql`); the gold query has its own, generous time limit and its
    result is computed once per database and cached.

    Args:
        mode (str, default "classical"): One of :data:`MODES`.
        timeout (float, default :data:`TIMEOUT`): Seconds a predicted query may run.
        gold_timeout (float, default :data:`GOLD_TIMEOUT`): Seconds a gold query may run.
        max_rows (int, default 10_000): Rows kept per result.

    Example:
        >>> ExecutionScorer(mode="test-suite").mode
        'test-suite'
    """

    mode: str = "classical"
    timeout: float = TIMEOUT
    gold_timeout: float = GOLD_TIMEOUT
    max_rows: int = 10_000
    name = "execution"

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigurationError(
                f"Unknown execution mode {self.mode!r}; accepted: {', '.join(MODES)}.{closest_match_hint(self.mode, MODES)}"
            )
        for name in ("timeout", "gold_timeout"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ConfigurationError(f"{name} must be a positive number of seconds, got {value!r}.")
        check_count("max_rows", self.max_rows)

    @property
    def needs_databases(self) -> bool:
        return True

    @property
    def test_suite(self) -> bool:
        """Whether :attr:`mode` compares as test-suite-sql-eval does: the ``test_suite`` flag of
        :func:`~textattack_semparse.sql.execution.execution_match`."""
        return self.mode == "test-suite"

    def score(self, prediction: str, gold: str, databases: Sequence[Path] = ()) -> Score:
        if not databases:
            raise SchemaError("Execution scoring needs at least one database; the benchmark gives none.")
        execution_match = _execution_match()
        for database in databases:
            try:
                outcome = execution_match(
                    prediction,
                    gold,
                    database,
                    test_suite=self.test_suite,
                    timeout=self.timeout,
                    gold_timeout=self.gold_timeout,
                    max_rows=self.max_rows,
                )
            except GoldError:
                raise
            except DatasetError as error:
                raise GoldError(str(error)) from error
            if not outcome.match:
                return Score(False, functools.partial(getattr, outcome, "distance"))  # measured when read
        return _MATCH

    def distance(self, prediction: str, gold: str) -> float:
        from textattack_semparse.sql.sql_tokens import token_distance

        return token_distance(prediction, gold)
