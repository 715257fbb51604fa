"""Few-shot Table QA prompts: each demonstration's table, question and answer, then the test
table and question; the completion read back as answer values.

The setting is RobuT's few-shot prompting of LLMs on WikiTableQuestions (Zhao et al. 2023, "RobuT:
A Systematic Study of Table QA Robustness Against Human-Annotated Adversarial Perturbations",
ACL 2023, https://arxiv.org/abs/2306.14321, §4.1; Pasupat and Liang 2015,
https://arxiv.org/abs/1508.00305): the table is linearised row by row, cells separated by
``" | "``, and the answer is written the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textattack_semparse.arguments import check_count
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.victims.llm.prompts import format_value, one_line

if TYPE_CHECKING:
    from textattack_semparse.datasets.example import SemparseExample
    from textattack_semparse.tables.table import Table

INSTRUCTION = 'Answer each question from the table above it. Separate several answers with " | ".'
CELL_SEPARATOR = " | "
ANSWER_PREFIX = "Answer:"


class TablePrompt:
    """k-shot Table QA prompts: instruction, demonstrations, then the test table and question.

    A table is shown as its header line and its rows, one line each, cells joined by ``" | "``,
    every cell put on one line and cut to ``max_value_chars``; demonstrations show their first
    ``demonstration_rows`` rows (their answer may lie further down: the format is what they
    teach), the test table its first ``max_rows``. Each block ends with ``Answer:``; a
    demonstration's answer follows it, values joined by ``" | "``. :meth:`answer` reads the
    first line of a completion back into values.

    Original to textattack-semparse (RobuT prompts its LLMs few-shot on linearised tables; its
    exact prompt text is not reproduced).

    Args:
        demonstration_rows (int, default 10): Rows shown of each demonstration's table.
        max_rows (int, default 100): Rows shown of the test table.
        max_value_chars (int, default 60): Longest cell shown, in characters.

    Example:
        >>> from textattack_semparse.tables.table import Table
        >>> prompt = TablePrompt()
        >>> text = prompt("who won in 2004?", Table(["Year", "Winner"], [["2004", "Oslo"]]))
        >>> text.endswith("Year | Winner\\n2004 | Oslo\\nQuestion: who won in 2004?\\nAnswer:")
        True
        >>> prompt.answer(" Oslo | Rome\\nQuestion: ...")
        ['Oslo', 'Rome']
    """

    def __init__(self, *, demonstration_rows: int = 10, max_rows: int = 100, max_value_chars: int = 60) -> None:
        check_count("demonstration_rows", demonstration_rows, minimum=0)
        check_count("max_rows", max_rows, minimum=0)
        check_count("max_value_chars", max_value_chars, minimum=4)
        self.demonstration_rows = demonstration_rows
        self.max_rows = max_rows
        self.max_value_chars = max_value_chars

    @property
    def prefix(self) -> str:
        """The text the prompt ends with, before the answer."""
        return ANSWER_PREFIX

    def __call__(self, question: str, table: Table, demonstrations: Sequence[SemparseExample] = ()) -> str:
        """The prompt for ``question`` about ``table`` after ``demonstrations`` (examples with a
        ``table``; their ``gold`` is the answer in WTQ's targetValue format).

        Raises:
            ValueError: A demonstration has no table.
        """
        blocks = [INSTRUCTION]
        for example in demonstrations:
            if example.table is None:
                raise ValueError(
                    f"Demonstration {example.question!r} has no table; Table QA prompts draw demonstrations from a "
                    "Table QA benchmark's training split (e.g. wtq)."
                )
            answer = CELL_SEPARATOR.join(one_line(value) for value in parse_answer(example.gold))
            blocks.append(self._block(example.question, example.table, self.demonstration_rows) + " " + answer)
        blocks.append(self._block(question, table, self.max_rows))
        return "\n\n".join(blocks)

    def answer(self, completion: str) -> list[str]:
        """The values of a completion: its first non-blank line split at ``"|"``, blanks dropped."""
        line = next((line for line in completion.splitlines() if line.strip()), "")
        return [value.strip() for value in line.split("|") if value.strip()]

    def _block(self, question: str, table: Table, rows: int) -> str:
        lines = [self._line(table.header), *(self._line(row) for row in table.rows[:rows])]
        return "\n".join(lines) + f"\nQuestion: {one_line(question)}\n{ANSWER_PREFIX}"

    def _line(self, cells: Sequence[str]) -> str:
        return CELL_SEPARATOR.join(format_value(cell, self.max_value_chars).replace("|", "/") for cell in cells)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(demonstration_rows={self.demonstration_rows!r}, max_rows={self.max_rows!r}, "
            f"max_value_chars={self.max_value_chars!r})"
        )
