"""What every long workflow runs in: how it is computed (backend, resuming, progress bars), where
its messages go, and its run directory.

A workflow of :mod:`textattack_semparse.experiments` takes a :class:`RunContext` beside its
configuration. The configuration decides the results and is recorded in ``run.json``; the
context decides only how they are computed, so a run may be resumed on another backend, with
or without a progress bar, and write the same files.

Example:
    >>> import tempfile
    >>> context = RunContext(RunOptions(progress=False))
    >>> with context:
    ...     directory = context.open_directory(tempfile.mkdtemp(), "demo", {"seed": 0})
    ...     done = {}
    ...     squares = list(context.map([2, 3], int, lambda worker, task: task * task,
    ...                                journal=directory.journal("squares"), done=done,
    ...                                records=lambda task, result: [(str(task), result)]))
    >>> squares, done
    ([(2, 4), (3, 9)], {'2': 4, '3': 9})
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, TypeVar

from textattack_semparse.arguments import check_choice, check_count
from textattack_semparse.runs.backends import BACKENDS, Backend, make_backend
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.progress import ProgressBar, progress_bar
from textattack_semparse.runs.run_directory import RunDirectory, RunDirectoryError

Worker = TypeVar("Worker")
Task = TypeVar("Task")
Result = TypeVar("Result")


@dataclass(frozen=True)
class RunOptions:
    """How a run is computed, not what it computes (never part of ``run.json``).

    Args:
        backend: ``"serial"`` (this process) or ``"ray"`` (workers holding a victim each).
        workers: Ray workers.
        ray_address: Ray cluster to join (``None``: a local Ray on 127.0.0.1 for the run).
        resume: Continue the run in the output directory; a directory without one is an error.
        overwrite: Delete the run the output directory holds and start afresh.
        progress: Show progress bars; ``None`` shows them when standard error is a terminal.
    """

    backend: str = "serial"
    workers: int = 2
    ray_address: str | None = None
    resume: bool = False
    overwrite: bool = False
    progress: bool | None = None

    def __post_init__(self) -> None:
        check_choice("backend", self.backend, BACKENDS)
        check_count("workers", self.workers)
        if self.resume and self.overwrite:
            raise RunDirectoryError("--resume continues a run and --overwrite deletes it; give one of them.")


def _silent(message: str) -> None:
    """The default destination of a context's messages: none (a Python caller reads the result)."""


class RunContext:
    """The options of a run, a destination for its messages, and the backend it computes on.

    The backend is created on first use and released by :meth:`close` (or leaving the
    ``with`` block); a context may be used for several runs one after another.

    Args:
        options: How to compute (default: serial, no resume, progress bars on a terminal).
        say: Receives the run's messages for the user (``print`` on the command line);
            default: discarded.
    """

    def __init__(self, options: RunOptions | None = None, *, say: Callable[[str], None] | None = None) -> None:
        self.options = options if options is not None else RunOptions()
        self.say = say if say is not None else _silent
        self._backend: Backend | None = None

    def open_directory(
        self, path: str | os.PathLike[str], command: str, configuration: dict[str, Any]
    ) -> RunDirectory:
        """The run directory at ``path`` for ``command`` with ``configuration``, as the options
        ask (resumed, or started afresh); call it only once everything the run needs is checked."""
        directory = RunDirectory(
            path, command, configuration, resume=self.options.resume, overwrite=self.options.overwrite
        )
        if directory.resumed:
            self.say(f"Resuming the run in {path} (finished items are not recomputed)")
        return directory

    @property
    def backend(self) -> Backend:
        """The backend the options name, created on first use."""
        if self._backend is None:
            options = self.options
            self._backend = make_backend(options.backend, workers=options.workers, address=options.ray_address)
        return self._backend

    def progress(self, total: int | None, description: str) -> AbstractContextManager[ProgressBar]:
        """A progress bar for ``total`` items (``None``: unknown yet), shown as the options say."""
        return progress_bar(total, description, enabled=self.options.progress)

    def map(
        self,
        tasks: Sequence[Task],
        make_worker: Callable[[], Worker],
        call: Callable[[Worker, Task], Result],
        *,
        journal: Journal | None,
        done: MutableMapping[str, Any],
        records: Callable[[Task, Result], Iterable[tuple[str, Any]]],
        progress: ProgressBar | None = None,
        weight: Callable[[Task], int] | None = None,
    ) -> Iterator[tuple[Task, Result]]:
        """``call(worker, task)`` for every task on the backend, in task order, each result
        journaled as soon as it arrives: the resumable loop of every long workflow.

        ``records(task, result)`` gives the ``(key, record)`` pairs a result leaves; each is
        appended to ``journal`` (when given) and stored in ``done``, so a killed run, read back
        with :meth:`Journal.read`, skips what it finished. ``progress`` advances by
        ``weight(task)`` (default 1) per task. Yields each task with its result.
        """
        results = self.backend.map(make_worker, call, tasks)
        for task, result in zip(tasks, results):
            for key, record in records(task, result):
                if journal is not None:
                    journal.append(key, record)
                done[key] = record
            if progress is not None:
                progress.advance(1 if weight is None else weight(task))
            yield task, result

    def close(self) -> None:
        """Release the backend (stop the local Ray it started); the next use creates a new one."""
        if self._backend is not None:
            backend, self._backend = self._backend, None
            backend.close()

    def __enter__(self) -> RunContext:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
