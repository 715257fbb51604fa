"""One progress bar for every long command: rich, on standard error, with rate and time left."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class ProgressBar:
    """A running bar; :meth:`advance` after each finished item. Silent when disabled."""

    def __init__(self, progress: Any = None, task: Any = None) -> None:
        self._progress = progress
        self._task = task

    def advance(self, count: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, count)

    def set_total(self, total: int | None) -> None:
        """Set the number of items once it is known (e.g. after the work is planned)."""
        if self._progress is not None:
            self._progress.update(self._task, total=total)

    def describe(self, description: str) -> None:
        """Change the label, e.g. to the grid cell being computed."""
        if self._progress is not None:
            self._progress.update(self._task, description=description)

    def set_completed(self, completed: int) -> None:
        """Set the number of finished items (for work that reports its own count)."""
        if self._progress is not None:
            self._progress.update(self._task, completed=completed)

    def restart(self, description: str, total: int | None) -> None:
        """Start the next phase of a run on the same bar: new label and total, nothing done yet."""
        if self._progress is not None:
            self._progress.reset(self._task, total=total, description=description)


@contextmanager
def progress_bar(total: int | None, description: str, *, enabled: bool | None = None) -> Iterator[ProgressBar]:
    """A bar for ``total`` items (``None`` = unknown) showing done/total, items per second, time spent
    and time left. ``enabled=None`` shows it when standard error is a terminal, so logs stay clean.

    Example:
        >>> with progress_bar(3, "examples", enabled=False) as bar:
        ...     bar.advance()
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield ProgressBar()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    ) as progress:
        yield _RatedBar(progress, progress.add_task(description, total=total, rate=""))


class _RatedBar(ProgressBar):
    """Keeps an items-per-second field up to date (rich's own speed column counts bytes)."""

    def advance(self, count: int = 1) -> None:
        self._progress.advance(self._task, count)
        speed = next(task.speed for task in self._progress.tasks if task.id == self._task)
        if speed is not None:
            self._progress.update(self._task, rate=f"{speed:.1f}/s")
