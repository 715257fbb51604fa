"""One metric of several robustness reports side by side: perturbations x (dataset / victim)."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from typing import Any

from textattack_semparse.errors import ConfigurationError, closest_match_hint
from textattack_semparse.robustness.robustness_metrics import RATES
from textattack_semparse.robustness.robustness_report import MACRO, MICRO, RobustnessReport
from textattack_semparse.runs.run_directory import atomic_write_text

ORIGINALS_ROW = "standard accuracy (all originals)"


def report_label(report: RobustnessReport) -> str:
    """The column heading of a report: ``dataset / victim``."""
    return f"{report.dataset} / {report.victim}"


def combined_table(reports: Sequence[RobustnessReport], metric: str = "robust_accuracy") -> tuple[list[str], list[list[Any]]]:
    """Columns and rows of a table shaped like the papers' tables.

    Rows are the perturbations of all reports (in order of first appearance), then the micro
    and macro averages of ``metric``, then every report's standard accuracy on all its
    originals; columns are the reports (``dataset / victim``, plus the selection setting when
    two reports share dataset and victim, then ``#2``, ``#3`` if still ambiguous). A cell is
    ``None`` where a report lacks the perturbation or the value is undefined.

    Raises:
        ConfigurationError: ``metric`` is not one of :data:`RATES`, or there are no reports.
    """
    if metric not in RATES:
        raise ConfigurationError(f"Unknown metric {metric!r}.{closest_match_hint(metric, RATES)} Metrics: {', '.join(RATES)}.")
    if not reports:
        raise ConfigurationError("combined_table needs at least one report.")
    plain = [report_label(report) for report in reports]
    labels: list[str] = []
    for report, label in zip(reports, plain):
        setting = report.test_set.get("setting")
        if plain.count(label) > 1 and setting:
            label = f"{label} ({setting})"
        count = sum(existing == label or existing.startswith(f"{label} #") for existing in labels)
        labels.append(label if count == 0 else f"{label} #{count + 1}")
    perturbations = list(dict.fromkeys(name for report in reports for name in report.perturbations))
    rows: list[list[Any]] = []
    for name in perturbations:
        rows.append(
            [name, *(getattr(r.perturbations[name], metric) if name in r.perturbations else None for r in reports)]
        )
    rows.append([MICRO, *(getattr(report.micro, metric) for report in reports)])
    rows.append([MACRO, *(report.macro[metric] for report in reports)])
    rows.append([ORIGINALS_ROW, *(report.standard_accuracy for report in reports)])
    return ["perturbation", *labels], rows


def write_combined_table_csv(path: str | os.PathLike[str], columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """A :func:`combined_table` as CSV, empty cells for undefined values; replaced atomically."""
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(columns)
    writer.writerows([["" if value is None else value for value in row] for row in rows])
    atomic_write_text(path, text.getvalue())
