"""The adversarial examples of a report: an original question, its rewrite, and how the victim fared on each.

An example's outcome compares the victim on the original and on the rewrite, as the robustness
metrics of Huang et al. (2021, https://aclanthology.org/2021.eacl-main.292/) do: *broken* (right
on the original, wrong on the rewrite: a successful attack, what robust accuracy counts against),
*fixed* (the reverse), *robust* (right on both), *wrong* (wrong on both), *left out* (a gold or
victim error; in no rate). Original to textattack-semparse.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, NamedTuple

from textattack_semparse.metrics.attack_metrics import FAILED, SKIPPED, SUCCEEDED, plain_text
from textattack_semparse.scoring.outcome import Outcome, left_out_outcome
from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.tables.table import Table

BROKEN, WRONG, FIXED, ROBUST, LEFT_OUT = "broken", "wrong", "fixed", "robust", "left out"
OUTCOMES = (BROKEN, WRONG, FIXED, ROBUST, LEFT_OUT)
"""Every outcome, worst first: the order examples are listed in."""
OUTCOME_MEANINGS = {
    BROKEN: "right on the original, wrong on the rewrite (a successful attack)",
    WRONG: "wrong on both",
    FIXED: "wrong on the original, right on the rewrite",
    ROBUST: "right on both",
    LEFT_OUT: "a gold or victim error: in no rate",
}


@dataclass(frozen=True)
class Segment:
    """A run of words of one side of an edit, ``changed`` when the other side lacks it."""

    text: str
    changed: bool


@dataclass(frozen=True)
class ReportExample:
    """One original question and its rewrite, with the gold output and the victim's predictions.

    Args:
        source (str): The id of the report source the example comes from.
        perturbation (str): The perturbation (or attack recipe) that made the rewrite.
        outcome (str): One of :data:`OUTCOMES`.
        original (str): The original question.
        perturbed (str): The rewrite (equal to ``original`` when only a table changed, or an
            attack found nothing).
        gold (str): The gold SQL, logical form or answer.
        original_prediction (str | None): The victim's output on the original.
        perturbed_prediction (str | None): The victim's output on the rewrite.
        similarity (float | None, default None): Sentence-BERT similarity of the rewrite.
        gold_rows (str | None, default None): The gold query's result, when short.
        perturbed_rows (str | None, default None): The rewrite's predicted query's result, when short.
        table_edit (str | None, default None): How a Table QA example's table was changed
            (:func:`describe_table_edit`), when it was.
    """

    source: str
    perturbation: str
    outcome: str
    original: str
    perturbed: str
    gold: str
    original_prediction: str | None
    perturbed_prediction: str | None
    similarity: float | None = None
    gold_rows: str | None = None
    perturbed_rows: str | None = None
    table_edit: str | None = None

    @cached_property
    def _word_diff(self) -> WordDiff:
        """The word diff, computed once for sorting (:attr:`words_changed`) and display (:attr:`edit`)."""
        return word_diff(self.original, self.perturbed)

    @property
    def edit(self) -> tuple[list[Segment], list[Segment]]:
        """The original's and the rewrite's words, changed words marked (:func:`word_edit`)."""
        return _segments(self._word_diff)

    @property
    def words_changed(self) -> int:
        """Words deleted, inserted or replaced (the larger side of each change)."""
        return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in self._word_diff.opcodes if tag != "equal")


class WordDiff(NamedTuple):
    """Two texts' words and difflib's opcodes turning the first into the second."""

    before: list[str]
    after: list[str]
    opcodes: list[tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]]


def word_diff(original: str, perturbed: str) -> WordDiff:
    """The word-level diff of ``original`` and ``perturbed`` (whitespace-separated words)."""
    before, after = original.split(), perturbed.split()
    return WordDiff(before, after, difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes())


def word_edit(original: str, perturbed: str) -> tuple[list[Segment], list[Segment]]:
    """Both sides of an edit as word runs, the runs the other side lacks marked ``changed``.

    Example:
        >>> before, after = word_edit("what is the capital of texas", "what is capital of texas")
        >>> [(segment.text, segment.changed) for segment in before]
        [('what is', False), ('the', True), ('capital of texas', False)]
        >>> [(segment.text, segment.changed) for segment in after]
        [('what is', False), ('capital of texas', False)]
    """
    return _segments(word_diff(original, perturbed))


def _segments(diff: WordDiff) -> tuple[list[Segment], list[Segment]]:
    before: list[Segment] = []
    after: list[Segment] = []
    for tag, i1, i2, j1, j2 in diff.opcodes:
        if i2 > i1:
            before.append(Segment(" ".join(diff.before[i1:i2]), tag != "equal"))
        if j2 > j1:
            after.append(Segment(" ".join(diff.after[j1:j2]), tag != "equal"))
    return before, after


def paired_outcome(original: str, perturbed: str) -> str:
    """The example's outcome from the :class:`~textattack_semparse.scoring.outcome.Outcome`
    values of the victim on the original and on the rewrite.

    Example:
        >>> paired_outcome("correct", "wrong"), paired_outcome("wrong", "correct"), paired_outcome("gold error", "wrong")
        ('broken', 'fixed', 'left out')
    """
    before, after = Outcome(original), Outcome(perturbed)
    if before.left_out or after.left_out:
        return LEFT_OUT
    if before is Outcome.CORRECT:
        return ROBUST if after is Outcome.CORRECT else BROKEN
    return FIXED if after is Outcome.CORRECT else WRONG


def attack_outcome(result_type: str, original_output: str) -> str:
    """The outcome of a row of TextAttack's CSV log: a successful attack broke the victim, a
    failed one left it right; a skipped example was wrong already or could not be judged.

    Example:
        >>> attack_outcome("Successful", "SELECT 1"), attack_outcome("Skipped", "[gold error] no such table")
        ('broken', 'left out')
    """
    if result_type == SUCCEEDED:
        return BROKEN
    if result_type == FAILED:
        return ROBUST
    if result_type == SKIPPED:
        return WRONG if left_out_outcome(original_output) is None else LEFT_OUT
    return WRONG  # Maximized: an untargeted search has no success to reach


def example_from_log_row(row: dict[str, str], *, source: str, perturbation: str) -> ReportExample:
    """A :class:`ReportExample` from a row of TextAttack's CSV log (colour markup removed)."""
    return ReportExample(
        source=source,
        perturbation=perturbation,
        outcome=attack_outcome(row["result_type"], row["original_output"]),
        original=plain_text(row["original_text"]),
        perturbed=plain_text(row["perturbed_text"]),
        gold=row.get("ground_truth_output", ""),
        original_prediction=plain_text(row["original_output"]),
        perturbed_prediction=plain_text(row["perturbed_output"]) if "perturbed_output" in row else None,
    )


def worst_first(examples: Iterable[ReportExample]) -> list[ReportExample]:
    """``examples`` in :data:`OUTCOMES` order; among equals, the rewrites closest to the
    original first (most similar, then fewest words changed): a small edit that breaks a
    parser is the most damning."""
    rank = {outcome: position for position, outcome in enumerate(OUTCOMES)}
    return sorted(
        examples,
        key=lambda example: (
            rank[example.outcome],
            -(example.similarity if example.similarity is not None else 0.0),
            example.words_changed,
        ),
    )


def short_result(result: ExecutionResult, *, max_rows: int = 5, max_characters: int = 200) -> str | None:
    """A query's result as one line (``value, value; value, value``), the failure when it failed,
    or ``None`` when it is too long to show beside an example."""
    if not result.ok:
        return f"error: {result.error}"
    if result.truncated or len(result.rows) > max_rows:
        return None
    text = "; ".join(", ".join(str(value) for value in row) for row in result.rows) or "(no rows)"
    return text if len(text) <= max_characters else None


def describe_table_edit(original: Table, perturbed: Table, *, max_headers: int = 4) -> str | None:
    """What a RobuT table perturbation (Zhao et al. 2023) changed, in a line: renamed, added and
    removed columns, or the same columns and cells in another order; ``None`` when nothing changed.

    Example:
        >>> before = Table(["Year", "City"], [["2001", "Oslo"], ["2004", "Rome"]])
        >>> describe_table_edit(before, Table(["Yr", "City"], [["2001", "Oslo"], ["2004", "Rome"]]))
        'columns renamed: Year → Yr'
        >>> describe_table_edit(before, Table(["Year", "City"], [["2004", "Rome"], ["2001", "Oslo"]]))
        'rows reordered'
    """
    if original == perturbed:
        return None
    if original.num_columns == perturbed.num_columns and original.rows == perturbed.rows and original.header != perturbed.header:
        renamed = [f"{a} → {b}" for a, b in zip(original.header, perturbed.header) if a != b]
        return "columns renamed: " + ", ".join(renamed[:max_headers]) + (" …" if len(renamed) > max_headers else "")
    if original.header == perturbed.header and sorted(original.rows) == sorted(perturbed.rows):
        return "rows reordered"
    before, after = list(original.header), list(perturbed.header)
    if sorted(before) == sorted(after) and before != after:
        return "columns reordered"
    added = [name for name in after if name not in before]
    removed = [name for name in before if name not in after]
    parts = [f"columns added: {', '.join(added)}"] * bool(added) + [f"columns removed: {', '.join(removed)}"] * bool(removed)
    return "; ".join(parts) or "cells changed"
