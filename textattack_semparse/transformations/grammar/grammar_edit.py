"""One simulated grammatical error at known word indices."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GrammarEdit:
    """A grammatical error to inject: new strings for some word slots of a text.

    ``replacement[k]`` replaces word ``indices[k]``; ``""`` deletes the word and a string of
    several words inserts the extra words there. An insertion belongs to the word it is
    inserted *before* (its slot becomes ``"the river"``), as with TextAttack's
    ``insert_text_before_word_index``, so a protected word also blocks insertions in front
    of it. ``source`` and ``target`` are the keys of the confusion weight
    ``w[source][target]`` (correct -> written); ``position`` is the word at which the
    probabilistic mode counts the error as applicable.

    Original to textattack-semparse.

    Args:
        error_type (str): one of ``ERROR_TYPES``.
        indices (tuple[int, ...]): word indices the edit changes, ascending.
        replacement (tuple[str, ...]): the new string of each of ``indices``.
        source (str): confusion-set key of the correct form.
        target (str): confusion-set key of the written (erroneous) form.
        position (int): anchor word index (one of ``indices``).
    """

    error_type: str
    indices: tuple[int, ...]
    replacement: tuple[str, ...]
    source: str
    target: str
    position: int

    def __post_init__(self) -> None:
        if len(self.indices) != len(self.replacement) or not self.indices:
            raise ValueError(
                f"GrammarEdit needs one replacement per index, got indices {self.indices} and "
                f"replacement {self.replacement}."
            )
        if self.position not in self.indices:
            raise ValueError(f"GrammarEdit position {self.position} is not one of its indices {self.indices}.")

    @property
    def changes_length(self) -> bool:
        """Whether the edit inserts or deletes words (so later word indices shift)."""
        return any(len(text.split()) != 1 for text in self.replacement)
