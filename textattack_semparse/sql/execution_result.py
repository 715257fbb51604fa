"""The outcome of running one SQL query: rows, or the reason there are none."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ExecutionResult:
    """Rows and column names of one executed query, or why it failed.

    A failed query is a value, not an exception: model-produced SQL fails often and the
    failure is part of the score. Instances are immutable and hashable, so they can be
    cached and shared.

    Original to textattack-semparse.

    Args:
        rows (tuple[tuple, ...]): Result rows in the order the database returned them.
        columns (tuple[str, ...]): Column names of the result.
        error (str | None, default None): Why the query failed; ``None`` when it ran.
        timed_out (bool, default False): The query was interrupted at its time limit.
        truncated (bool, default False): More rows existed than the row cap kept.
        seconds (float, default 0.0): How long the query ran (wall clock); not part of the
            result's value (equality, hash, repr).

    Example:
        >>> ExecutionResult(rows=((1,),), columns=("x",)).ok
        True
        >>> ExecutionResult.failure("no such table: stat").ok
        False
    """

    rows: tuple[tuple[Any, ...], ...]
    columns: tuple[str, ...]
    error: str | None = None
    timed_out: bool = False
    truncated: bool = False
    seconds: float = field(default=0.0, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """True when the query ran to completion (possibly with truncated rows)."""
        return self.error is None and not self.timed_out

    @classmethod
    def failure(cls, error: str, *, timed_out: bool = False) -> ExecutionResult:
        """A result without rows that records why the query failed."""
        return cls(rows=(), columns=(), error=error, timed_out=timed_out)
