"""The tables released robustness benchmarks report their results in, by name.

A released benchmark names its layout (``Benchmark.leaderboard``); ``robustness evaluate
--dataset NAME`` prints the report in it. ``huang-2021`` is the per-perturbation table every
evaluation prints, with Huang et al. (2021)'s four metrics (standard, perturbation and robust
accuracy and the success rate of black-box attack; their Tables 2 and 3 give the first three per
operation, the black-box rate is only plotted, Fig. 2); ``robut`` is RobuT's (Zhao et al. 2023,
pre-perturbation, post-perturbation and robust accuracy per perturbation type); ``drspider`` is Dr.Spider's
(Chang et al. 2023, pre- and post-perturbation execution accuracy per set, per category and over
all sets). A layout is a function from a
:class:`~textattack_semparse.robustness.robustness_report.RobustnessReport` to the
:class:`LeaderboardTable` to print; add one to :data:`LEADERBOARDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from textattack_semparse.datasets.drspider import DRSPIDER_CATEGORIES, drspider_category
from textattack_semparse.errors import ConfigurationError, closest_match_hint
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics, macro_average
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


DRSPIDER_TABLE_COLUMNS = ("set", "questions", "pre", "post", "pre-post")
"""Headings of :func:`drspider_table`: the perturbed questions scored, execution accuracy (percent)
on their Spider dev originals and on themselves, and both as the leaderboard prints them."""

_DRSPIDER_RATES = ("pre_attack_accuracy", "perturbation_accuracy")


def drspider_table(report: RobustnessReport) -> LeaderboardTable:
    """Dr.Spider's leaderboard (Chang et al. 2023, https://arxiv.org/abs/2301.08881; the table of
    https://github.com/awslabs/diagnostic-robustness-text-to-sql): per set, execution accuracy on
    the pre-perturbation questions (each perturbed question's Spider dev original, counted once per
    perturbed question, as the release's parallel pre file counts it) and on the post-perturbation
    questions; then per category (DB, NLQ, SQL) the macro average over its sets, and the average over
    all sets (the leaderboard's "average of all test sets" is the mean over the 17 sets).

    Deviation: questions whose gold fails and those the victim failed on are left out (counted in
    the report), where Dr.Spider's evaluator counts a failed prediction as wrong.
    """
    rows: list[tuple[Any, ...]] = [_drspider_row(name, metrics) for name, metrics in report.perturbations.items()]
    by_category: dict[str, list[RobustnessMetrics]] = {}
    for name, metrics in report.perturbations.items():
        by_category.setdefault(drspider_category(name), []).append(metrics)
    order = [*DRSPIDER_CATEGORIES, *sorted(set(by_category) - set(DRSPIDER_CATEGORIES))]
    for category in order:
        if category in by_category:
            rows.append(_drspider_average(f"{category} (average of {len(by_category[category])} sets)", by_category[category]))
    rows.append(_drspider_average(f"all (average of {len(report.perturbations)} sets)", list(report.perturbations.values())))
    return LeaderboardTable(
        f"Dr.Spider: {report.victim} on {report.dataset} (Chang et al. 2023): execution accuracy on the Spider dev "
        "originals (pre) and the perturbed questions (post); averages over sets",
        DRSPIDER_TABLE_COLUMNS,
        rows,
    )


def _drspider_row(name: str, metrics: RobustnessMetrics) -> tuple[Any, ...]:
    return (name, metrics.utterances, metrics.pre_attack_accuracy, metrics.perturbation_accuracy,
            _pre_post(metrics.pre_attack_accuracy, metrics.perturbation_accuracy))


def _drspider_average(label: str, rows: Sequence[RobustnessMetrics]) -> tuple[Any, ...]:
    averages = macro_average(rows, _DRSPIDER_RATES)
    pre, post = averages["pre_attack_accuracy"], averages["perturbation_accuracy"]
    return (label, sum(row.utterances for row in rows), pre, post, _pre_post(pre, post))


def _pre_post(pre: float | None, post: float | None) -> str:
    """``"76.6-65.9"``: the leaderboard's cell, one decimal."""
    return f"{'n/a' if pre is None else f'{pre:.1f}'}-{'n/a' if post is None else f'{post:.1f}'}"


DEFAULT_LEADERBOARD = "huang-2021"
"""The layout of a released benchmark that names none of its own."""

LEADERBOARDS: Mapping[str, Callable[[RobustnessReport], LeaderboardTable]] = MappingProxyType(
    {
        DEFAULT_LEADERBOARD: huang_2021_table,
        "robut": robut_table,
        "drspider": drspider_table,
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
