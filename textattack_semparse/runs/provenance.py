"""What produced a run directory: the command line and the versions of the software it ran on.

A report built from the directory prints them, so a reader can repeat the run. Each invocation
that opens a run directory (the first run, and every resume) appends one line to
``invocations.jsonl``; the line is not part of the run's results, which are the same bytes
whichever command line or backend produced them. Original to textattack-semparse.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import platform
import shlex
from importlib import metadata
from pathlib import Path
from typing import Any

INVOCATIONS_FILE = "invocations.jsonl"
"""The file of a run directory that lists the invocations that wrote it."""
PROGRAM = "textattack-semparse"
DISTRIBUTIONS = (
    "textattack-semparse",
    "textattack",
    "torch",
    "transformers",
    "sentence-transformers",
    "sqlglot",
    "spacy",
    "ray",
)
"""The installed distributions whose versions decide a run's results (those missing are left out)."""

COMMAND_LINE: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar("command_line", default=None)
"""The arguments of the ``textattack-semparse`` invocation running now; ``None`` when the
library is used from Python (set by :func:`textattack_semparse.cli.main`)."""


def software_versions() -> dict[str, str]:
    """Python's version and the installed versions of :data:`DISTRIBUTIONS`."""
    versions = {"python": platform.python_version()}
    for name in DISTRIBUTIONS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def command_line(arguments: tuple[str, ...]) -> str:
    """The invocation as a shell line (``textattack-semparse robustness build ...``)."""
    return shlex.join((PROGRAM, *arguments))


def invocation_record(*, resumed: bool) -> dict[str, Any]:
    """The line :func:`record_invocation` appends: command, start time, resumption, versions."""
    arguments = COMMAND_LINE.get()
    return {
        "command": None if arguments is None else command_line(arguments),
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "resumed": resumed,
        "platform": platform.platform(terse=True),
        "versions": software_versions(),
    }


def record_invocation(directory: str | Path, *, resumed: bool) -> None:
    """Append this invocation to ``directory``'s :data:`INVOCATIONS_FILE`."""
    with (Path(directory) / INVOCATIONS_FILE).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(invocation_record(resumed=resumed), sort_keys=True) + "\n")


def read_invocations(directory: str | Path) -> list[dict[str, Any]]:
    """The invocations recorded in ``directory`` (none for directories written before they were
    recorded, or by TextAttack's own CLI); a line cut off by a kill is skipped."""
    path = Path(directory) / INVOCATIONS_FILE
    if not path.is_file():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records

