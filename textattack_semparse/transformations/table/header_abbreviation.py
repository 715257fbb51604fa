"""Header abbreviation replacement
===================================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
header perturbation "abbreviation replacement": a column name is replaced by its abbreviation.
"""

from __future__ import annotations

from textattack_semparse.tables.header_names import header_abbreviations
from textattack_semparse.transformations.table.header_renaming import HeaderRenaming


class HeaderAbbreviation(HeaderRenaming):
    """Rename columns to abbreviations of their names (RobuT's header abbreviation replacement).

    Abbreviations come from :func:`~textattack_semparse.tables.header_names.header_abbreviations`:
    the packaged abbreviation table ("Number" -> "No.", "Population" -> "Pop."), then the rules
    of truncation with a period, dropped vowels and initialisms of multi-word names. The
    issue's rule: the header text changes and nothing else.

    Args:
        columns_to_change (int | None, default None): Columns renamed per candidate; ``None``
            = every column that has an abbreviation.
        num_candidates (int, default 1): Perturbed tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.tables.table import Table
        >>> from textattack_semparse.tables.table_text import table_input, table_of
        >>> table = Table(["City", "Population"], [["Oslo", "700000"]])
        >>> text = AttackedText(table_input("how many people live there?", table))
        >>> table_of(HeaderAbbreviation()(text)[0]).header
        ('City', 'Pop.')
    """

    perturbation = "header-abbreviation"
    kind = "an abbreviation"

    def alternatives(self, name: str) -> list[str]:
        return header_abbreviations(name)
