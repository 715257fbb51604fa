"""The figure of the in-context-learning study (Zhuo et al. 2023, §4.2-4.3): standard and robust
accuracy against shots, one panel per adversarial setting and one line per few-shot selection.
Original to textattack-semparse.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.llm.icl_grid import NO_ADVERSARIAL
from textattack_semparse.llm.icl_results import ICLStudy

if TYPE_CHECKING:
    from matplotlib.figure import Figure


MARKERS = ("o", "s", "^", "D", "v", "P")
"""Plot markers, one per selection line, so that lines on top of each other stay visible."""


def plot_icl_study(study: ICLStudy, path: str | os.PathLike[str]) -> Path:
    """Draw :func:`icl_study_figure` as a PNG at ``path``."""
    path = Path(path)
    icl_study_figure(study).savefig(path, dpi=120)
    return path


def icl_study_figure(study: ICLStudy) -> Figure:
    """The study against shots: standard accuracy on all originals (top) and robust accuracy
    pooled over the test perturbations (bottom), one panel per adversarial setting and one line
    per selection (Zhuo et al. 2023, §4.2-4.3); the zero-shot cell starts every line."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    zero = next((result for result in study.cells if result.cell.shots == 0), None)
    few = [result for result in study.cells if result.cell.shots > 0]
    panels = list(dict.fromkeys(result.cell.adversarial for result in few)) or [NO_ADVERSARIAL]
    selections = list(dict.fromkeys(result.cell.selection for result in few))
    metrics = (
        ("standard accuracy (%)", lambda report: report.standard_accuracy, "no original could be judged"),
        ("robust accuracy (%)", lambda report: report.micro.robust_accuracy, "no original parsed correctly"),
    )
    figure = Figure(figsize=(3.6 * len(panels) + 0.8, 6))
    FigureCanvasAgg(figure)
    grid = figure.subplots(len(metrics), len(panels), squeeze=False, sharex=True, sharey=True)
    shots = sorted({result.cell.shots for result in study.cells})
    for column, adversarial in enumerate(panels):
        for row, (label, value, undefined) in enumerate(metrics):
            axes = grid[row][column]
            lines = {
                selection: [r for r in few if r.cell.selection == selection and r.cell.adversarial == adversarial]
                for selection in selections
            } or {"zero-shot": []}
            defined = False
            for line, (selection, results) in enumerate(lines.items()):
                points = ([zero] if zero is not None else []) + sorted(results, key=lambda r: r.cell.shots)
                values = [value(result.report) for result in points]
                defined = defined or any(item is not None for item in values)
                axes.plot(
                    [result.cell.shots for result in points],
                    [math.nan if item is None else item for item in values],
                    marker=MARKERS[line % len(MARKERS)],
                    alpha=0.8,
                    label=selection,
                )
            if not defined:
                axes.text(0.5, 0.5, f"undefined: {undefined}", ha="center", transform=axes.transAxes, fontsize=9)
            axes.set_ylim(-2, 102)
            axes.set_xticks(shots)
            axes.grid(alpha=0.3)
            if row == 0:
                axes.set_title(f"adversarial demos: {adversarial}", fontsize=10)
            if row == len(metrics) - 1:
                axes.set_xlabel("shots")
            if column == 0:
                axes.set_ylabel(label)
    grid[0][0].legend(title="selection", fontsize=8, title_fontsize=8)
    tested = ", ".join(study.parameters.get("perturbations", []))
    figure.suptitle(f"{study.model_label} on {study.dataset} (test perturbations: {tested})", fontsize=10)
    figure.tight_layout()
    return figure
