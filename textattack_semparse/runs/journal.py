"""An append-only journal of finished work: one JSON line per item, flushed and fsynced.

A long command appends each finished item as soon as it has it, so a kill (even ``kill -9``)
loses at most the item in flight. On resume the journal is read back: a last line cut short
by the kill is dropped from the file (it was never finished), a damaged line anywhere else is
an error naming the file and line, since that is not what a kill leaves behind.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from textattack_semparse.errors import SemparseError


class JournalError(SemparseError, ValueError):
    """A journal line that is not a finished record (not the torn tail a kill leaves)."""


class Journal:
    """Finished items of a run, keyed by a string, in the order they finished.

    Example:
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "done.jsonl"
        >>> journal = Journal(path)
        >>> journal.append("q1", {"prediction": "SELECT 1"})
        >>> _ = path.open("a").write('{"key": "q2", "val')  # what a kill mid-write leaves
        >>> Journal(path).read()
        {'q1': {'prediction': 'SELECT 1'}}
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, Any]:
        """The finished items; cuts a torn last line off the file so appends start clean."""
        records = self.records()
        if self.path.exists():
            data = self.path.read_bytes()
            complete_length = data.rfind(b"\n") + 1
            if complete_length < len(data):
                with self.path.open("r+b") as handle:
                    handle.truncate(complete_length)
        return records

    def records(self) -> dict[str, Any]:
        """The finished items, leaving the file as it is (a torn last line is ignored).

        Raises:
            JournalError: A complete line is not a journal record.
        """
        if not self.path.exists():
            return {}
        data = self.path.read_bytes()
        complete_length = data.rfind(b"\n") + 1
        records: dict[str, Any] = {}
        for number, line in enumerate(data[:complete_length].decode("utf-8").splitlines(), start=1):
            try:
                record = json.loads(line)
                records[record["key"]] = record["value"]
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise JournalError(
                    f"{self.path}, line {number}: not a journal record ({error}). The file was changed by hand or "
                    "by another program; delete it (its items are recomputed) or choose a new output directory."
                ) from error
        return records

    def append(self, key: str, value: Any) -> None:
        """Record ``key`` as finished with ``value`` (JSON-serialisable), durably."""
        line = json.dumps({"key": key, "value": value}, ensure_ascii=False, sort_keys=True) + "\n"
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
