"""The reports of Yin et al. (2020) on grammatical-error attacks.

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/, report the
attack success rate and the share of modified tokens (their Table 3), how often each error
type occurs in successful attacks (Table 4) and the success rate as the number of allowed
errors grows (Figure 1). The counts need the errors each attack applied, which TextAttack's
CSV log does not keep: they come from ``attack_attrs["semparse_grammar_errors"]`` of the
in-process results, reduced to :class:`GrammarAttackRecord` s by :func:`record_from_result`.
Everything else here is pure; matplotlib is imported only to draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.metrics.accuracy import attack_success_rate, percent
from textattack_semparse.metrics.attack_metrics import FAILED, SUCCEEDED, metrics_from_rows
from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class GrammarAttackRecord:
    """What the analyses need from one attack result.

    Args:
        result_type (str): ``"Successful"``, ``"Failed"``, ``"Skipped"`` or ``"Maximized"``
            (TextAttack's result class name without ``AttackResult``).
        original_text (str): the question before the attack.
        perturbed_text (str): the question the attack ended with.
        error_types (tuple[str, ...]): type of each error in ``perturbed_text``.
        error_budget (int | None): errors the attack allowed for this question, if known.
        original_output (str): the victim's displayed output on the original question
            (``[gold error] ...``/``[victim error] ...`` for examples left out).
        num_queries (int): victim queries the attack made.
    """

    result_type: str
    original_text: str
    perturbed_text: str
    error_types: tuple[str, ...] = ()
    error_budget: int | None = None
    original_output: str = ""
    num_queries: int = 0


def record_from_result(result: Any, error_budget: int | None = None) -> GrammarAttackRecord:
    """Reduce a TextAttack ``AttackResult`` to a :class:`GrammarAttackRecord`."""
    from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

    perturbed = result.perturbed_result.attacked_text
    return GrammarAttackRecord(
        result_type=type(result).__name__.removesuffix("AttackResult"),
        original_text=result.original_result.attacked_text.text,
        perturbed_text=perturbed.text,
        error_types=tuple(edit.error_type for edit in perturbed.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ())),
        error_budget=error_budget,
        original_output=str(result.original_result.output),
        num_queries=result.num_queries,
    )


def error_type_counts(records: Iterable[GrammarAttackRecord]) -> dict[str, dict[str, float | int | None]]:
    """Table 4: per error type, in successful attacks, the errors and the attacks using it.

    Returns ``{type: {"errors": n, "errors_percent": share of all errors in successes,
    "successes": successful attacks with at least one error of the type}}`` for the eight
    types in the paper's order (then any other recorded type).

    Example:
        >>> records = [GrammarAttackRecord("Successful", "a", "b", ("Nn", "Prep", "Nn")),
        ...            GrammarAttackRecord("Failed", "c", "d", ("Prep",))]
        >>> counts = error_type_counts(records)
        >>> counts["Nn"], counts["Prep"]["errors"], counts["SVA"]["successes"]
        ({'errors': 2, 'errors_percent': 66.66666666666667, 'successes': 1}, 1, 0)
    """
    successes = [record for record in records if record.result_type == SUCCEEDED]
    errors = Counter(error for record in successes for error in record.error_types)
    attacks = Counter(error for record in successes for error in set(record.error_types))
    total = sum(errors.values())
    names = list(ERROR_TYPES) + sorted(set(errors) - set(ERROR_TYPES))
    return {
        name: {"errors": errors[name], "errors_percent": percent(errors[name], total), "successes": attacks[name]}
        for name in names
    }


def success_vs_budget(
    records: Iterable[GrammarAttackRecord], max_errors: int | None = None
) -> list[dict[str, float | int | None]]:
    """Figure 1: attack success rate when at most ``k`` errors are allowed, ``k = 1, 2, ...``.

    Point ``k`` counts the successful attacks that used at most ``k`` errors, over the
    attacked questions (succeeded or failed; skipped ones were wrong before the attack). ``k`` runs to ``max_errors``, by default the largest
    ``error_budget`` of the attacked questions (or the most errors a success used). For the
    greedy and beam searches, which add one error per step and which a smaller budget only
    stops earlier, point ``k`` is the success rate of a run with a budget of ``min(k, the
    question's budget)``: to extend the curve past the run's budget, run with a larger one.
    For the genetic and probabilistic attacks it is how many errors their successes used.

    Example:
        >>> records = [GrammarAttackRecord("Successful", "a", "b", ("Nn",), 2),
        ...            GrammarAttackRecord("Successful", "a", "b", ("Nn", "SVA"), 2),
        ...            GrammarAttackRecord("Failed", "a", "b", (), 2),
        ...            GrammarAttackRecord("Skipped", "a", "a", (), 2)]
        >>> [(point["max_errors"], point["succeeded"], round(point["attack_success_rate"], 1))
        ...  for point in success_vs_budget(records)]
        [(1, 1, 33.3), (2, 2, 66.7)]
    """
    attacked = [record for record in records if record.result_type in (SUCCEEDED, FAILED)]
    used = [len(record.error_types) for record in attacked if record.result_type == SUCCEEDED]
    if max_errors is None:
        budgets = [record.error_budget for record in attacked if record.error_budget is not None]
        max_errors = max(budgets + used, default=0)
    return [
        {
            "max_errors": k,
            "succeeded": sum(count <= k for count in used),
            "attack_success_rate": attack_success_rate(sum(count <= k for count in used), len(attacked)),
        }
        for k in range(1, max_errors + 1)
    ]


def grammar_attack_summary(records: Sequence[GrammarAttackRecord]) -> dict[str, Any]:
    """Tables 3 and 4 and Figure 1 of Yin et al. (2020) for one attack run.

    The counts and rates are those of ``textattack-semparse metrics``
    (:func:`~textattack_semparse.metrics.attack_metrics.metrics_from_rows`):
    ``attack_success_rate`` is over the attacked questions (``succeeded + failed``; skipped
    ones were wrong before the attack, or left out as gold or victim errors); ``modified_words_percent`` is the mean, over
    successful attacks, of the share of the original words replaced, deleted or with a word
    inserted beside them (word-level diff, as in ``textattack-semparse metrics``);
    ``errors_per_success`` the mean number of errors of a successful attack.

    Example:
        >>> summary = grammar_attack_summary([
        ...     GrammarAttackRecord("Successful", "what is the capital of texas",
        ...                         "what is the capitals of texas", ("Nn",), 1),
        ...     GrammarAttackRecord("Failed", "what states border texas", "what states border texas", (), 1)])
        >>> summary["attack_success_rate"], round(summary["modified_words_percent"], 2), summary["errors_per_success"]
        (50.0, 16.67, 1.0)
    """
    metrics = metrics_from_rows(
        {
            "original_text": record.original_text,
            "perturbed_text": record.perturbed_text,
            "original_output": record.original_output,
            "num_queries": record.num_queries,
            "result_type": record.result_type,
        }
        for record in records
    )
    successes = [record for record in records if record.result_type == SUCCEEDED]
    return {
        **{
            name: getattr(metrics, name)
            for name in (
                "examples",
                "succeeded",
                "failed",
                "skipped",
                "gold_errors",
                "victim_errors",
                "standard_accuracy",
                "attack_success_rate",
                "robust_accuracy",
            )
        },
        "modified_words_percent": metrics.words_perturbed_percent,
        "errors_per_success": (
            sum(len(record.error_types) for record in successes) / len(successes) if successes else None
        ),
        "error_types": error_type_counts(records),
        "success_vs_budget": success_vs_budget(records),
    }


def success_vs_budget_figure(
    curves: Mapping[str, Sequence[Mapping[str, Any]]], *, title: str | None = None, robust_accuracy: bool = False
) -> Figure:
    """One or more :func:`success_vs_budget` curves (label -> curve) against the errors allowed:
    the attack success rate (Yin et al. 2020, Figure 1), or with ``robust_accuracy`` its
    complement, the robust accuracy when at most k errors are allowed."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5, 3.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    ticks: set[int] = set()
    for label, curve in curves.items():
        points = [(point["max_errors"], point["attack_success_rate"] or 0.0) for point in curve]
        ticks.update(k for k, _ in points)
        rates = [100.0 - rate if robust_accuracy else rate for _, rate in points]
        axes.plot([k for k, _ in points], rates, marker="o", label=label)
    axes.set_xlabel("errors allowed per question")
    axes.set_ylabel("robust accuracy (%)" if robust_accuracy else "attack success rate (%)")
    axes.set_ylim(0, 100)
    axes.set_xticks(sorted(ticks))
    axes.grid(alpha=0.3)
    axes.legend()
    if title:
        axes.set_title(title)
    figure.tight_layout()
    return figure


def plot_success_vs_budget(
    curves: Mapping[str, Sequence[Mapping[str, Any]]], path: str | Path, *, title: str | None = None
) -> Path:
    """Draw :func:`success_vs_budget_figure` as a PNG at ``path``."""
    path = Path(path)
    success_vs_budget_figure(curves, title=title).savefig(path, dpi=150)
    return path
