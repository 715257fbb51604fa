"""Table transformation base
=============================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321)
perturbs the table of a Table QA example -- its header and its content -- while keeping the
gold answer valid. Here each such perturbation is a TextAttack ``Transformation`` that edits
the ``table`` input column of the attacked text.
"""

from __future__ import annotations

import hashlib
import random
from abc import abstractmethod
from collections.abc import Iterable
from typing import ClassVar

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.attack_attrs import gold_output
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import QUESTION_COLUMN, TableChange, table_of, with_table
from textattack_semparse.transformations.table.table_example import TableExample

NO_TABLE = "no table column"
NO_GOLD = "no gold answer recorded"


class TableTransformation(Transformation):
    """Perturb the table of a Table QA example; the question is left as it is.

    ``_get_transformations`` reads the table (:func:`~textattack_semparse.tables.table_text.table_of`),
    the question and the gold answer recorded on the original text
    (:func:`~textattack_semparse.attack_attrs.gold_output`, values by
    :func:`~textattack_semparse.tables.answers.parse_answer`), and returns up to
    ``num_candidates`` texts made by :func:`~textattack_semparse.tables.table_text.with_table`,
    each carrying a :class:`~textattack_semparse.tables.table_text.TableChange` that says what
    changed and why the gold still holds. ``indices_to_modify`` is ignored: a table
    perturbation edits the table column, not question words. When it cannot apply,
    :meth:`skip_reason` says why (``"no table column"``, ``"question asks about position
    ('first' with 'listed')"``, ...) and no text is returned, so text-to-SQL inputs simply get none.

    Random choices come from a generator seeded with ``seed`` and the input text, so the same
    input always gives the same output (``seed=None``: fresh randomness, not deterministic).
    Subclasses set :attr:`perturbation` and implement :meth:`_plan`.

    Args:
        num_candidates (int, default 1): Perturbed tables returned per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.
    """

    perturbation: ClassVar[str]
    """The registered perturbation name, recorded in each ``TableChange``."""

    needs_tables: ClassVar[bool] = True
    """Whether the perturbation only applies to examples with a table (``robustness build`` leaves
    it out of its default list on a dataset without tables)."""

    needs_gold: ClassVar[bool] = False
    """Whether the perturbation needs the gold answer to know what it must keep."""

    def __init__(self, *, num_candidates: int = 1, seed: int | None = 0) -> None:
        check_count("num_candidates", num_candidates)
        check_seed(seed)
        self.num_candidates = num_candidates
        self.seed = seed

    def example(self, current_text: AttackedText) -> TableExample | None:
        """The question, table and gold answer of ``current_text`` (``None`` without a table)."""
        table = table_of(current_text)
        if table is None:
            return None
        gold = gold_output(current_text)
        answers = None if gold is None else tuple(parse_answer(gold))
        return TableExample(current_text._text_input[QUESTION_COLUMN], table, answers)

    def rng(self, current_text: AttackedText) -> random.Random:
        """The generator for ``current_text``: a function of the seed and the input text."""
        if self.seed is None:
            return random.Random()
        digest = hashlib.sha256("\x00".join(current_text._text_input.values()).encode("utf-8")).hexdigest()
        return random.Random(f"{self.seed}:{digest}")

    def _outcome(self, current_text: AttackedText) -> tuple[str | None, list[tuple[Table, TableChange]]]:
        example = self.example(current_text)
        if example is None:
            return NO_TABLE, []
        if self.needs_gold and example.answers is None:
            return NO_GOLD, []
        return self._plan(example, self.rng(current_text))

    @abstractmethod
    def _plan(self, example: TableExample, rng: random.Random) -> tuple[str | None, list[tuple[Table, TableChange]]]:
        """The reason the perturbation cannot apply (or ``None``) and the perturbed tables.

        An empty list must come with a reason; at most ``num_candidates`` tables are used.
        """

    def skip_reason(self, current_text: AttackedText) -> str | None:
        """Why this perturbation gives no output for ``current_text``, or ``None`` when it applies."""
        reason, tables = self._outcome(current_text)
        return None if tables else reason

    def change(self, description: str, answer_kept: str) -> TableChange:
        """A :class:`TableChange` under this perturbation's name."""
        return TableChange(self.perturbation, description, answer_kept)

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        _, tables = self._outcome(current_text)
        return [with_table(current_text, table, change) for table, change in tables[: self.num_candidates]]

    @property
    def deterministic(self) -> bool:
        return self.seed is not None

    def extra_repr_keys(self) -> list[str]:
        return ["num_candidates", "seed"] + super().extra_repr_keys()
