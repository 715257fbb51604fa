"""The tables released robustness benchmarks report their results in, by name.

A released benchmark names its layout (``Benchmark.leaderboard``); ``robustness evaluate
--dataset NAME`` prints the report in it. ``huang-2021`` is the per-perturbation table of
Huang et al. (2021) every evaluation prints (standard, perturbation and robust accuracy and the
success rate of black-box attack); ``robut`` is RobuT's (Zhao et al. 2023, pre-perturbation,
post-perturbation and robust accuracy per perturbation type). A layout is a function from a
:class:`~textattack_semparse.robustness.robustness_report.RobustnessReport` to the
:class:`LeaderboardTable` to print; add one to :data:`LEADERBOARDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from textattack_semparse.errors import ConfigurationError, closest_match_hint
from textattack_semparse.robustness.robustness_report import (
    ROBUT_TABLE_COLUMNS,
    TABLE_COLUMNS,
    RobustnessReport,
)


@dataclass(frozen=True)
class LeaderboardTable:
    """A report laid out as a benchmark's paper shows it.

    Args:
        title (str): The heading printed above the table.
        columns (Sequence[str]): The column headings.
        rows (Sequence[tuple[Any, ...]]): One tuple per row, as long as ``columns``
            (``None`` cells print as ``n/a``).
    """

    title: str
    columns: Sequence[str]
    rows: Sequence[tuple[Any, ...]]


def huang_2021_table(report: RobustnessReport) -> LeaderboardTable:
    """Huang et al. (2021)'s four metrics per perturbation, with micro and macro averages."""
    return LeaderboardTable(
        f"Robustness of {report.victim} on {report.dataset} (standard accuracy on {_judged(report)} originals: "
        f"{_percent(report.standard_accuracy)})",
        TABLE_COLUMNS,
        report.table_rows(),
    )


def robut_table(report: RobustnessReport) -> LeaderboardTable:
    """RobuT's table (Zhao et al. 2023, https://arxiv.org/abs/2306.14321): per perturbation type,
    its perturbed examples, the accuracy on their originals (pre-perturbation), on themselves
    (post-perturbation) and the robust accuracy (correct on both among those correct on the original)."""
    return LeaderboardTable(
        f"RobuT's table: {report.victim} on {report.dataset} (Zhao et al. 2023; robust acc. = correct perturbed "
        "examples among those whose original is correct)",
        ROBUT_TABLE_COLUMNS,
        report.robut_rows(),
    )


DEFAULT_LEADERBOARD = "huang-2021"
"""The layout of a released benchmark that names none of its own."""

LEADERBOARDS: Mapping[str, Callable[[RobustnessReport], LeaderboardTable]] = MappingProxyType(
    {
        DEFAULT_LEADERBOARD: huang_2021_table,
        "robut": robut_table,
    }
)
"""Layout name -> the function laying a report out."""


def leaderboard_table(name: str, report: RobustnessReport) -> LeaderboardTable:
    """``report`` in the layout ``name``.

    Raises:
        ConfigurationError: ``name`` is not a layout of :data:`LEADERBOARDS` (the message lists them).

    Example:
        >>> leaderboard_table("robut", RobustnessReport("v", "d", "s", None, 0, 0, 0, {}, False)).columns[-1]
        'robust acc.'
    """
    layout = LEADERBOARDS.get(name)
    if layout is None:
        raise ConfigurationError(
            f"Unknown leaderboard layout {name!r}{closest_match_hint(name, LEADERBOARDS)}; the layouts are "
            f"{', '.join(sorted(LEADERBOARDS))} (textattack_semparse.robustness.leaderboards.LEADERBOARDS)."
        )
    return layout(report)


def _judged(report: RobustnessReport) -> int:
    return report.original_examples - report.original_gold_errors - report.original_victim_errors


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"
