"""Header synonym replacement
==============================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
header perturbation "synonym replacement": a column name is replaced by a name meaning the same.
"""

from __future__ import annotations

from textattack_semparse.tables.header_names import header_synonyms
from textattack_semparse.transformations.table.header_renaming import HeaderRenaming


class HeaderSynonymReplacement(HeaderRenaming):
    """Rename columns to synonyms of their names (RobuT's header synonym replacement).

    Synonyms come from :func:`~textattack_semparse.tables.header_names.header_synonyms`: the
    packaged domain lexicon of WikiTableQuestions header words, then WordNet ("Attendance" ->
    "Crowd", "Date of birth" -> "Birth date"). The issue's rule: the header text changes and
    nothing else, so every cell, and with it the gold answer, is where it was.

    Args:
        columns_to_change (int | None, default None): Columns renamed per candidate; ``None``
            = every column that has a synonym.
        num_candidates (int, default 1): Perturbed tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.tables.table import Table
        >>> from textattack_semparse.tables.table_text import table_input, table_of
        >>> text = AttackedText(table_input("what was the attendance?", Table(["Week", "Attendance"], [["1", "500"]])))
        >>> table_of(HeaderSynonymReplacement()(text)[0]).header[1] in {"Crowd", "Spectators", "Turnout"}
        True
    """

    perturbation = "header-synonym"
    kind = "a synonym"

    def alternatives(self, name: str) -> list[str]:
        return header_synonyms(name)
