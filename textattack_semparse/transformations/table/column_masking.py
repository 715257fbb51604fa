"""Column masking
==================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
content perturbation "column masking": a column the answer does not need is removed.
"""

from __future__ import annotations

import random
from collections import Counter

from textattack_semparse.arguments import check_count
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import TableChange
from textattack_semparse.transformations.table.answer_cells import column_holds_answer, header_in_question, holds_answer
from textattack_semparse.transformations.table.table_example import TableExample
from textattack_semparse.transformations.table.table_transformation import TableTransformation


def determining_column(table: Table, dependent: int, *, min_evidence: int = 2) -> int | None:
    """A column that functionally determines column ``dependent`` in the data, or ``None``.

    Column A determines B when every value of A occurs with a single value of B. The data
    must show it: at least ``min_evidence`` non-empty values of A occur in two rows or more,
    and B takes at least two non-empty values (a constant column is determined by anything).
    The leftmost such A is returned.

    Example:
        >>> table = Table(["Nation", "Code", "Year"], [["Chile", "CHI", "2001"], ["Peru", "PER", "2002"],
        ...                                         ["Chile", "CHI", "2003"], ["Peru", "PER", "2004"]])
        >>> determining_column(table, 1), determining_column(table, 2)
        (0, None)
    """
    target = table.column(dependent)
    if len({cell for cell in target if cell.strip()}) < 2:
        return None
    for index in range(table.num_columns):
        if index == dependent:
            continue
        source = table.column(index)
        repeated = sum(1 for key, count in Counter(source).items() if count >= 2 and key.strip())
        if repeated < min_evidence:
            continue
        mapping: dict[str, str] = {}
        if all(mapping.setdefault(key, value) == value for key, value in zip(source, target)):
            return index
    return None


class ColumnMasking(TableTransformation):
    """Drop a column that another column determines (RobuT's column masking).

    The issue's rule: drop a column that another column determines, found from the data
    (:func:`determining_column`), never one the answer needs. A column is kept when any of
    its cells holds a gold answer value
    (:func:`~textattack_semparse.transformations.table.answer_cells.column_holds_answer`), when
    the question names it
    (:func:`~textattack_semparse.transformations.table.answer_cells.header_in_question`) or
    when one of its cells occurs in the question ("Peru" in "when did peru win?"), since the
    question then selects rows by it. Each candidate drops a different column, in generator
    order.

    Args:
        min_evidence (int, default 2): Values of the determining column that must occur in
            two rows or more.
        num_candidates (int, default 1): Perturbed tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.attack_attrs import record_gold_output
        >>> from textattack_semparse.tables.table_text import table_input, table_of
        >>> table = Table(["Nation", "Code", "Year"], [["Chile", "CHI", "2001"], ["Peru", "PER", "2002"],
        ...                                         ["Chile", "CHI", "2003"], ["Peru", "PER", "2004"]])
        >>> text = AttackedText(table_input("when did peru win the most recent time?", table))
        >>> record_gold_output(text, "2004")
        >>> table_of(ColumnMasking()(text)[0]).header
        ('Nation', 'Year')
    """

    perturbation = "column-masking"
    needs_gold = True

    def __init__(self, *, min_evidence: int = 2, num_candidates: int = 1, seed: int | None = 0) -> None:
        super().__init__(num_candidates=num_candidates, seed=seed)
        check_count("min_evidence", min_evidence)
        self.min_evidence = min_evidence

    def _plan(self, example: TableExample, rng: random.Random) -> tuple[str | None, list[tuple[Table, TableChange]]]:
        table = example.table
        determined = {}
        for index in range(table.num_columns):
            source = determining_column(table, index, min_evidence=self.min_evidence)
            if source is not None:
                determined[index] = source
        if not determined:
            return "no determined column", []
        droppable = [
            index
            for index in determined
            if not column_holds_answer(table.column(index), example.answers or ())
            and not header_in_question(table.header[index], example.question)
            and not holds_answer(example.question, table.column(index))
        ]
        if not droppable:
            return "determined columns hold a gold answer value or the question names them or their cells", []
        results = []
        for index in rng.sample(droppable, len(droppable)):
            source = determined[index]
            results.append(
                (
                    table.select_columns([i for i in range(table.num_columns) if i != index]),
                    self.change(
                        f"dropped column {table.header[index]!r}, determined by column {table.header[source]!r}",
                        f"{table.header[source]!r} stays and determines it; no cell of it held a gold answer value "
                        "and the question names neither it nor its cells",
                    ),
                )
            )
        return None, results

    def extra_repr_keys(self) -> list[str]:
        return ["min_evidence"] + super().extra_repr_keys()
