"""The result of evaluating a victim on a robustness test set, as JSON, CSV and table rows."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse.errors import DatasetError
from textattack_semparse.metrics.accuracy import standard_accuracy
from textattack_semparse.robustness.robustness_metrics import (
    RATES,
    ROBUT_RATES,
    RobustnessMetrics,
    macro_average,
    micro_average,
)
from textattack_semparse.runs.run_directory import atomic_write_text

FORMAT = "textattack-semparse robustness report"
MICRO, MACRO, ORIGINALS = "micro", "macro", "originals"
COUNTS = tuple(item.name for item in fields(RobustnessMetrics))
CSV_COLUMNS = ("row", *COUNTS, *RATES)
TABLE_COLUMNS = ("perturbation", "ex.", "utt.", "std. acc.", "pert. acc.", "robust acc.", "black-box SR")
"""Headings of :meth:`RobustnessReport.table_rows`: examples, perturbed utterances, then the four metrics."""
ROBUT_TABLE_COLUMNS = ("perturbation", "ex.", "pre-attack acc.", "post-attack acc.", "robust acc.")
"""Headings of :meth:`RobustnessReport.robut_rows`: RobuT's table (Zhao et al. 2023)."""


@dataclass(frozen=True)
class RobustnessReport:
    """Per-perturbation robustness metrics of one victim on one test set, with averages.

    Original to textattack-semparse. Metric definitions: :mod:`textattack_semparse.robustness.robustness_metrics`.

    Args:
        victim (str): The victim's name (or model path).
        dataset (str): The dataset the test set was built from.
        scoring (str): How outputs were judged (``"execution match (classical) on ..."``,
            ``"exact match (no database)"``).
        database (str | None): The databases queries ran on.
        original_examples (int): Original examples in the test set.
        original_correct (int): Originals parsed correctly.
        original_gold_errors (int): Originals whose gold output cannot be evaluated (excluded).
        original_victim_errors (int, default 0): Originals the victim failed on (excluded).
        perturbations (Mapping[str, RobustnessMetrics]): Per-perturbation counts, in order.
        loss_available (bool): Whether the victim gave its loss on the gold outputs.
        test_set (Mapping[str, Any], default empty): How the test set was built (setting,
            candidates, keep, per-perturbation selection, seed, skipped).
        notes (Sequence[str], default ()): What the reader must know (no loss, exact match).
    """

    victim: str
    dataset: str
    scoring: str
    database: str | None
    original_examples: int
    original_correct: int
    original_gold_errors: int
    perturbations: Mapping[str, RobustnessMetrics]
    loss_available: bool
    original_victim_errors: int = 0
    test_set: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    notes: Sequence[str] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "perturbations", MappingProxyType(dict(self.perturbations)))
        object.__setattr__(self, "test_set", MappingProxyType(dict(self.test_set)))
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def standard_accuracy(self) -> float | None:
        """Standard accuracy (percent) on every original of the test set that could be judged."""
        judged = self.original_examples - self.original_gold_errors - self.original_victim_errors
        return standard_accuracy(self.original_correct, judged)

    @property
    def micro(self) -> RobustnessMetrics:
        """Counts pooled over every perturbed utterance."""
        return micro_average(self.perturbations.values())

    @property
    def macro(self) -> dict[str, float | None]:
        """Each metric averaged over the perturbations."""
        return macro_average(self.perturbations.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "victim": self.victim,
            "dataset": self.dataset,
            "scoring": self.scoring,
            "database": self.database,
            "test_set": dict(self.test_set),
            "loss_available": self.loss_available,
            "notes": list(self.notes),
            ORIGINALS: {
                "examples": self.original_examples,
                "correct": self.original_correct,
                "gold_errors": self.original_gold_errors,
                "victim_errors": self.original_victim_errors,
                "standard_accuracy": self.standard_accuracy,
            },
            "perturbations": {name: metrics.to_dict() for name, metrics in self.perturbations.items()},
            MICRO: self.micro.to_dict(),
            MACRO: self.macro,
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str = "report") -> RobustnessReport:
        """Read what :meth:`to_json` wrote.

        Raises:
            DatasetError: ``data`` is not a robustness report.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise DatasetError(
                f"{source} is not a robustness report (no 'format': {FORMAT!r}). Write one with "
                "`textattack-semparse robustness evaluate ... --output-json FILE`."
            )
        try:
            originals = data[ORIGINALS]
            return cls(
                victim=data["victim"],
                dataset=data["dataset"],
                scoring=data["scoring"],
                database=data["database"],
                original_examples=originals["examples"],
                original_correct=originals["correct"],
                original_gold_errors=originals["gold_errors"],
                original_victim_errors=originals.get("victim_errors", 0),
                perturbations={
                    name: RobustnessMetrics(**{key: row[key] for key in COUNTS if key in row})
                    for name, row in data["perturbations"].items()
                },
                loss_available=data["loss_available"],
                test_set=data.get("test_set", {}),
                notes=data.get("notes", ()),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise DatasetError(f"{source} is a damaged robustness report: {type(error).__name__}: {error}.") from None

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> RobustnessReport:
        """Read a report JSON file."""
        path = Path(path)
        if not path.is_file():
            raise DatasetError(f"Robustness report {str(path)!r} does not exist.")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise DatasetError(f"{str(path)!r} is not valid JSON: {error}.") from None
        return cls.from_json(data, source=repr(str(path)))

    def csv_rows(self) -> list[dict[str, Any]]:
        """One row per perturbation, then ``micro``, ``macro`` and ``originals`` (columns :data:`CSV_COLUMNS`)."""
        rows = [{"row": name, **metrics.to_dict()} for name, metrics in self.perturbations.items()]
        rows.append({"row": MICRO, **self.micro.to_dict()})
        rows.append({"row": MACRO, **self.macro})
        rows.append(
            {
                "row": ORIGINALS,
                "examples": self.original_examples,
                "examples_correct": self.original_correct,
                "gold_errors": self.original_gold_errors,
                "standard_accuracy": self.standard_accuracy,
            }
        )
        return rows

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`csv_rows` atomically; empty cells for undefined values."""
        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, fieldnames=CSV_COLUMNS, restval="")
        writer.writeheader()
        for row in self.csv_rows():
            writer.writerow({key: "" if value is None else value for key, value in row.items()})
        atomic_write_text(path, text.getvalue())

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_json` as indented JSON, atomically (what :meth:`read` reads)."""
        atomic_write_text(path, json.dumps(self.to_json(), indent=2) + "\n")

    def table_rows(self) -> list[tuple[Any, ...]]:
        """Rows for :data:`TABLE_COLUMNS`: the perturbations, then the micro and macro averages."""
        rows = [
            (name, metrics.examples, metrics.utterances, *metrics.rates().values())
            for name, metrics in self.perturbations.items()
        ]
        micro = self.micro
        rows.append((MICRO, micro.examples, micro.utterances, *micro.rates().values()))
        rows.append((MACRO, None, None, *self.macro.values()))
        return rows

    def robut_rows(self) -> list[tuple[Any, ...]]:
        """Rows for :data:`ROBUT_TABLE_COLUMNS`: per perturbation, its perturbed examples and RobuT's
        pre-attack, post-attack and robust accuracy, then their micro and macro averages."""
        rows = [(name, metrics.utterances, *metrics.robut_rates().values()) for name, metrics in self.perturbations.items()]
        micro = self.micro
        rows.append((MICRO, micro.utterances, *micro.robut_rates().values()))
        rows.append((MACRO, None, *macro_average(self.perturbations.values(), ROBUT_RATES).values()))
        return rows
