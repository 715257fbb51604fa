"""Derived texts with consistent attack bookkeeping
=====================================================

Helpers for transformations that edit several words at once, move words, or rewrite the
question. TextAttack's ``generate_new_attacked_text`` tracks ``original_index_map`` correctly
for one insertion or deletion at a time, not for several in one call, and not at all for a
permutation or a rewrite. :func:`edit_words` therefore applies edits one by one from right
to left; :func:`rebuild_question` builds a text from a new question and the origin of each
of its words. Both point ``previous_attacked_text`` at the text they started from, so a
multi-word edit is one step of a search.

The question is the first input column; the other columns (``db_id``, a serialised schema)
are carried over unchanged.
"""

from __future__ import annotations

import difflib
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np
from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text

from textattack_semparse.transformations.word_edits import column_values, replace_word_at_index


def question_text(attacked_text: AttackedText) -> str:
    """The first input column (the question) of ``attacked_text``."""
    columns = attacked_text.tokenizer_input
    return columns if isinstance(columns, str) else columns[0]


def question_word_count(attacked_text: AttackedText) -> int:
    """Number of words of the first input column; they are ``words[:count]``."""
    return len(attacked_text.words_per_input[0])


MAX_QUESTION_WORDS = 256
"""Longest question a perturbation that builds candidates for every word accepts.

Such a perturbation makes O(words) candidates of O(words) words each (TextAttack builds each
candidate in time linear in the text), so time and memory grow with the square of the
question's length: a 10,000-word "question" would take hours. No semantic-parsing benchmark
comes near 256 words (GeoQuery, ATIS, Spider and WTQ questions stay under 100).
"""


def check_question_length(attacked_text: AttackedText, transformation: object) -> None:
    """Refuse a question longer than :data:`MAX_QUESTION_WORDS` words with a ``ValueError``.

    Example:
        >>> check_question_length(AttackedText(" ".join(["word"] * 300)), "FunctionWordInsertion")
        Traceback (most recent call last):
        ...
        ValueError: FunctionWordInsertion builds candidates for every word, and the question has 300 words, more than the 256 it accepts; shorten or split the question (or leave it out of the run).
    """
    count = question_word_count(attacked_text)
    if count > MAX_QUESTION_WORDS:
        name = transformation if isinstance(transformation, str) else type(transformation).__name__
        raise ValueError(
            f"{name} builds candidates for every word, and the question has {count} words, more than the "
            f"{MAX_QUESTION_WORDS} it accepts; shorten or split the question (or leave it out of the run)."
        )


def is_single_word(word: str) -> bool:
    """Whether TextAttack reads ``word`` as exactly this one word (no split, no stripping)."""
    return words_from_text(word) == [word]


def match_case(template: str, word: str) -> str:
    """``word`` with the capitalisation pattern of ``template`` (upper, title or as is).

    Example:
        >>> match_case("Texas", "state"), match_case("USA", "us"), match_case("city", "Dallas")
        ('State', 'US', 'Dallas')
    """
    if len(template) > 1 and template.isupper():
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def distinct_new_texts(current_text: AttackedText, texts: Iterable[AttackedText | None]) -> list[AttackedText]:
    """``texts`` in order without repeats, ``None`` and the unchanged ``current_text``.

    Example:
        >>> texts = [AttackedText("a c"), None, AttackedText("a b"), AttackedText("a c")]
        >>> [t.text for t in distinct_new_texts(AttackedText("a b"), texts)]
        ['a c']
    """
    seen = {current_text.text}
    distinct = []
    for text in texts:
        if text is not None and text.text not in seen:
            seen.add(text.text)
            distinct.append(text)
    return distinct


def _newly_modified(old_words: Sequence[str], new_words: Sequence[str]) -> set[int]:
    """Positions of ``new_words`` that are not an unchanged word of ``old_words``."""
    matcher = difflib.SequenceMatcher(a=list(old_words), b=list(new_words), autojunk=False)
    return {
        position
        for tag, _, _, start, end in matcher.get_opcodes()
        if tag in ("replace", "insert")
        for position in range(start, end)
    }


def edit_words(current_text: AttackedText, edits: Iterable[tuple[int, str]]) -> AttackedText:
    """Apply ``(index, replacement)`` edits in TextAttack's word-edit convention.

    A replacement is the 0+ words that take the place of ``words[index]``: ``""`` deletes
    it, ``"new " + word`` inserts before it, ``word + " new"`` after it. Edits are applied
    from the highest index down (stable for equal indices, so an insertion after a word
    must precede an insertion before it), which keeps every index valid and every
    ``original_index_map`` shift right. Whitespace that deleting a column's first or last
    word leaves at its edge is removed ("what is the capital of " -> "... of").

    Example:
        >>> text = AttackedText("what is the capital of texas")
        >>> edited = edit_words(text, [(1, ""), (4, "")])
        >>> edited.text, edited.attack_attrs["original_index_map"].tolist()
        ('what the capital texas', [0, -1, 1, 2, -1, 3])
    """
    edited = current_text
    for index, replacement in sorted(edits, key=lambda edit: -edit[0]):
        edited = replace_word_at_index(edited, index, replacement)
    if edited is current_text:
        return current_text
    attack_attrs = edited.attack_attrs
    columns = [_trim_like(old, new) for old, new in zip(column_values(current_text), column_values(edited))]
    edited = AttackedText(OrderedDict(zip(edited.column_labels, columns)), attack_attrs=attack_attrs)
    attack_attrs["previous_attacked_text"] = current_text
    attack_attrs["newly_modified_indices"] = _newly_modified(current_text.words, edited.words)
    return edited


def edit_words_if_placeable(current_text: AttackedText, edits: Iterable[tuple[int, str]]) -> AttackedText | None:
    """:func:`edit_words`, or ``None`` when TextAttack cannot place the edited words back in the
    text: its word splitting of a partly edited text can differ from the original's on some
    mixed-script text (Arabic letters between control characters), and it then refuses an
    index that was valid before."""
    try:
        return edit_words(current_text, edits)
    except ValueError:
        return None


def _trim_like(old: str, new: str) -> str:
    """``new`` without edge whitespace that ``old`` does not have."""
    if old == old.rstrip():
        new = new.rstrip()
    if old == old.lstrip():
        new = new.lstrip()
    return new


def rebuild_question(current_text: AttackedText, question: str, origin: Sequence[int | None]) -> AttackedText:
    """A text whose question is ``question``; word ``p`` of it comes from ``words[origin[p]]``.

    ``origin[p]`` is the index in ``current_text`` of the word that question word ``p``
    is (moved or kept), or ``None`` for a new word. ``original_index_map`` follows moved and
    kept words; words of the original that are gone map to ``-1``, as after a deletion.
    Moved and new words are recorded as modified.

    Raises:
        ValueError: ``origin`` does not have one entry per word of ``question``.
    """
    new_words = words_from_text(question)
    if len(origin) != len(new_words):
        raise ValueError(
            f"origin has {len(origin)} entries but the question {question!r} has {len(new_words)} words; "
            "give one current-word index (or None) per new word."
        )
    old_count = question_word_count(current_text)
    full_origin = [*origin, *range(old_count, current_text.num_words)]
    new_position = {source: position for position, source in enumerate(full_origin) if source is not None}
    old_map = current_text.attack_attrs["original_index_map"]
    new_map = np.array([new_position.get(int(i), -1) if i >= 0 else -1 for i in old_map], dtype=old_map.dtype)
    newly_modified = {p for p, source in enumerate(origin) if source != p}
    kept_modified = {new_position[i] for i in current_text.attack_attrs["modified_indices"] if i in new_position}
    columns = OrderedDict(zip(current_text.column_labels, column_values(current_text)))
    first = next(iter(columns))
    columns[first] = question
    attack_attrs: dict[str, object] = {
        "previous_attacked_text": current_text,
        "original_index_map": new_map,
        "modified_indices": kept_modified | newly_modified,
        "newly_modified_indices": newly_modified,
    }
    if "label_names" in current_text.attack_attrs:
        attack_attrs["label_names"] = current_text.attack_attrs["label_names"]
    return AttackedText(columns, attack_attrs=attack_attrs)
