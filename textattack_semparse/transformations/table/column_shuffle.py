"""Column order shuffle
========================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
content perturbation "column shuffle".
"""

from __future__ import annotations

from collections.abc import Sequence

from textattack_semparse.tables.table import Table
from textattack_semparse.transformations.table.order_shuffle import OrderShuffle


class ColumnShuffle(OrderShuffle):
    """Shuffle the columns of the table, each keeping its header and cells (RobuT's column order shuffle).

    RobuT leaves out the questions about absolute position; here those naming the table's
    layout and an order ("which column is listed first?") are left out and reported.

    Args:
        num_candidates (int, default 1): Reordered tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.tables.table import Table
        >>> from textattack_semparse.tables.table_text import table_input, table_of
        >>> table = Table(["Year", "City"], [["2001", "Oslo"], ["2004", "Rome"]])
        >>> table_of(ColumnShuffle()(AttackedText(table_input("where was it in 2004?", table)))[0]).header
        ('City', 'Year')
    """

    perturbation = "column-shuffle"
    unit = "column"

    def _units(self, table: Table) -> Sequence[tuple[str, tuple[str, ...]]]:
        return [(name, table.column(i)) for i, name in enumerate(table.header)]

    def _reorder(self, table: Table, order: list[int]) -> Table:
        return table.select_columns(order)
