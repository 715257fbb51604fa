"""How the gold output travels with an attacked question.

TextAttack hands constraints only the current ``AttackedText``. The plugin's goal
functions record the gold output on the *original* text of each attack
(``attack_attrs[GOLD_OUTPUT]``); every perturbed text reaches that original through its
``previous_attacked_text`` chain, so a constraint such as ``PreserveLiterals`` can read
the gold query without a reference to the goal function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textattack.shared import AttackedText

GOLD_OUTPUT = "semparse_gold_output"
SCHEMA_WORDS = "semparse_schema_words"


def original_text(attacked_text: AttackedText) -> AttackedText:
    """Follow ``previous_attacked_text`` back to the text the attack started from."""
    current = attacked_text
    while "previous_attacked_text" in current.attack_attrs:
        current = current.attack_attrs["previous_attacked_text"]
    return current


def gold_output(attacked_text: AttackedText) -> str | None:
    """The gold output recorded on the original of ``attacked_text``, if any."""
    return original_text(attacked_text).attack_attrs.get(GOLD_OUTPUT)


def record_gold_output(attacked_text: AttackedText, gold: str) -> None:
    """Record ``gold`` on ``attacked_text`` (called by goal functions on the original)."""
    attacked_text.attack_attrs[GOLD_OUTPUT] = gold


def schema_words(attacked_text: AttackedText) -> frozenset[str]:
    """The schema words (:mod:`~textattack_semparse.datasets.schema_words`) recorded on the original
    of ``attacked_text``; none when none were recorded."""
    return frozenset(original_text(attacked_text).attack_attrs.get(SCHEMA_WORDS, ()))


def record_schema_words(attacked_text: AttackedText, words: frozenset[str]) -> None:
    """Record the words of the schema ``attacked_text`` is asked of (read by the meaning judge)."""
    attacked_text.attack_attrs[SCHEMA_WORDS] = frozenset(words)
