"""The meaning lexicon: the words that name a question's operators, with why each class matters.

One resource (``resources/meaning_lexicon.json``) is read by the judge's vetoes
(:mod:`~textattack_semparse.judges.vetoes`), which reject a rewrite that drops or turns around an
operator, and by the edits that teach the judge's reader what changes a question
(:mod:`~textattack_semparse.judges.reader_data`). Each class carries its reason, which the
vetoes' verdicts and ``docs/judges.md`` quote. Original to textattack-semparse.

Example:
    >>> [(mark.kind, mark.text) for mark in operator_marks("how many rivers are not longer than 500 km".split())]
    [('aggregation', 'how many'), ('comparative', 'not longer'), ('number', '500')]
    >>> sorted(operator_marks("not longer".split())[0].senses)
    [('length', 'less')]
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

LEXICON_RESOURCE = "meaning_lexicon.json"

SCALED_KINDS = ("superlative", "comparative")
"""Classes whose words sit at one end of a scale (``more`` or ``less``)."""

OPERATOR_KINDS = ("superlative", "comparative", "negation", "aggregation", "quantifier", "number")
"""The classes :func:`operator_marks` finds, in the order a veto reports them."""


@dataclass(frozen=True)
class Mark:
    """One operator a question names: its class (``kind``), what it means within the class
    (``senses``: ``(scale, side)`` pairs for a superlative or comparative, the kind of an
    aggregation, a quantifier's group, a number's value, ``not`` for a negation), and the words
    ``start:end`` that name it.

    Example:
        >>> sorted(operator_marks(["the", "oldest", "state"])[0].senses)
        [('age', 'more'), ('time', 'less')]
    """

    kind: str
    senses: frozenset[Any]
    start: int
    end: int
    text: str

    def opposes(self, other: Mark) -> bool:
        """Whether ``other`` is the other end of one of this mark's scales and of none it shares.

        Example:
            >>> largest, smallest, longest = (operator_marks([word])[0] for word in ("largest", "smallest", "longest"))
            >>> largest.opposes(smallest), largest.opposes(longest), largest.opposes(largest)
            (True, False, False)
        """
        if self.kind != other.kind or self.senses & other.senses:
            return False
        if self.kind in SCALED_KINDS:
            flipped = {(scale, "less" if side == "more" else "more") for scale, side in self.senses}
            return bool(flipped & other.senses)
        return self.kind == "quantifier"


@functools.lru_cache(maxsize=1)
def lexicon() -> Mapping[str, Any]:
    """The packaged lexicon, as written (read once)."""
    text = resources.files("textattack_semparse.resources").joinpath(LEXICON_RESOURCE).read_text(encoding="utf-8")
    return MappingProxyType(json.loads(text))


def reason(kind: str) -> str:
    """Why a class of the lexicon decides what a question asks.

    Example:
        >>> reason("negation").split(":")[0]
        'A negation keeps what the rest excludes (NOT, !=, EXCEPT, NOT IN)'
    """
    return str(lexicon()[kind]["reason"])


@functools.lru_cache(maxsize=1)
def _phrases() -> Mapping[tuple[str, ...], tuple[str, frozenset[Any]]]:
    """Every phrase of the operator classes -> (class, senses), a phrase of several classes once per class merged."""
    entries: dict[tuple[str, ...], dict[str, set[Any]]] = {}

    def add(phrase: str, kind: str, sense: Any) -> None:
        entries.setdefault(tuple(phrase.split()), {}).setdefault(kind, set()).add(sense)

    table = lexicon()
    for kind in SCALED_KINDS:
        for scale, sides in table[kind]["scales"].items():
            for side, words in sides.items():
                for word in words:
                    add(word, kind, (scale, side))
    for word in table["negation"]["words"]:
        add(word, "negation", "not")
    for aggregate, words in table["aggregation"]["kinds"].items():
        for word in words:
            add(word, "aggregation", aggregate)
    for group, words in table["quantifier"]["groups"].items():
        for word in words:
            add(word, "quantifier", group)
    for word, value in table["numbers"]["words"].items():
        add(word, "number", float(value))
    merged: dict[tuple[str, ...], tuple[str, frozenset[Any]]] = {}
    for phrase, kinds in entries.items():
        # A word of two classes ("no": negation, "most": superlative) is read in the first of OPERATOR_KINDS.
        kind = next(name for name in OPERATOR_KINDS if name in kinds)
        merged[phrase] = (kind, frozenset(kinds[kind]))
    return MappingProxyType(merged)


@functools.lru_cache(maxsize=1)
def _name_phrases() -> tuple[tuple[str, ...], ...]:
    """The lexicon's ``name_phrases``, longest first: an operator's word that is part of a name."""
    phrases = (tuple(phrase.split()) for phrase in lexicon()["name_phrases"]["phrases"])
    return tuple(sorted(phrases, key=len, reverse=True))


NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
"""Digits with separators: the value of a number written in digits (*10,000*, *3.5*)."""


def number_value(word: str) -> float | str | None:
    """The value a word names as a number: digits (``10,000`` is 10000.0) or a number word; a word
    with digits and letters (*3rd*, *1990s*, ATIS's *ci0*) is its own value; ``None`` otherwise.

    Example:
        >>> number_value("10,000"), number_value("twelve"), number_value("3rd"), number_value("river")
        (10000.0, 12.0, '3rd', None)
    """
    if NUMBER.fullmatch(word):
        return float(word.replace(",", ""))
    if any(character.isdigit() for character in word):
        return word
    entry = _phrases().get((word,))
    return next(iter(entry[1])) if entry is not None and entry[0] == "number" else None


def operator_marks(words: Sequence[str]) -> list[Mark]:
    """The operators ``words`` (lower-cased) name, longest phrase first, left to right.

    Example:
        >>> [(mark.kind, mark.text) for mark in operator_marks("which states don't border 3 states".split())]
        [('negation', "don't"), ('number', '3')]
    """
    phrases, longest = _phrases(), max(len(phrase) for phrase in _phrases())
    suffixes = tuple(lexicon()["negation"]["suffixes"])
    marks: list[Mark] = []
    index = 0
    while index < len(words):
        name = next((len(phrase) for phrase in _name_phrases() if tuple(words[index : index + len(phrase)]) == phrase), 0)
        if name:  # "first name": a name, no superlative
            index += name
            continue
        for length in range(min(longest, len(words) - index), 0, -1):
            phrase = tuple(words[index : index + length])
            if phrase in phrases:
                kind, senses = phrases[phrase]
                marks.append(Mark(kind, senses, index, index + length, " ".join(phrase)))
                index += length
                break
        else:
            word = words[index]
            value = number_value(word)
            if value is not None:
                marks.append(Mark("number", frozenset({value}), index, index + 1, word))
            elif word.endswith(suffixes):
                marks.append(Mark("negation", frozenset({"not"}), index, index + 1, word))
            index += 1
    return _negated_comparisons(marks)


def _negated_comparisons(marks: list[Mark]) -> list[Mark]:
    """``marks`` with each negation right before a comparison read with it as the comparison
    turned around ("not exceed" is "no more than"; "not more than" is "at most")."""
    merged: list[Mark] = []
    for mark in marks:
        previous = merged[-1] if merged else None
        if (
            previous is not None and previous.kind == "negation" and mark.kind == "comparative"
            and previous.end == mark.start
        ):
            flipped = frozenset((scale, "less" if side == "more" else "more") for scale, side in mark.senses)
            merged[-1] = Mark("comparative", flipped, previous.start, mark.end, f"{previous.text} {mark.text}")
        else:
            merged.append(mark)
    return merged


@functools.lru_cache(maxsize=16)
def words_of(kind: str) -> frozenset[str]:
    """Every single word of an operator class (:data:`OPERATOR_KINDS`), of the ``answer_nouns`` or
    of the ``filler``.

    Example:
        >>> {"names", "name"} <= words_of("answer_nouns"), "the" in words_of("filler"), "twelve" in words_of("number")
        (True, True, True)
    """
    if kind in OPERATOR_KINDS:
        return frozenset(phrase[0] for phrase, (found, _) in _phrases().items() if found == kind and len(phrase) == 1)
    return frozenset(lexicon()[kind]["words"])


@functools.lru_cache(maxsize=4)
def word_groups(kind: str) -> Mapping[str, str]:
    """Word -> its group, for a class of groups of single words (``relation``: source,
    destination, via; ``question_words``: thing, person, place, time, reason, manner).

    Example:
        >>> word_groups("relation")["arriv"], word_groups("question_words")["which"]
        ('destination', 'thing')
    """
    return MappingProxyType(
        {word: group for group, words in lexicon()[kind]["groups"].items() for word in words if " " not in word}
    )


def operator_words() -> frozenset[str]:
    """Every single word of every operator class."""
    return frozenset().union(*(words_of(kind) for kind in OPERATOR_KINDS))
