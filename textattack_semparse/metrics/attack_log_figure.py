"""A row of TextAttack's attack summary computed by the plugin's attack-log metrics."""

from __future__ import annotations

from typing import Any

from textattack.attack_results import AttackResult
from textattack.metrics import Metric

from textattack_semparse.metrics.attack_metrics import metrics_from_rows


class AttackLogFigure(Metric):
    """One field of :class:`~textattack_semparse.metrics.attack_metrics.AttackMetrics`, computed
    from TextAttack's results exactly as ``textattack-semparse metrics`` computes it from the
    CSV log, so the live summary and the metrics of the log agree.

    The plugin adds three to every attack summary (``_textattack_shim``): gold errors and
    victim errors (examples left out) and the standard accuracy without them. Original to
    textattack-semparse.

    Args:
        field (str): An ``AttackMetrics`` field (``"gold_errors"``, ``"standard_accuracy"``).
    """

    def __init__(self, field: str) -> None:
        self.field = field

    def calculate(self, results: list[AttackResult]) -> Any:
        rows = [
            {
                "original_text": result.original_text(),
                "perturbed_text": result.perturbed_text(),
                "original_output": result.original_result.output,
                "num_queries": result.num_queries,
                "result_type": type(result).__name__.replace("AttackResult", ""),
            }
            for result in results
        ]
        value = getattr(metrics_from_rows(rows), self.field)
        if isinstance(value, float):
            return f"{value:.2f}%"
        # An undefined rate (nothing judged) stays None, JSON null: TextAttack's summary JSON
        # logger converts every string row to a float and raises on any other text.
        return value
