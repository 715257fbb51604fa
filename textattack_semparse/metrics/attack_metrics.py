"""Robustness metrics of an attack run, named as the semantic-parsing papers name them.

TextAttack's summary reports "original accuracy" and "accuracy under attack". Huang et al.
(2021, https://aclanthology.org/2021.eacl-main.292/) report *standard accuracy* (on the
original questions), *robust accuracy* (still correct after perturbation, among the examples
correct before) and the *success rate of black-box attack* (:mod:`.accuracy` defines them).
Examples skipped as gold errors or victim errors (shown as ``[gold error] ...`` /
``[victim error] ...`` in the log's ``original_output``) are counted apart and left out of
every rate, as ``textattack-semparse evaluate`` leaves them out. No TextAttack import here:
the metrics are computed from the attack's CSV log, its summary JSON, or (for TextAttack's
summary table) from rows built from results.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from textattack_semparse.errors import DatasetError
from textattack_semparse.metrics.accuracy import attack_success_rate, percent, robust_accuracy, standard_accuracy
from textattack_semparse.scoring.outcome import Outcome, left_out_outcome

SUCCEEDED, FAILED, SKIPPED, MAXIMIZED = "Successful", "Failed", "Skipped", "Maximized"
LOG_COLUMNS = ("original_text", "perturbed_text", "original_output", "num_queries", "result_type")
"""Columns of TextAttack's CSV log (``--log-to-csv``) the metrics read."""
SUMMARY_ROWS = {
    Outcome.GOLD_ERROR: "Gold errors (left out):",
    Outcome.VICTIM_ERROR: "Victim errors (left out):",
}
"""Rows the plugin adds to TextAttack's "Attack Results" summary."""
STANDARD_ACCURACY_ROW = "Standard accuracy (errors left out):"
_MARKUP = re.compile(r"\[\[|\]\]|<font[^>]*>|</font>|<span[^>]*>|</span>|\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class AttackMetrics:
    """Counts and rates of one attack run (rates in percent, ``None`` when undefined).

    ``gold_errors`` and ``victim_errors`` are skipped examples that could not be judged; they
    are in no denominator.
    """

    examples: int
    succeeded: int
    failed: int
    skipped: int
    gold_errors: int
    victim_errors: int
    standard_accuracy: float | None
    robust_accuracy: float | None
    accuracy_under_attack: float | None
    attack_success_rate: float | None
    queries_per_example: float | None
    words_perturbed_percent: float | None

    def to_dict(self) -> dict[str, float | int | None]:
        return asdict(self)


def plain_text(text: str) -> str:
    """``text`` without the colour markup TextAttack's logs put around changed words
    (``[[...]]``, HTML ``<font>``/``<span>``, ANSI escapes).

    Example:
        >>> plain_text("what is [[capital]] of texas")
        'what is capital of texas'
    """
    return _MARKUP.sub("", text)


def _words(text: str) -> list[str]:
    return plain_text(text).split()


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
    return percent(changed, len(original_words)) or 0.0


def _metrics(
    *,
    succeeded: int,
    failed: int,
    skipped: int,
    left_out: Mapping[Outcome, int],
    queries_per_example: float | None,
    words_perturbed: float | None,
) -> AttackMetrics:
    """The rates of a run from its counts: the one place attack-log figures are derived."""
    examples = succeeded + failed + skipped
    judged = examples - sum(left_out.values())
    return AttackMetrics(
        examples=examples,
        succeeded=succeeded,
        failed=failed,
        skipped=skipped,
        gold_errors=left_out.get(Outcome.GOLD_ERROR, 0),
        victim_errors=left_out.get(Outcome.VICTIM_ERROR, 0),
        standard_accuracy=standard_accuracy(succeeded + failed, judged),
        robust_accuracy=robust_accuracy(failed, succeeded + failed),
        accuracy_under_attack=percent(failed, judged),
        attack_success_rate=attack_success_rate(succeeded, succeeded + failed),
        queries_per_example=queries_per_example,
        words_perturbed_percent=words_perturbed,
    )


def metrics_from_rows(rows: Iterable[Mapping[str, object]]) -> AttackMetrics:
    """Metrics from the rows of TextAttack's CSV log (``--log-to-csv``), or rows of the same
    columns built from results.

    Raises:
        DatasetError: A row lacks one of :data:`LOG_COLUMNS`.
    """
    rows = list(rows)
    for row in rows[:1]:
        missing = [column for column in LOG_COLUMNS if column not in row]
        if missing:
            raise DatasetError(
                f"Not a TextAttack CSV log: no {', '.join(map(repr, missing))} column (columns: "
                f"{', '.join(map(str, row)) or 'none'}). Write the log with `textattack attack ... --log-to-csv FILE`."
            )
    kinds = [row["result_type"] for row in rows]
    left_out = {outcome: 0 for outcome in SUMMARY_ROWS}
    for row in rows:
        outcome = left_out_outcome(str(row["original_output"])) if row["result_type"] == SKIPPED else None
        if outcome is not None:
            left_out[outcome] += 1
    attacked = [row for row in rows if row["result_type"] != SKIPPED]
    successes = [row for row in rows if row["result_type"] == SUCCEEDED]
    return _metrics(
        succeeded=kinds.count(SUCCEEDED),
        failed=kinds.count(FAILED),
        skipped=kinds.count(SKIPPED),
        left_out=left_out,
        queries_per_example=(
            sum(float(str(row["num_queries"])) for row in attacked) / len(attacked) if attacked else None
        ),
        words_perturbed=(
            sum(words_perturbed_percent(str(row["original_text"]), str(row["perturbed_text"])) for row in successes)
            / len(successes)
            if successes
            else None
        ),
    )


def _summary_number(results: Mapping[str, object], key: str) -> float | None:
    value = results.get(key)
    if value is None:
        return None
    try:
        return float(str(value).rstrip("%"))
    except ValueError:
        return None


def metrics_from_summary(summary: Mapping[str, object]) -> AttackMetrics:
    """Metrics from TextAttack's summary JSON (``--log-summary-to-json``).

    Raises:
        DatasetError: No "Attack Results" object with TextAttack's counts.
    """
    results = summary.get("Attack Results")
    if not isinstance(results, dict) or "Number of successful attacks:" not in results:
        raise DatasetError(
            "Not a TextAttack summary JSON: no 'Attack Results' object with 'Number of successful attacks:'. "
            "Write it with `textattack attack ... --log-summary-to-json FILE`."
        )
    counts = [
        int(_summary_number(results, f"Number of {kind} attacks:") or 0) for kind in ("successful", "failed", "skipped")
    ]
    return _metrics(
        succeeded=counts[0],
        failed=counts[1],
        skipped=counts[2],
        left_out={outcome: int(_summary_number(results, row) or 0) for outcome, row in SUMMARY_ROWS.items()},
        queries_per_example=_summary_number(results, "Avg num queries:"),
        words_perturbed=_summary_number(results, "Average perturbed word %:"),
    )


def _row_problem(header: list[str], record: list[str]) -> str | None:
    """Why a CSV log record is not a whole result row (``None`` when it is one)."""
    if len(record) != len(header):
        return f"{len(record)} fields where the header has {len(header)}"
    row = dict(zip(header, record))
    if "result_type" in row and row["result_type"] not in (SUCCEEDED, FAILED, SKIPPED, MAXIMIZED):
        return f"result_type {row['result_type']!r} is none of {SUCCEEDED}, {FAILED}, {SKIPPED}, {MAXIMIZED}"
    if "num_queries" in row:
        try:
            float(row["num_queries"])
        except ValueError:
            return f"num_queries {row['num_queries']!r} is not a number"
    return None


def _log_rows(text: str, path: Path) -> list[dict[str, str]]:
    """The result rows of a CSV log; a cut-off last row (a run killed while writing) is skipped
    with a warning naming its line, a malformed row elsewhere refused with its line.

    Raises:
        DatasetError: A row before the last is malformed.
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, [])
    records: list[tuple[int, list[str]]] = []
    line = reader.line_num + 1
    for record in reader:
        if record:
            records.append((line, record))
        line = reader.line_num + 1
    rows = []
    for position, (line, record) in enumerate(records):
        problem = _row_problem(header, record)
        if problem is None:
            rows.append(dict(zip(header, record)))
        elif position == len(records) - 1:
            warnings.warn(
                f"{path}: line {line} is an incomplete result row ({problem}), as when a run is killed while "
                "writing its log; it is left out of the metrics.",
                stacklevel=3,
            )
        else:
            raise DatasetError(
                f"{path}: line {line} is not a result row ({problem}). The log is corrupt; write it again with "
                "`textattack attack ... --log-to-csv FILE`."
            )
    return rows


_EXPECTED_LOG = (
    "expected TextAttack's CSV log (`textattack attack ... --log-to-csv FILE`) or summary JSON "
    "(`--log-summary-to-json FILE`)"
)


def read_attack_log_content(path: str | Path) -> dict[str, object] | list[dict[str, str]]:
    """The content of a TextAttack summary JSON (a dict) or CSV log (its result rows), chosen by
    the file's content.

    A CSV log whose last row was cut off (a run killed while writing) gives the whole rows, with
    a warning naming the line left out.

    Raises:
        DatasetError: The file is missing, empty, not text, or neither kind of log; a CSV row
            other than the last is malformed (the message names its line).
    """
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"Attack log {str(path)!r} does not exist.")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DatasetError(f"{str(path)!r} is not a text file; {_EXPECTED_LOG}.") from None
    if not text.strip():
        raise DatasetError(f"{str(path)!r} is empty; {_EXPECTED_LOG}.")
    if text.lstrip().startswith("{"):
        try:
            summary = json.loads(text)
        except json.JSONDecodeError as error:
            raise DatasetError(f"{str(path)!r} is not valid JSON ({error.msg}, line {error.lineno}); {_EXPECTED_LOG}.") from None
        if not isinstance(summary, dict):
            raise DatasetError(f"{str(path)!r} is JSON but not an object; {_EXPECTED_LOG}.")
        return summary
    try:
        rows = _log_rows(text, path)
    except csv.Error as error:
        raise DatasetError(f"{str(path)!r} is not a CSV file ({error}); {_EXPECTED_LOG}.") from None
    if not rows:
        raise DatasetError(f"{str(path)!r} has a header but no attack results; {_EXPECTED_LOG}.")
    return rows


def read_attack_log(path: str | Path) -> AttackMetrics:
    """Metrics from a TextAttack CSV log or summary JSON (:func:`read_attack_log_content`).

    Raises:
        DatasetError: As :func:`read_attack_log_content`; or the rows or summary lack TextAttack's fields.
    """
    content = read_attack_log_content(path)
    return metrics_from_summary(content) if isinstance(content, dict) else metrics_from_rows(content)
