"""Row order shuffle
=====================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
content perturbation "row shuffle".
"""

from __future__ import annotations

from collections.abc import Sequence

from textattack_semparse.tables.table import Table
from textattack_semparse.transformations.table.order_shuffle import OrderShuffle


class RowShuffle(OrderShuffle):
    """Shuffle the rows of the table (RobuT's row order shuffle).

    RobuT leaves out the questions about absolute position; here those naming the table's
    layout and an order ("which city is listed first?") are left out and reported; every
    other question asks about the same rows, so its gold answer is unchanged.

    Args:
        num_candidates (int, default 1): Reordered tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.tables.table import Table
        >>> from textattack_semparse.tables.table_text import table_input, table_of
        >>> table = Table(["Year", "City"], [["2001", "Oslo"], ["2004", "Rome"]])
        >>> table_of(RowShuffle()(AttackedText(table_input("where was it in 2004?", table)))[0]).rows
        (('2004', 'Rome'), ('2001', 'Oslo'))
        >>> RowShuffle().skip_reason(AttackedText(table_input("which city is listed first?", table)))
        "question asks about position ('first' with 'listed')"
    """

    perturbation = "row-shuffle"
    unit = "row"

    def _units(self, table: Table) -> Sequence[tuple[str, ...]]:
        return table.rows

    def _reorder(self, table: Table, order: list[int]) -> Table:
        return table.with_rows([table.rows[i] for i in order])
