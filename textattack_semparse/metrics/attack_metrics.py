"""Robustness metrics of an attack run, named as the semantic-parsing papers name them.

TextAttack's summary reports "original accuracy" and "accuracy under attack". Huang et al.
(2021, https://aclanthology.org/2021.eacl-main.292/) report *standard accuracy* (on the
original questions), *robust accuracy* (still correct after perturbation, among the examples
correct before) and the *success rate of black-box attack*. No TextAttack import here: the
metrics are computed from the attack's CSV log or its summary JSON.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from textattack_semparse.errors import DatasetError

SUCCEEDED, FAILED, SKIPPED, MAXIMIZED = "Successful", "Failed", "Skipped", "Maximized"
_MARKUP = re.compile(r"\[\[|\]\]|<font[^>]*>|</font>|<span[^>]*>|</span>|\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class AttackMetrics:
    """Counts and rates of one attack run (rates in percent, ``None`` when undefined)."""

    examples: int
    succeeded: int
    failed: int
    skipped: int
    standard_accuracy: float | None
    robust_accuracy: float | None
    accuracy_under_attack: float | None
    attack_success_rate: float | None
    queries_per_example: float | None
    words_perturbed_percent: float | None

    def to_dict(self) -> dict[str, float | int | None]:
        return asdict(self)


def _percent(part: float, whole: float) -> float | None:
    return 100.0 * part / whole if whole else None


def _words(text: str) -> list[str]:
    return _MARKUP.sub("", text).split()


def words_perturbed_percent(original: str, perturbed: str) -> float:
    """Share of the original's words replaced, deleted or with an insertion beside them.

    Example:
        >>> round(words_perturbed_percent("what is the capital of texas", "what is capital of texas"), 2)
        16.67
    """
    original_words, perturbed_words = _words(original), _words(perturbed)
    matcher = difflib.SequenceMatcher(a=original_words, b=perturbed_words, autojunk=False)
    changed = sum(
        max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    )
    return _percent(changed, len(original_words)) or 0.0


def metrics_from_rows(rows: Iterable[dict[str, str]]) -> AttackMetrics:
    """Metrics from the rows of TextAttack's CSV log (``--log-to-csv``)."""
    rows = list(rows)
    if rows and "result_type" not in rows[0]:
        raise DatasetError(
            f"Not a TextAttack CSV log: no 'result_type' column (columns: {', '.join(rows[0])}). "
            "Write the log with `textattack attack ... --log-to-csv FILE`."
        )
    kinds = [row["result_type"] for row in rows]
    succeeded, failed, skipped = (kinds.count(kind) for kind in (SUCCEEDED, FAILED, SKIPPED))
    attacked = [row for row in rows if row["result_type"] != SKIPPED]
    successes = [row for row in rows if row["result_type"] == SUCCEEDED]
    return AttackMetrics(
        examples=len(rows),
        succeeded=succeeded,
        failed=failed,
        skipped=skipped,
        standard_accuracy=_percent(succeeded + failed, len(rows)),
        robust_accuracy=_percent(failed, succeeded + failed),
        accuracy_under_attack=_percent(failed, len(rows)),
        attack_success_rate=_percent(succeeded, succeeded + failed),
        queries_per_example=(
            sum(float(row["num_queries"]) for row in attacked) / len(attacked) if attacked else None
        ),
        words_perturbed_percent=(
            sum(words_perturbed_percent(row["original_text"], row["perturbed_text"]) for row in successes)
            / len(successes)
            if successes
            else None
        ),
    )


def _summary_number(results: dict[str, object], key: str) -> float | None:
    value = results.get(key)
    if value is None:
        return None
    return float(str(value).rstrip("%"))


def metrics_from_summary(summary: dict[str, object]) -> AttackMetrics:
    """Metrics from TextAttack's summary JSON (``--log-summary-to-json``)."""
    results = summary.get("Attack Results")
    if not isinstance(results, dict):
        raise DatasetError(
            "Not a TextAttack summary JSON: no 'Attack Results' object. "
            "Write it with `textattack attack ... --log-summary-to-json FILE`."
        )
    succeeded = int(_summary_number(results, "Number of successful attacks:") or 0)
    failed = int(_summary_number(results, "Number of failed attacks:") or 0)
    skipped = int(_summary_number(results, "Number of skipped attacks:") or 0)
    examples = succeeded + failed + skipped
    return AttackMetrics(
        examples=examples,
        succeeded=succeeded,
        failed=failed,
        skipped=skipped,
        standard_accuracy=_percent(succeeded + failed, examples),
        robust_accuracy=_percent(failed, succeeded + failed),
        accuracy_under_attack=_percent(failed, examples),
        attack_success_rate=_percent(succeeded, succeeded + failed),
        queries_per_example=_summary_number(results, "Avg num queries:"),
        words_perturbed_percent=_summary_number(results, "Average perturbed word %:"),
    )


def read_attack_log(path: str | Path) -> AttackMetrics:
    """Metrics from a TextAttack CSV log or summary JSON, chosen by the file's content."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"Attack log {str(path)!r} does not exist.")
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("{"):
        return metrics_from_summary(json.loads(text))
    return metrics_from_rows(csv.DictReader(io.StringIO(text)))
