"""Header renaming base
========================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321)
perturbs table headers by synonym and by abbreviation replacement: header text changes,
cells do not, so the gold answer is unchanged.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence

from textattack_semparse.arguments import check_count
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import TableChange
from textattack_semparse.transformations.table.answer_cells import normalize_value
from textattack_semparse.transformations.table.table_example import TableExample
from textattack_semparse.transformations.table.table_transformation import TableTransformation

_ATTEMPTS_PER_CANDIDATE = 10


class HeaderRenaming(TableTransformation):
    """Rename ``columns_to_change`` columns, each to one of its alternative names.

    The columns and their new names are drawn from the per-input generator among the columns
    that have an alternative (:meth:`alternatives`). A new name never equals (ignoring case)
    any header of the table or another new name, so columns stay distinguishable; a header
    equal to a gold answer value keeps its name. Rows are untouched.

    Args:
        columns_to_change (int | None, default None): Columns renamed per candidate; ``None``
            = every column that has an alternative name.
        num_candidates (int, default 1): Perturbed tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.
    """

    kind: str
    """What the alternative names are, for descriptions and skip reasons ("synonym")."""

    def __init__(self, *, columns_to_change: int | None = None, num_candidates: int = 1, seed: int | None = 0) -> None:
        super().__init__(num_candidates=num_candidates, seed=seed)
        check_count("columns_to_change", columns_to_change, none_means="every column with an alternative name")
        self.columns_to_change = columns_to_change

    @abstractmethod
    def alternatives(self, name: str) -> list[str]:
        """Alternative names of the header ``name``, in a fixed order."""

    def header_alternatives(self, header: Sequence[str]) -> list[list[str]]:
        """Alternative names of each column of ``header`` (a subclass may use the whole header)."""
        return [self.alternatives(name) for name in header]

    def _renameable(self, example: TableExample) -> dict[int, list[str]]:
        taken = {normalize_value(name) for name in example.table.header}
        answers = {normalize_value(value) for value in example.answers or ()}
        options = {}
        for index, (name, alternatives) in enumerate(zip(example.table.header, self.header_alternatives(example.table.header))):
            if normalize_value(name) in answers:
                continue
            names = [alt for alt in alternatives if normalize_value(alt) not in taken]
            if names:
                options[index] = names
        return options

    def _plan(self, example: TableExample, rng: random.Random) -> tuple[str | None, list[tuple[Table, TableChange]]]:
        options = self._renameable(example)
        if not options:
            return f"no header has {self.kind}", []
        count = len(options) if self.columns_to_change is None else min(self.columns_to_change, len(options))
        header = example.table.header
        results: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        for _ in range(self.num_candidates * _ATTEMPTS_PER_CANDIDATE):
            if len(results) == self.num_candidates:
                break
            new_header = list(header)
            renamed: list[tuple[str, str]] = []
            for index in sorted(rng.sample(sorted(options), count)):
                used = {normalize_value(new) for _, new in renamed}
                names = [name for name in options[index] if normalize_value(name) not in used]
                if names:
                    new_header[index] = rng.choice(names)
                    renamed.append((header[index], new_header[index]))
            if renamed:
                results.setdefault(tuple(new_header), renamed)
        return None, [
            (
                example.table.with_header(new_header),
                self.change(
                    "; ".join(f"header {old!r} -> {new!r}" for old, new in renamed),
                    f"cells unchanged; only header names changed, each to {self.kind}",
                ),
            )
            for new_header, renamed in results.items()
        ]

    def extra_repr_keys(self) -> list[str]:
        return ["columns_to_change"] + super().extra_repr_keys()
