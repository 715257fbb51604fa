"""Augment a question while the database values of its gold output stay as they are."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from textattack_semparse.sql.literals import literal_phrase, literal_words, phrase_starts

logger = logging.getLogger(__name__)

LiteralAugment = Callable[[str, Sequence[str]], list[str]]
"""``augment(question, literals)``: augmented questions that keep every literal's words."""


ReadAhead = Callable[[Sequence[str]], None]
"""``read_ahead(questions)``: prepare, in batches, what augmenting ``questions`` reads first
(:meth:`~textattack_semparse.augmentation.word_list_augmenter.WordListAugmenter.read_ahead`)."""

READ_AHEAD = 256
"""Questions :func:`reading_ahead` prepares at a time: one spaCy batch, well within its parse cache."""


def reading_ahead(
    augment: Callable[..., list[str]], questions: Sequence[str], read_ahead: ReadAhead | None
) -> Callable[..., list[str]]:
    """``augment`` for a file that augments ``questions`` in this order: before the first of each
    :data:`READ_AHEAD` of them is augmented, ``read_ahead`` is given those questions. A call with
    another question than the next one (or ``read_ahead`` ``None``) augments as ``augment`` does,
    and no more is read ahead: the outputs never depend on it.

    Example:
        >>> prepared = []
        >>> augment = reading_ahead(lambda text, literals: [text + "?"], ["a", "b"], prepared.append)
        >>> augment("a", ()), augment("b", ()), prepared
        (['a?'], ['b?'], [['a', 'b']])
    """
    if read_ahead is None:
        return augment
    position = 0

    def augment_next(text: str, *arguments: Any) -> list[str]:
        nonlocal position
        if position < len(questions) and questions[position] == text:
            if position % READ_AHEAD == 0:
                read_ahead(questions[position : position + READ_AHEAD])
            position += 1
        return augment(text, *arguments)

    return augment_next


def protecting_literals(augmenter: Any) -> LiteralAugment:
    """``augment(text, literals)``: ``augmenter.augment(text)`` with ``literals`` protected.

    For the duration of the call, ``literals`` are added to the ``literals`` of every
    :class:`~textattack_semparse.constraints.preserve_literals.PreserveLiterals` among the
    augmenter's constraints (the plugin's augmentation recipes have one), so no
    transformation proposes to modify their words. An augmenter without that constraint
    is used as is, with a warning; the file functions then drop what changed a literal.
    Outputs equal to ``text`` (TextAttack returns the input when nothing applies) and
    duplicates are left out.
    """
    from textattack_semparse.constraints.preserve_literals import PreserveLiterals

    candidates = [*getattr(augmenter, "pre_transformation_constraints", []), *getattr(augmenter, "constraints", [])]
    constraints = [constraint for constraint in candidates if isinstance(constraint, PreserveLiterals)]
    if not constraints:
        logger.warning(
            "%s has no PreserveLiterals constraint: augmentations that change a database value will be dropped.",
            type(augmenter).__name__,
        )

    def augment(text: str, literals: Sequence[str]) -> list[str]:
        saved = [constraint.literals for constraint in constraints]
        try:
            for constraint, own in zip(constraints, saved):
                constraint.literals = tuple(dict.fromkeys([*(own or ()), *literals]))
            outputs = augmenter.augment(text)
        finally:
            for constraint, own in zip(constraints, saved):
                constraint.literals = own
        return new_questions(outputs, text)

    return augment

def keeps_literals(original: str, augmented: str, literals: Iterable[str]) -> bool:
    """Whether every literal occurs as often in ``augmented`` as in ``original`` (whole words).

    Example:
        >>> keeps_literals("rivers in new york", "the rivers of new york", ["new york"])
        True
        >>> keeps_literals("rivers in new york", "rivers in york", ["new york"])
        False
    """
    phrases = [phrase for phrase in map(literal_phrase, literals) if phrase]
    if not phrases:  # a question without literals (a quarter of GeoQuery's) has nothing to count
        return True
    before, after = literal_words(original), literal_words(augmented)
    for phrase in phrases:
        if len(phrase) == 1:  # most literals are one word: counted by list.count
            if before.count(phrase[0]) != after.count(phrase[0]):
                return False
        elif len(phrase_starts(before, phrase)) != len(phrase_starts(after, phrase)):
            return False
    return True

def new_questions(outputs: Iterable[str], question: str) -> list[str]:
    """``outputs`` without duplicates and without ``question`` itself."""
    return [output for output in dict.fromkeys(outputs) if output != question]
