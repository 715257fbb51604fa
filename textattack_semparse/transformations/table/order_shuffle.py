"""Order shuffle base
======================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
content perturbations "row order shuffle" and "column order shuffle": the same cells in
another order. Questions about position in the table ("who is the first player listed?") are
left out, since the order is what they ask about.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Hashable, Sequence

from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import TableChange
from textattack_semparse.transformations.table.positional_questions import table_position_words
from textattack_semparse.transformations.table.table_example import TableExample
from textattack_semparse.transformations.table.table_transformation import TableTransformation

_ATTEMPTS_PER_CANDIDATE = 20


class OrderShuffle(TableTransformation):
    """Reorder the rows or columns of the table at random; every output order differs from the input.

    A question about position in the table, one naming the layout and an order
    (:func:`~textattack_semparse.transformations.table.positional_questions.table_position_words`),
    is left out with the reason ``"question asks about position ('first' with 'listed')"``; a table with
    fewer than two distinct units (rows or columns) cannot be reordered. When random
    permutations keep giving the input order, the units are rotated by one, which differs
    whenever two units differ. Subclasses say what a unit is.

    Args:
        num_candidates (int, default 1): Reordered tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.
    """

    unit: str
    """What is reordered ("row" or "column")."""

    @abstractmethod
    def _units(self, table: Table) -> Sequence[Hashable]:
        """The units of ``table`` in order, each comparable with the others."""

    @abstractmethod
    def _reorder(self, table: Table, order: list[int]) -> Table:
        """``table`` with its units in ``order`` (a permutation of their positions)."""

    def _plan(self, example: TableExample, rng: random.Random) -> tuple[str | None, list[tuple[Table, TableChange]]]:
        words = table_position_words(example.question)
        if words is not None:
            return f"question asks about position ({words[0]!r} with {words[1]!r})", []
        units = list(self._units(example.table))
        if len(set(units)) < 2:
            return f"fewer than two distinct {self.unit}s", []
        orders: dict[tuple[Hashable, ...], list[int]] = {}
        for _ in range(self.num_candidates * _ATTEMPTS_PER_CANDIDATE):
            if len(orders) == self.num_candidates:
                break
            order = rng.sample(range(len(units)), len(units))
            if [units[i] for i in order] != units:
                orders.setdefault(tuple(units[i] for i in order), order)
        if not orders:
            rotation = list(range(1, len(units))) + [0]
            orders[tuple(units[i] for i in rotation)] = rotation
        return None, [
            (
                self._reorder(example.table, order),
                self.change(
                    f"{self.unit}s reordered: new order {[i + 1 for i in order]} of the original {self.unit}s",
                    f"same cells; only the {self.unit} order changed and the question does not ask about position in the table",
                ),
            )
            for order in orders.values()
        ]
