"""Defences compared with a baseline: the four robustness metrics of several results, and their differences.

Huang, Li, Qu and Pan (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
https://aclanthology.org/2021.eacl-main.292/, compare a baseline parser with its defences
(FGM, PGD and meaning-preserving data augmentation; for RQ5, concatenation) by standard, perturbation and
robust accuracy and the success rate of black-box attack per perturbation. A comparison here
takes the values from robustness results (``robustness evaluate --output-json``) through
:func:`~textattack_semparse.robustness.combined_table.combined_table`, and adds each
defence's difference to the baseline (defence minus baseline, in percentage points).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.robustness.combined_table import ORIGINALS_ROW, combined_table
from textattack_semparse.robustness.robustness_metrics import RATES
from textattack_semparse.robustness.robustness_report import RobustnessReport

FORMAT = "textattack-semparse robustness comparison"
CSV_COLUMNS = ("perturbation", "result", "metric", "value", "delta")
PLOTTED_METRIC = "robust_accuracy"
METRIC_TITLES = {
    "standard_accuracy": "standard accuracy",
    "perturbation_accuracy": "perturbation accuracy",
    "robust_accuracy": "robust accuracy",
    "black_box_success_rate": "success rate of black-box attack",
}
"""The heading of each of :data:`~textattack_semparse.robustness.robustness_metrics.RATES`, as the papers write it."""


@dataclass(frozen=True)
class DefenceComparison:
    """The four metrics of a baseline and its defences, row by row, with each defence's delta.

    Rows are the perturbations of all results (in order of first appearance), then ``micro``
    and ``macro``; standard accuracy also has the row ``standard accuracy (all originals)``.
    A value is ``None`` where a result lacks the perturbation or the metric is undefined (the
    black-box success rate of a victim without a loss); a delta is ``None`` where either
    value is. Build one with :func:`compare_reports`.

    Args:
        names (tuple[str, ...]): One name per result, the baseline's first.
        reports (tuple[RobustnessReport, ...]): The results, in the same order.
        values (Mapping[str, Mapping[str, tuple[float | None, ...]]]): metric -> row -> one
            value per result (percent).
        missing (Mapping[str, tuple[str, ...]]): result name -> perturbations it lacks.
    """

    names: tuple[str, ...]
    reports: tuple[RobustnessReport, ...]
    values: Mapping[str, Mapping[str, tuple[float | None, ...]]]
    missing: Mapping[str, tuple[str, ...]]

    def __post_init__(self) -> None:
        values = {metric: MappingProxyType(dict(rows)) for metric, rows in self.values.items()}
        object.__setattr__(self, "values", MappingProxyType(values))
        object.__setattr__(self, "missing", MappingProxyType(dict(self.missing)))

    @property
    def baseline(self) -> str:
        return self.names[0]

    @property
    def defences(self) -> tuple[str, ...]:
        return self.names[1:]

    def rows(self, metric: str) -> list[str]:
        """The row names of ``metric``."""
        return list(self.values[metric])

    def value(self, metric: str, row: str, name: str) -> float | None:
        return self.values[metric][row][self.names.index(name)]

    def delta(self, metric: str, row: str, defence: str) -> float | None:
        """``defence`` minus the baseline in percentage points; ``None`` if either is missing."""
        return difference(self.value(metric, row, defence), self.value(metric, row, self.baseline))

    def table(self, metric: str) -> tuple[list[str], list[list[Any]]]:
        """Columns and rows of one metric: the row name, every result's value, every defence's delta."""
        columns = ["perturbation", *self.names, *(f"{defence} - {self.baseline}" for defence in self.defences)]
        rows = [
            [row, *values, *(self.delta(metric, row, defence) for defence in self.defences)]
            for row, values in self.values[metric].items()
        ]
        return columns, rows

    def warnings(self) -> list[str]:
        """One line per result and perturbation it lacks."""
        return [
            f"perturbation {perturbation!r} is missing from result {name!r}; its cells are n/a"
            for name, perturbations in self.missing.items()
            for perturbation in perturbations
        ]

    def to_json(self) -> dict[str, Any]:
        """Results, then ``values`` (row -> result -> metric -> value) and ``deltas`` (row -> defence -> metric -> delta)."""
        values: dict[str, dict[str, dict[str, float | None]]] = {}
        deltas: dict[str, dict[str, dict[str, float | None]]] = {}
        for metric in RATES:
            for row in self.rows(metric):
                for name in self.names:
                    values.setdefault(row, {}).setdefault(name, {})[metric] = self.value(metric, row, name)
                for defence in self.defences:
                    deltas.setdefault(row, {}).setdefault(defence, {})[metric] = self.delta(metric, row, defence)
        return {
            "format": FORMAT,
            "baseline": self.baseline,
            "defences": list(self.defences),
            "results": [
                {
                    "name": name,
                    "victim": report.victim,
                    "dataset": report.dataset,
                    "setting": report.test_set.get("setting"),
                    "loss_available": report.loss_available,
                }
                for name, report in zip(self.names, self.reports)
            ],
            "metrics": list(RATES),
            "missing": {name: list(perturbations) for name, perturbations in self.missing.items()},
            "values": values,
            "deltas": deltas,
        }

    def csv_rows(self) -> list[dict[str, Any]]:
        """One row per row name x result x metric (columns :data:`CSV_COLUMNS`); the baseline has no delta."""
        return [
            {
                "perturbation": row,
                "result": name,
                "metric": metric,
                "value": self.value(metric, row, name),
                "delta": None if name == self.baseline else self.delta(metric, row, name),
            }
            for metric in RATES
            for row in self.rows(metric)
            for name in self.names
        ]

    def write_csv(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`csv_rows`; empty cells for undefined values."""
        with Path(path).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
            writer.writeheader()
            for row in self.csv_rows():
                writer.writerow({key: "" if value is None else value for key, value in row.items()})


def difference(value: float | None, baseline: float | None) -> float | None:
    """``value - baseline``, or ``None`` when either is undefined.

    Example:
        >>> difference(80.0, 75.5), difference(None, 75.5)
        (4.5, None)
    """
    return None if value is None or baseline is None else value - baseline


def read_results(paths: Sequence[str | os.PathLike[str]]) -> list[RobustnessReport]:
    """The robustness results at ``paths``.

    Raises:
        DatasetError: A file is missing or is not a robustness result.
    """
    for path in paths:
        if not Path(path).is_file():
            raise DatasetError(
                f"Robustness result {str(path)!r} does not exist. Write one with `textattack-semparse robustness "
                "evaluate --model VICTIM --input-dir DIR --output-json FILE` (or `robustness run`, which writes "
                "DIR/robustness.json)."
            )
    return [RobustnessReport.read(path) for path in paths]


def default_names(reports: Sequence[RobustnessReport], sources: Sequence[str] | None = None) -> list[str]:
    """Each result's victim name; when two share one, the file stems, then the parent
    directories, then the paths as given, then ``#2``, ``#3`` appended.

    Example:
        >>> from textattack_semparse.robustness.robustness_report import RobustnessReport
        >>> report = RobustnessReport("knn-geo", "geo", "exact match", None, 0, 0, 0, {}, False)
        >>> default_names([report, report], ["out/huang/robustness.json", "out/mda/robustness.json"])
        ['huang', 'mda']
    """
    candidates = [[report.victim for report in reports]]
    if sources is not None:
        paths = [Path(source) for source in sources]
        candidates += [[path.stem for path in paths], [path.parent.name for path in paths], [str(path) for path in paths]]
    for names in candidates:
        if all(names) and len(set(names)) == len(names):
            return names
    names = candidates[-1]
    return [name if names[:index].count(name) == 0 else f"{name} #{names[:index].count(name) + 1}" for index, name in enumerate(names)]


def check_names(names: Sequence[str], count: int) -> list[str]:
    """``names`` stripped, if there is one distinct, non-empty name per result.

    Raises:
        ConfigurationError: Too few or too many names, an empty one or a repeated one.
    """
    names = [name.strip() for name in names]
    if len(names) != count:
        raise ConfigurationError(
            f"--names gives {len(names)} names ({','.join(names)}) for {count} results; give one name per result, "
            "the baseline's first, separated by commas."
        )
    if not all(names) or len(set(names)) != len(names):
        raise ConfigurationError(f"--names {','.join(names)} has an empty or repeated name; give each result its own name.")
    return names


def check_datasets(reports: Sequence[RobustnessReport], sources: Sequence[str]) -> None:
    """Raise unless every result is on the baseline's dataset.

    Raises:
        DatasetError: Naming the baseline and the first result on another dataset.
    """
    baseline = reports[0]
    for report, source in zip(reports[1:], sources[1:]):
        if report.dataset != baseline.dataset:
            raise DatasetError(
                f"Results on different datasets: {sources[0]} is on {baseline.dataset!r}, {source} on "
                f"{report.dataset!r}. Compare results on the same test set, or pass --allow-different-datasets "
                "(allow_different_datasets=True) to compare them anyway."
            )


def compare_reports(
    reports: Sequence[RobustnessReport],
    *,
    names: Sequence[str] | None = None,
    sources: Sequence[str] | None = None,
    allow_different_datasets: bool = False,
) -> DefenceComparison:
    """Compare a baseline (``reports[0]``) with its defences (the rest).

    Args:
        reports: At least two results, the baseline's first.
        names: One name per result (default :func:`default_names`).
        sources: Where each result came from (file paths), for default names and messages.
        allow_different_datasets: Compare results on different datasets instead of raising.

    Raises:
        ConfigurationError: Fewer than two results, or ``names`` do not fit.
        DatasetError: Results on different datasets (unless ``allow_different_datasets``).
    """
    if len(reports) < 2:
        raise ConfigurationError(
            f"A comparison needs a baseline and at least one defence result; got {len(reports)}. "
            "Pass BASELINE.json DEFENCE.json [DEFENCE.json ...]."
        )
    labels = [str(source) for source in sources] if sources is not None else [f"result {i + 1}" for i in range(len(reports))]
    if not allow_different_datasets:
        check_datasets(reports, labels)
    names = check_names(names, len(reports)) if names is not None else default_names(reports, sources)
    values: dict[str, dict[str, tuple[float | None, ...]]] = {}
    for metric in RATES:
        _, rows = combined_table(reports, metric)
        values[metric] = {
            row[0]: tuple(row[1:]) for row in rows if row[0] != ORIGINALS_ROW or metric == "standard_accuracy"
        }
    everywhere = dict.fromkeys(name for report in reports for name in report.perturbations)
    missing = {
        name: tuple(perturbation for perturbation in everywhere if perturbation not in report.perturbations)
        for name, report in zip(names, reports)
    }
    return DefenceComparison(
        tuple(names), tuple(reports), values, {name: lacking for name, lacking in missing.items() if lacking}
    )


def plot_comparison(
    comparison: DefenceComparison, path: str | os.PathLike[str], *, metric: str = PLOTTED_METRIC
) -> Path:
    """Grouped bars of ``metric`` (default robust accuracy) per row, one bar per result, as a PNG at ``path``.

    Undefined values get no bar.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = comparison.rows(metric)
    width = 0.8 / len(comparison.names)
    figure = Figure(figsize=(max(5.0, 0.5 + 0.35 * len(rows) * len(comparison.names)) + 1.5, 3.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for index, name in enumerate(comparison.names):
        heights = [comparison.value(metric, row, name) for row in rows]
        positions = [group + (index - (len(comparison.names) - 1) / 2) * width for group in range(len(rows))]
        axes.bar(
            [x for x, height in zip(positions, heights) if height is not None],
            [height for height in heights if height is not None],
            width=width,
            label=name,
        )
    axes.set_xticks(range(len(rows)))
    axes.set_xticklabels(rows, rotation=30, ha="right")
    axes.set_ylabel(f"{METRIC_TITLES[metric]} (%)")
    axes.set_ylim(0, 100)
    axes.grid(alpha=0.3, axis="y")
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    figure.tight_layout()
    path = Path(path)
    figure.savefig(path, dpi=150)
    return path
