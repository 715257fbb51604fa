"""The report's plots, drawn with matplotlib and embedded as SVG (no file or network needed to view them).

The ICL figure and the success-vs-errors curve are the ones their commands draw
(:func:`~textattack_semparse.llm.icl_figure.icl_study_figure`,
:func:`~textattack_semparse.metrics.grammar_error_analysis.success_vs_budget_figure`); the two
drawn here compare runs. Original to textattack-semparse.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from textattack_semparse.robustness.robustness_report import RobustnessReport

if TYPE_CHECKING:
    from matplotlib.figure import Figure

RATE_TITLES = {"perturbation_accuracy": "perturbation accuracy (%)", "robust_accuracy": "robust accuracy (%)"}


def svg_data_uri(figure: Figure) -> str:
    """``figure`` as an SVG ``data:`` URI, for an ``<img src>``."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})  # no date: the same runs give the same bytes
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _new_figure(width: float, height: float, rows: int = 1) -> tuple[Figure, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    return figure, figure.subplots(rows, 1, squeeze=False)[:, 0]


def _grouped_bars(axes: Any, groups: list[str], series: Mapping[str, list[float | None]]) -> None:
    """One group of bars per entry of ``groups``, one bar per series; missing values are gaps."""
    width = 0.8 / max(len(series), 1)
    positions = np.arange(len(groups))
    for offset, (label, values) in enumerate(series.items()):
        heights = [math.nan if value is None else value for value in values]
        axes.bar(positions + (offset - (len(series) - 1) / 2) * width, heights, width, label=label)
    axes.set_xticks(positions, groups, rotation=30, ha="right", fontsize=8)
    axes.grid(axis="y", alpha=0.3)


def accuracy_by_perturbation_figure(reports: Mapping[str, RobustnessReport]) -> Figure:
    """Perturbation accuracy and robust accuracy (Huang et al. 2021) per perturbation, one bar
    per run (label -> report, legend on top), standard accuracy as a dashed line per run."""
    perturbations = list(dict.fromkeys(name for report in reports.values() for name in report.perturbations))
    figure, panels = _new_figure(max(6.0, 0.55 * len(perturbations) * max(len(reports), 1) + 2), 6.5, rows=2)
    for axes, metric in zip(panels, RATE_TITLES):
        series = {
            label: [
                report.perturbations[name].rates()[metric] if name in report.perturbations else None
                for name in perturbations
            ]
            for label, report in reports.items()
        }
        _grouped_bars(axes, perturbations, series)
        axes.set_ylabel(RATE_TITLES[metric], fontsize=9)
        axes.set_ylim(0, 105)
        if metric == "perturbation_accuracy":
            for color, report in enumerate(reports.values()):
                if report.standard_accuracy is not None:
                    axes.axhline(report.standard_accuracy, color=f"C{color}", linestyle="--", linewidth=1)
    handles, labels = panels[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="upper center", ncol=min(len(labels), 3), fontsize=8, frameon=False)
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.06 * math.ceil(len(labels) / 3)))
    return figure


def error_type_figure(summaries: Mapping[str, Mapping[str, Any]]) -> Figure:
    """The errors of each type in successful grammatical-error attacks (Yin et al. 2020, Table 4),
    as a share of all their errors, one bar per attack (label -> ``summary.json``)."""
    types = list(dict.fromkeys(name for summary in summaries.values() for name in summary["error_types"]))
    figure, panels = _new_figure(max(5.0, 0.5 * len(types) * max(len(summaries), 1) + 2), 3.6)
    series = {
        label: [summary["error_types"].get(name, {}).get("errors_percent") for name in types]
        for label, summary in summaries.items()
    }
    _grouped_bars(panels[0], types, series)
    panels[0].set_ylabel("share of errors in\nsuccessful attacks (%)", fontsize=9)
    panels[0].set_ylim(0, 105)
    panels[0].legend(fontsize=8)
    panels[0].set_title("harm by error type", fontsize=10)
    figure.tight_layout()
    return figure
