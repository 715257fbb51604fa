"""How a table travels with an attacked question: the JSON text of a ``table`` input column.

A Table QA example is the TextAttack input ``OrderedDict(question=..., table=Table.to_json())``
with the gold answer as its output. Victims read both columns; question perturbations are
kept off the table column with :func:`freeze_table_column` (as recipes freeze Spider's
``db_id``), and table perturbations replace the table column through :func:`with_table`,
which records a :class:`TableChange` on the new text so constraints and reports can see what
changed (:func:`table_changes` collects them along the ``previous_attacked_text`` chain).
Original to textattack-semparse; the setting is RobuT's (Zhao et al. 2023, "RobuT: A
Systematic Study of Table QA Robustness Against Human-Annotated Adversarial Perturbations",
ACL 2023, https://arxiv.org/abs/2306.14321).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.tables.table import Table

if TYPE_CHECKING:  # imported where used: the column names are read without importing TextAttack
    from textattack.constraints.pre_transformation import InputColumnModification
    from textattack.shared import AttackedText

QUESTION_COLUMN = "question"
TABLE_COLUMN = "table"
TABLE_CHANGE = "semparse_table_change"
"""``attack_attrs`` key of the :class:`TableChange` that made a text from its predecessor."""


@dataclass(frozen=True)
class TableChange:
    """What one table perturbation changed, and why the gold answer still holds.

    Args:
        perturbation (str): The perturbation's registered name (``"header-synonym"``).
        description (str): What changed (``"header 'Pop.' for 'Population'"``).
        answer_kept (str): Why every gold answer value is still in (or derivable from) the
            table (``"cells unchanged"``).
    """

    perturbation: str
    description: str
    answer_kept: str


def table_input(question: str, table: Table) -> OrderedDict[str, str]:
    """The TextAttack input columns of a Table QA example."""
    return OrderedDict([(QUESTION_COLUMN, question), (TABLE_COLUMN, table.to_json())])


def table_of(attacked_text: AttackedText) -> Table | None:
    """The table carried by ``attacked_text`` (``None`` when it has no table column)."""
    if TABLE_COLUMN not in attacked_text.column_labels:
        return None
    return Table.from_json(attacked_text._text_input[TABLE_COLUMN])


def question_of(attacked_text: AttackedText) -> str:
    """The question of ``attacked_text``: its question column when it has a table, else its text."""
    if TABLE_COLUMN in attacked_text.column_labels:
        return attacked_text._text_input[QUESTION_COLUMN]
    return attacked_text.text


def question_word_count(attacked_text: AttackedText) -> int:
    """Words of the question column (the first); the table's words follow them."""
    return len(attacked_text.words_per_input[0])


def with_table(current_text: AttackedText, table: Table, change: TableChange) -> AttackedText:
    """``current_text`` with its table column replaced by ``table``; the question is unchanged.

    Question words keep their ``original_index_map`` entries and modified marks; the old
    table's words map to ``-1`` (replaced). ``change`` is recorded under :data:`TABLE_CHANGE`.

    Raises:
        ValueError: ``current_text`` has no table column.
    """
    from textattack.shared import AttackedText

    if TABLE_COLUMN not in current_text.column_labels:
        raise ConfigurationError(
            f"A table perturbation needs a '{TABLE_COLUMN}' input column, got columns {current_text.column_labels}; "
            "build Table QA inputs with table_input(question, table)."
        )
    columns = OrderedDict(current_text._text_input)
    columns[TABLE_COLUMN] = table.to_json()
    kept = question_word_count(current_text)
    old_map = current_text.attack_attrs["original_index_map"]
    new_map = old_map.copy()
    new_map[new_map >= kept] = -1
    attack_attrs: dict[str, object] = {
        "previous_attacked_text": current_text,
        "original_index_map": new_map,
        "modified_indices": {i for i in current_text.attack_attrs["modified_indices"] if i < kept},
        "newly_modified_indices": set(),
        TABLE_CHANGE: change,
    }
    if "label_names" in current_text.attack_attrs:
        attack_attrs["label_names"] = current_text.attack_attrs["label_names"]
    return AttackedText(columns, attack_attrs=attack_attrs)


def table_changes(attacked_text: AttackedText) -> list[TableChange]:
    """Every :class:`TableChange` from the original to ``attacked_text``, oldest first."""
    changes = []
    current: AttackedText | None = attacked_text
    while current is not None:
        change = current.attack_attrs.get(TABLE_CHANGE)
        if change is not None:
            changes.append(change)
        current = current.attack_attrs.get("previous_attacked_text")
    return changes[::-1]


def freeze_table_column() -> InputColumnModification:
    """The pre-transformation constraint that keeps word-level perturbations off the table column."""
    from textattack.constraints.pre_transformation import InputColumnModification

    return InputColumnModification([QUESTION_COLUMN, TABLE_COLUMN], {TABLE_COLUMN})
