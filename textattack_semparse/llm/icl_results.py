"""The results of the in-context-learning study (Zhuo et al. 2023, §4.2-4.3): each finished cell
(its demonstrations, their lexical diversity, the response-cache counts and the robustness report)
and the whole study, as JSON (``icl.json``) and CSV (``icl.csv``; one row per cell and test
perturbation, the paper's table). Original to textattack-semparse: the file formats.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError
from textattack_semparse.llm.icl_grid import ICLCell
from textattack_semparse.metrics.lexical_diversity import LexicalDiversity, lexical_diversity
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.runs.run_directory import atomic_write_text
from textattack_semparse.victims.llm.response_cache import CacheCounts
from textattack_semparse.victims.llm_victim_name import parse_llm_victim_name

ICL_TEST_SET_DIR = "test_set"
"""Where an ICL study's directory (:mod:`textattack_semparse.experiments.icl`) keeps its robustness test set."""
CELL_FORMAT = "textattack-semparse icl cell"
RESULT_FORMAT = "textattack-semparse icl result"

ROW_FIELDS = (
    "cell",
    "shots",
    "selection",
    "adversarial",
    "perturbation",
    "examples",
    "utterances",
    "standard_accuracy",
    "perturbation_accuracy",
    "robust_accuracy",
    "black_box_success_rate",
    "originals_standard_accuracy",
    "demonstrations",
    "demo_tokens",
    "demo_types",
    "demo_ttr",
    "demo_yules_i",
    "demo_mtld",
    "cache_hits",
    "cache_misses",
)
"""Columns of :meth:`ICLStudy.rows` (``icl.csv``): the cell, the test perturbation, its four
robustness metrics (:mod:`~textattack_semparse.robustness.robustness_metrics`), standard
accuracy on all originals, then the demonstrations' count and lexical diversity and the cell's
response-cache hits and misses."""


@dataclass(frozen=True)
class CellResult:
    """A finished cell: its victim's name, demonstrations ``(question, gold)``, their lexical
    diversity (``None`` without demonstrations), response-cache counts, seconds taken, the
    robustness report, and whether it was read from an earlier run's file (``reused``)."""

    cell: ICLCell
    victim: str
    demonstrations: tuple[tuple[str, str], ...]
    diversity: LexicalDiversity | None
    cache: CacheCounts
    seconds: float
    report: RobustnessReport
    reused: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CELL_FORMAT,
            "cell": self.cell.to_json(),
            "key": self.cell.key,
            "victim": self.victim,
            "demonstrations": [{"question": question, "gold": gold} for question, gold in self.demonstrations],
            "diversity": None if self.diversity is None else _finite_or_text(vars(self.diversity)),
            "cache": {"hits": self.cache.hits, "misses": self.cache.misses},
            "seconds": round(self.seconds, 3),
            "report": self.report.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str) -> CellResult:
        """Read what :meth:`to_json` wrote (``reused=True``).

        Raises:
            DatasetError: ``data`` is not a cell file.
        """
        if not isinstance(data, dict) or data.get("format") != CELL_FORMAT:
            raise DatasetError(
                f"{source} is not an icl cell (no 'format': {CELL_FORMAT!r}); use another output directory."
            )
        try:
            diversity = data["diversity"]
            return cls(
                cell=ICLCell(**data["cell"]),
                victim=data["victim"],
                demonstrations=tuple((item["question"], item["gold"]) for item in data["demonstrations"]),
                diversity=None if diversity is None else LexicalDiversity(**_numbers(diversity)),
                cache=CacheCounts(**data["cache"]),
                seconds=float(data["seconds"]),
                report=RobustnessReport.from_json(data["report"], source=source),
                reused=True,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DatasetError(
                f"{source} is a damaged icl cell ({type(error).__name__}: {error}); use another output directory."
            ) from None

    def rows(self) -> list[dict[str, Any]]:
        """One row per test perturbation (:data:`ROW_FIELDS`)."""
        diversity = self.diversity
        shared = {
            "cell": self.cell.key,
            **self.cell.to_json(),
            "originals_standard_accuracy": self.report.standard_accuracy,
            "demonstrations": len(self.demonstrations),
            "demo_tokens": None if diversity is None else diversity.tokens,
            "demo_types": None if diversity is None else diversity.types,
            "demo_ttr": None if diversity is None else diversity.ttr,
            "demo_yules_i": None if diversity is None else diversity.yules_i,
            "demo_mtld": None if diversity is None else diversity.mtld,
            "cache_hits": self.cache.hits,
            "cache_misses": self.cache.misses,
        }
        return [
            {
                **shared,
                "perturbation": name,
                "examples": metrics.examples,
                "utterances": metrics.utterances,
                **metrics.rates(),
            }
            for name, metrics in self.report.perturbations.items()
        ]


@dataclass(frozen=True)
class ICLStudy:
    """The finished cells of one study, in grid order, and how its test set was made."""

    model: str
    dataset: str
    parameters: Mapping[str, Any]
    cells: tuple[CellResult, ...]

    @property
    def model_label(self) -> str:
        """A short name of the model for titles: the last part of the name's target before any
        ``@URL`` (an ``hf-causal`` file or folder name, an ``openai`` model name)."""
        return parse_llm_victim_name(self.model).target.partition("@")[0].rstrip("/").rsplit("/", 1)[-1]

    def rows(self) -> list[dict[str, Any]]:
        """The paper's table: one row per cell and test perturbation (:data:`ROW_FIELDS`)."""
        return [{field: row.get(field) for field in ROW_FIELDS} for result in self.cells for row in result.rows()]

    def to_json(self) -> dict[str, Any]:
        """Everything: the parameters, every cell (with its full report) and the rows. Infinite
        diversity values (no repeated word) are written as the string ``"inf"``."""
        return {
            "format": RESULT_FORMAT,
            "model": self.model,
            "dataset": self.dataset,
            "parameters": dict(self.parameters),
            "cells": [result.to_json() for result in self.cells],
            "rows": [_finite_or_text(row) for row in self.rows()],
        }

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> ICLStudy:
        """Read the ``icl.json`` that :meth:`to_json` wrote.

        Raises:
            DatasetError: The file is missing, not JSON, or not an icl result.
        """
        path = Path(path)
        source = repr(str(path))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DatasetError(f"{source} does not exist; `textattack-semparse icl ... --output-dir DIR` writes it.") from None
        except json.JSONDecodeError as error:
            raise DatasetError(f"{source} is not valid JSON: {error}.") from None
        if not isinstance(data, dict) or data.get("format") != RESULT_FORMAT:
            raise DatasetError(f"{source} is not an icl result (no 'format': {RESULT_FORMAT!r}).")
        try:
            return cls(
                model=data["model"],
                dataset=data["dataset"],
                parameters=data["parameters"],
                cells=tuple(CellResult.from_json(cell, source=source) for cell in data["cells"]),
            )
        except (KeyError, TypeError) as error:
            raise DatasetError(f"{source} is a damaged icl result ({type(error).__name__}: {error}).") from None

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """:meth:`rows` as CSV, empty cells for undefined values; the file is replaced atomically."""
        import csv
        import io

        text = io.StringIO(newline="")
        writer = csv.DictWriter(text, fieldnames=ROW_FIELDS)
        writer.writeheader()
        for row in self.rows():
            writer.writerow({key: "" if value is None else value for key, value in row.items()})
        atomic_write_text(path, text.getvalue())


def demonstration_diversity(questions: Sequence[str]) -> LexicalDiversity | None:
    """:func:`~textattack_semparse.metrics.lexical_diversity.lexical_diversity` of the
    demonstration questions; ``None`` for none (zero-shot)."""
    return lexical_diversity(questions) if questions else None


def _finite_or_text(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with infinite floats as ``"inf"`` (JSON has no infinity)."""
    return {key: "inf" if isinstance(value, float) and math.isinf(value) else value for key, value in values.items()}


def _numbers(values: Mapping[str, Any]) -> dict[str, Any]:
    """Undo :func:`_finite_or_text`."""
    return {key: math.inf if value == "inf" else value for key, value in values.items()}
