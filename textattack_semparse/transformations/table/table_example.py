"""The question, table and gold answer a table perturbation reads from an attacked text.

RobuT (Zhao et al. 2023, https://arxiv.org/abs/2306.14321): a Table QA example is a
question, a table and a gold answer (a list of values).
"""

from __future__ import annotations

from dataclasses import dataclass

from textattack_semparse.tables.table import Table


@dataclass(frozen=True)
class TableExample:
    """What a table perturbation reads from an attacked text.

    Args:
        question (str): The question (first input column).
        table (Table): The current table.
        answers (tuple[str, ...] | None): The gold answer values, ``None`` when no gold was
            recorded on the original text.
    """

    question: str
    table: Table
    answers: tuple[str, ...] | None
