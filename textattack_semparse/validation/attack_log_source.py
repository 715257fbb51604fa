"""Rewrites of an attack: the successful examples of TextAttack's CSV log (``attack_log.csv`` of
``textattack-semparse attack`` or ``grammar-attack``, or ``textattack attack --log-to-csv``),
original text -> perturbed text, their colour markup removed.

An attack keeps one rewrite per example, so each is its own group. The copy without the
dropped rewrites is the same CSV log without their rows, every other row (failed and skipped
examples, the kept successes) byte for byte: an example whose only adversarial rewrite people
rejected has no outcome a meaning-preserving attack stands by, so it leaves the log rather than
counting as a failure. The log is what ``report`` and ``metrics`` read; the text log and summary
JSON of the run are not copied (they would count the rejected successes).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError
from textattack_semparse.metrics.attack_metrics import SUCCEEDED, plain_text, read_attack_log_content
from textattack_semparse.runs.run_directory import RUN_FILE, atomic_write_text
from textattack_semparse.validation.rewrite_source import Location, Rewrite, RewriteSource

ATTACK_RUN, ATTACK_LOG = "attack-run", "attack-log"
LOG_FILE = "attack_log.csv"
"""TextAttack's CSV log in an attack's run directory."""
GRAMMAR_SUMMARY = "summary.json"
"""The summary of a ``grammar-attack`` run, which names its recipe."""
LOG_COLUMNS = ("original_text", "perturbed_text", "result_type")
"""The columns of TextAttack's CSV log that tell one apart from other CSV files."""


def is_attack_log(path: Path) -> bool:
    """Whether the CSV file ``path`` has the columns of TextAttack's log."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle), [])
    except (OSError, UnicodeDecodeError, csv.Error):
        return False
    return all(column in header for column in LOG_COLUMNS)


class AttackLogSource(RewriteSource):
    """An attack's run directory (``kind`` :data:`ATTACK_RUN`: its ``attack_log.csv``) or a
    TextAttack CSV log file (``kind`` :data:`ATTACK_LOG`).

    A rewrite's location is ``(row,)``, the result row's position in the log. Its perturbation
    is the run's recipe (``run.json``, or a grammar attack's ``summary.json``), else the log
    file's name.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kind = ATTACK_RUN if path.is_dir() else ATTACK_LOG
        self.log = path / LOG_FILE if path.is_dir() else path

    def files(self) -> list[Path]:
        return [self.log]

    def recipe(self) -> str:
        """What made the rewrites: the run's recipe (``run.json``, or a grammar attack's
        ``summary.json``), else the log's file name."""
        if self.path.is_dir():
            configuration = _json_object(self.path / RUN_FILE).get("configuration")
            recipes = [
                configuration.get("recipe") if isinstance(configuration, dict) else None,
                _json_object(self.path / GRAMMAR_SUMMARY).get("recipe"),
            ]
            for recipe in recipes:
                if isinstance(recipe, str) and recipe:
                    return recipe
        return self.log.stem

    def rows(self) -> list[tuple[str, dict[str, str]]]:
        """Each result row of the log: its text as written (with its line ending) and its fields.

        Raises:
            DatasetError: Not a TextAttack CSV log (as :func:`~textattack_semparse.metrics.
                attack_metrics.read_attack_log_content`).
        """
        content = read_attack_log_content(self.log)
        if isinstance(content, dict):
            raise DatasetError(
                f"{str(self.log)!r} is TextAttack's summary JSON, which holds no rewrites; pass the CSV log "
                "(textattack attack ... --log-to-csv FILE) or the attack's run directory."
            )
        text = self.log.read_text(encoding="utf-8")
        records = list(_raw_records(text))
        columns = records[0][1]
        rows = []
        for (raw, record), fields in zip(records[1:], content, strict=False):
            if dict(zip(columns, record)) != fields:
                raise DatasetError(f"{self.log}: the result rows cannot be told apart; write the log again.")
            rows.append((raw, fields))
        return rows

    def rewrites(self) -> list[Rewrite]:
        recipe = self.recipe()
        found = []
        for row, (_, fields) in enumerate(self.rows()):
            if fields["result_type"] != SUCCEEDED:
                continue
            original, rewrite = plain_text(fields["original_text"]), plain_text(fields["perturbed_text"])
            if original != rewrite:
                gold = fields.get("ground_truth_output") or None
                found.append(Rewrite(original, rewrite, gold, recipe, (row,), f"row/{row}"))
        return found

    def write_without(self, dropped: Collection[Location], output: Path) -> Path:
        gone = {location[0] for location in dropped}
        text = self.log.read_text(encoding="utf-8")
        header = next(_raw_records(text))[0]
        kept = [raw for row, (raw, _) in enumerate(self.rows()) if row not in gone]
        target = output / (LOG_FILE if self.kind == ATTACK_RUN else self.log.name)
        atomic_write_text(target, header + "".join(kept))
        return output if self.kind == ATTACK_RUN else target


def _raw_records(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each CSV record of ``text`` with the exact text it was read from (blank lines skipped)."""
    consumed: list[str] = []

    def lines() -> Iterator[str]:
        for line in io.StringIO(text, newline="").readlines():
            consumed.append(line)
            yield line

    for record in csv.reader(lines()):
        raw = "".join(consumed)
        consumed.clear()
        if record:
            yield raw, record


def _json_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; empty when there is none (a missing or unreadable record)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}
