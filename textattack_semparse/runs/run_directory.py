"""An output directory that a command can resume: its configuration is recorded, and a
different configuration in the same directory is refused instead of mixing two runs (unless the
run is started afresh with ``overwrite``)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textattack_semparse.errors import SemparseError
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.provenance import INVOCATIONS_FILE, record_invocation

RUN_FILE = "run.json"
"""The file in an output directory that records the command and configuration of its run."""


class RunDirectoryError(SemparseError):
    """An output directory cannot hold this run."""


class RunConfigurationChanged(RunDirectoryError, ValueError):
    """The output directory holds a run with another command or configuration."""


class NothingToResume(RunDirectoryError, FileNotFoundError):
    """Resuming was asked for, but the output directory holds no run."""


WAY_OUT = "choose another --output-dir, or add --overwrite to delete that run and start afresh"
"""How to leave a refused directory, in every message that refuses one."""


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the mode open() would
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def prepare_output_file(path: str | os.PathLike[str], option: str = "--output") -> Path:
    """``path`` with its folder created, before any work, so that an output file in a folder that
    does not exist yet is written rather than lost at the end of a run.

    Raises:
        RunDirectoryError: Something that is not a folder is in the way.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise RunDirectoryError(
            f"{option} {str(path)!r}: {str(path.parent)!r} is not a folder; choose a file in a folder."
        ) from None
    if path.is_dir():
        raise RunDirectoryError(f"{option} {str(path)!r} is a folder; give a file name in it.")
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class RunDirectory:
    """The output directory of one resumable run.

    ``configuration`` holds everything that decides the results (dataset, victim, seed, ...), not
    how they are computed (backend, workers, progress bars): resuming on another backend is fine.
    Every opening appends the command line and software versions to ``invocations.jsonl``
    (:mod:`~textattack_semparse.runs.provenance`).
    Opening a directory whose ``run.json`` records another command or configuration raises
    :class:`RunConfigurationChanged` naming the differences, unless ``overwrite`` deletes that
    run first. A directory is only written once everything the run needs has been checked
    (the workflows in :mod:`textattack_semparse.experiments` open it last), so a mistake never
    leaves a ``run.json`` that refuses the corrected command.

    Args:
        path: The output directory (created when missing).
        command: The command's name, e.g. ``"robustness run"``.
        configuration: JSON-serialisable settings that decide the results.
        resume: ``True`` when the user asked to resume: then a directory without a run is an error.
        overwrite: Delete the run the directory holds (everything in it) and start afresh.

    Example:
        >>> import tempfile
        >>> directory = tempfile.mkdtemp()
        >>> run = RunDirectory(directory, "demo", {"seed": 1})
        >>> RunDirectory(directory, "demo", {"seed": 2})
        Traceback (most recent call last):
        ...
        textattack_semparse.runs.run_directory.RunConfigurationChanged: ...
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        command: str,
        configuration: Mapping[str, Any],
        *,
        resume: bool = False,
        overwrite: bool = False,
    ) -> None:
        if resume and overwrite:
            raise RunDirectoryError("--resume continues a run and --overwrite deletes it; give one of them.")
        self.path = Path(path)
        self._created = not self.path.exists()
        self.command = command
        self.configuration = json.loads(json.dumps(dict(configuration), sort_keys=True))
        run_file = self.path / RUN_FILE
        if overwrite and run_file.exists():
            _empty(self.path)
        if run_file.exists():
            self._check_same_run(_read_run_file(run_file))
            self.resumed = True
            for leftover in self.path.rglob(".*.tmp"):  # a kill during atomic_write_text leaves these
                leftover.unlink(missing_ok=True)
        elif resume:
            raise NothingToResume(
                f"Nothing to resume in {self.path}: it has no {RUN_FILE}. Run the command without --resume to start."
            )
        else:
            self.resumed = False
            atomic_write_text(run_file, json.dumps({"command": command, "configuration": self.configuration}, indent=2, sort_keys=True) + "\n")
        record_invocation(self.path, resumed=self.resumed)

    def journal(self, name: str) -> Journal:
        """The journal ``<name>.jsonl`` of finished items in this directory."""
        return Journal(self.path / f"{name}.jsonl")

    def __enter__(self) -> RunDirectory:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: Any) -> None:
        """A run started here that fails before its first result leaves nothing behind: its
        ``run.json`` would refuse the corrected command. Ctrl-C keeps it, for ``--resume``."""
        if kind is None or not issubclass(kind, Exception) or self.resumed:
            return
        ours = {RUN_FILE, INVOCATIONS_FILE}
        if any(item.name not in ours and not item.name.endswith(".tmp") for item in self.path.iterdir()):
            return  # something finished (a journal, a file): kept for the retry
        for item in self.path.iterdir():
            item.unlink()
        if self._created:
            self.path.rmdir()

    def _check_same_run(self, recorded: Mapping[str, Any]) -> None:
        if recorded.get("command") != self.command:
            raise RunConfigurationChanged(
                f"{self.path} holds a {recorded.get('command')!r} run, not {self.command!r}: {WAY_OUT}."
            )
        before, now = recorded.get("configuration", {}), self.configuration
        changed = sorted(key for key in before.keys() | now.keys() if before.get(key) != now.get(key))
        if changed:
            details = "; ".join(f"{key}: {before.get(key)!r} then, {now.get(key)!r} now" for key in changed)
            raise RunConfigurationChanged(
                f"{self.path} holds a run with another configuration ({details}). Resuming would mix two runs: "
                f"repeat the original settings, or {WAY_OUT}."
            )


def _read_run_file(path: Path) -> Mapping[str, Any]:
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RunDirectoryError(f"{path} cannot be read ({error}): {WAY_OUT}.") from None
    if not isinstance(recorded, dict):
        raise RunDirectoryError(f"{path} is not a run record: {WAY_OUT}.")
    return recorded


def _empty(directory: Path) -> None:
    """Delete everything in ``directory`` (a run directory: it holds a ``run.json``)."""
    for item in directory.iterdir():
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item)
        else:
            item.unlink()
