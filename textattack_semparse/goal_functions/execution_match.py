"""Execution-match goal function for text-to-SQL victims."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textattack_semparse.errors import RecipeError, SchemaError
from textattack_semparse.goal_functions.semantic_parsing_goal_function import (
    SemanticParsingGoalFunction,
    declare_compatibility,
)
from textattack_semparse.sql.execution import execution_match
from textattack_semparse.sql.sql_tokens import token_distance

DB_ID_COLUMN = "db_id"


class ExecutionMatch(SemanticParsingGoalFunction):
    """Succeeds when the victim's SQL no longer returns the gold query's denotation.

    Execution accuracy is the metric of the text-to-SQL robustness studies (Zhuo et al. 2023,
    "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained Language Model",
    https://arxiv.org/abs/2301.12868; Huang et al. 2021,
    https://aclanthology.org/2021.eacl-main.292/). The ground truth is the gold SQL; both
    queries run on a read-only, time-limited connection (:mod:`textattack_semparse.sql`) and
    their results are compared as multisets (as lists when the gold orders). A prediction
    that fails to run is a mismatch, never an exception; a gold query that fails raises
    ``DatasetError``.

    Args:
        model_wrapper: The victim.
        database (str | Path | None, default None): SQLite file for single-database
            benchmarks; ``None`` takes the victim's ``database`` attribute. A directory is
            taken as ``database_root``.
        database_root (str | Path | None, default None): For multi-database benchmarks
            (Spider): the database of an example is ``<root>/<db_id>/<db_id>.sqlite``, with
            ``db_id`` read from the example's ``db_id`` column.
        timeout (float, default 5.0): Seconds each query may run.
        max_rows (int, default 10000): Rows fetched per query.
        use_gold_loss (bool, default True): See :class:`SemanticParsingGoalFunction`.

    Example:
        >>> from textattack_semparse.datasets.benchmark import load_benchmark
        >>> from textattack_semparse.victims.knn_template_parser import KNNTemplateParser
        >>> geo = load_benchmark("geo-mini")
        >>> victim = KNNTemplateParser(geo.split("question", "train"), database=geo.database)
        >>> goal = ExecutionMatch(victim, timeout=2.0)
        >>> goal.database == geo.database
        True
    """

    def __init__(
        self,
        *args: Any,
        database: str | Path | None = None,
        database_root: str | Path | None = None,
        timeout: float = 5.0,
        max_rows: int = 10_000,
        **kwargs: Any,
    ) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout must be positive seconds, got {timeout!r}.")
        if max_rows < 1:
            raise ValueError(f"max_rows must be at least 1, got {max_rows!r}.")
        model_wrapper = args[0] if args else kwargs.get("model_wrapper")
        if database is None and database_root is None:
            database = getattr(model_wrapper, "database", None)
        if database is None and database_root is None:
            raise RecipeError(
                f"ExecutionMatch needs a database: {type(model_wrapper).__name__} has no `database` attribute. "
                "Pass database=<sqlite file> (or database_root=<dir> for Spider-style benchmarks)."
            )
        if database is not None and Path(database).is_dir():  # a directory of databases, Spider-style
            database, database_root = None, database
        self.database = Path(database) if database is not None else None
        self.database_root = Path(database_root) if database_root is not None else None
        self.timeout = timeout
        self.max_rows = max_rows
        super().__init__(*args, **kwargs)

    def database_for(self, attacked_text: Any) -> Path:
        """The SQLite file the example of ``attacked_text`` is evaluated on."""
        if self.database_root is not None and DB_ID_COLUMN in attacked_text.column_labels:
            db_id = attacked_text._text_input[DB_ID_COLUMN]
            path = self.database_root / db_id / f"{db_id}.sqlite"
            if not path.is_file():
                raise SchemaError(
                    f"No database for db_id {db_id!r}: {str(path)!r} does not exist. "
                    f"Check database_root ({str(self.database_root)!r})."
                )
            return path
        if self.database is None:
            raise SchemaError(
                f"Example has no {DB_ID_COLUMN!r} column and no single database was given; pass database=."
            )
        return self.database

    def _match(self, prediction: str, attacked_text: Any) -> bool:
        outcome = execution_match(
            prediction,
            self.ground_truth_output,
            self.database_for(attacked_text),
            timeout=self.timeout,
            max_rows=self.max_rows,
        )
        return outcome.match

    def _distance(self, prediction: str) -> float:
        return token_distance(prediction, self.ground_truth_output)

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["database", "database_root", "timeout", "max_rows"]


declare_compatibility(ExecutionMatch)
