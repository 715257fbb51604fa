"""One report of several runs: summary tables in the papers' terms, plots, the adversarial
examples worst first, and the command lines and versions that produced each input
(:mod:`textattack_semparse.report`; docs/report.md).

Inputs may be any mix of run directories (``robustness run``, ``attack``, ``grammar-attack``,
``icl``), TextAttack's own log and summary files, ``robustness evaluate`` JSON files, or folders
holding such runs. ``html`` writes one self-contained page (inline style, SVG plots);
``markdown`` writes Markdown with the plots as SVG files in ``<output stem>_files/``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.runs.run_context import RunContext

if TYPE_CHECKING:
    from textattack_semparse.report.report import Report

FORMATS = ("html", "markdown")


@dataclass(frozen=True)
class ReportConfig:
    """What a report shows and where it goes.

    Args:
        runs: Run directories, log files, or folders of runs.
        output: The report file to write.
        format: ``html`` or ``markdown``.
        title: The report's title (default: the victims' names).
        max_examples: Examples listed at most, worst first (``None``: the default, 5000; all are
            counted in the tables).
    """

    runs: Sequence[str | os.PathLike[str]]
    output: str | os.PathLike[str]
    format: str = "html"
    title: str | None = None
    max_examples: int | None = None

    def __post_init__(self) -> None:
        if not self.runs:
            raise ConfigurationError("Give at least one run directory or log file to report on.")
        if self.format not in FORMATS:
            raise ConfigurationError(f"format must be one of {', '.join(FORMATS)}, got {self.format!r}.")
        if self.max_examples is not None and self.max_examples < 1:
            raise ConfigurationError(f"--max-examples must be a positive integer, got {self.max_examples}.")


@dataclass(frozen=True)
class ReportResult:
    """The report as laid out, and the file written."""

    report: Report
    path: Path


def run(config: ReportConfig, context: RunContext | None = None) -> ReportResult:
    """Read the runs of ``config`` and write their report."""
    from textattack_semparse.report.render import render_html, render_markdown
    from textattack_semparse.report.report import MAX_EXAMPLES, build_report
    from textattack_semparse.runs.run_directory import atomic_write_text

    report = build_report([Path(run) for run in config.runs], max_examples=config.max_examples or MAX_EXAMPLES)
    output = Path(config.output)
    if config.format == "html":
        text = render_html(report, title=config.title)
    else:
        figures = output.parent / f"{output.stem}_files"
        text = render_markdown(report, figures, title=config.title, relative_to=output.parent)
    atomic_write_text(output, text)
    return ReportResult(report, output.resolve())
