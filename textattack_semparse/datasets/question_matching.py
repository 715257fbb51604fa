"""Finding a benchmark's example from a released copy of its question.

Released robustness sets (Huang et al. 2021, "On Robustness of Neural Semantic Parsers", EACL,
https://aclanthology.org/2021.eacl-main.292/) pair each rewrite with the original question as
*they* wrote it: lower-cased, tokenised (``what is the capital of texas ?``), sometimes with
the entities anonymised (``s0``, ``ci0``) and the words stemmed (``capit``) as Dong & Lapata
(2016, https://aclanthology.org/P16-1004/) preprocess GeoQuery, JOBS and ATIS. The gold of a
rewrite is the gold the benchmark gives that original, so the original has to be found among
the benchmark's questions. :class:`QuestionMatcher` tries, in turn:

1. the same words (case, spacing and punctuation aside);
2. the same words once entities are set aside: a release placeholder (``s0``, ``ci1``,
   ``num_salary``) stands for any constant the benchmark's logical form spells in the
   question (:func:`~textattack_semparse.datasets.logical_form.logical_form_constants`);
3. the same, every other word Porter-stemmed on both sides;
4. the stemmed words with each placeholder standing for one to four benchmark words (Dong &
   Lapata anonymise ``washington state``, ``united states``, ``named portland`` as one token).

The first step that finds a question decides; the benchmark's test examples come first. An
anonymised question usually fits several benchmark questions (``river in s0``: one per
state); any of them, with the placeholder read as its entity, is a valid pairing of the
rewrite, so :meth:`QuestionMatcher.match` hands out the candidates in turn to repeated
questions. Each match carries what the release's placeholders stand for, so a rewrite can be
given the entities of its original (:meth:`QuestionMatch.fill`).

Original to textattack-semparse. This module does not import TextAttack.
"""

from __future__ import annotations

import copy
import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.logical_form import logical_form_constants
from textattack_semparse.sql.literals import literal_words

PLACEHOLDER = re.compile(r"^(?:[a-z]+\d+|num_[a-z]+)$")
"""A release's anonymised entity: Dong & Lapata's ``s0``, ``ci1``, ``languageid0``, ``num_salary``."""

_ENTITY = "<e>"
_MAX_ENTITY_WORDS = 4
STEPS = ("words", "entities", "stems", "entity spans")
"""The matching steps, in the order they are tried (reported per match)."""


@dataclass(frozen=True)
class QuestionMatch:
    """A benchmark example found for a released question.

    Args:
        example (SemparseExample): The benchmark's example.
        position (int): Its index in the matcher's examples.
        placeholders (Mapping[str, str]): Release placeholder -> the benchmark words it stands
            for (``{"s0": "texas"}``); empty when the released question has none.
        step (str): The matching step that found it (one of :data:`STEPS`).
    """

    example: SemparseExample
    position: int
    placeholders: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    step: str = STEPS[0]

    def fill(self, text: str) -> str | None:
        """``text`` (a rewrite of the released question) with each placeholder replaced by
        what it stands for; ``None`` when ``text`` has a placeholder the original did not.

        Example:
            >>> match = QuestionMatch(SemparseExample("rivers in texas", "g"), 0, {"s0": "texas"})
            >>> match.fill("which rivers are located in s0 ?")
            'which rivers are located in texas ?'
        """
        unknown = [
            word for word in literal_words(text) if PLACEHOLDER.match(word) and word not in self.placeholders
        ]
        if unknown:
            return None
        if not self.placeholders:
            return text
        pattern = re.compile(
            r"(?<![\w-])(" + "|".join(re.escape(key) for key in sorted(self.placeholders, key=len, reverse=True)) + r")(?![\w-])",
            re.IGNORECASE,
        )
        return pattern.sub(lambda found: self.placeholders[found.group(1).lower()], text)


@dataclass(frozen=True)
class _Reading:
    """A benchmark question read for matching: its words, and the spans its constants cover."""

    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    @functools.cached_property
    def anonymised(self) -> tuple[str, ...]:
        starts = dict(self.spans)
        tokens: list[str] = []
        position = 0
        while position < len(self.words):
            if position in starts:
                tokens.append(_ENTITY)
                position = starts[position]
            else:
                tokens.append(self.words[position])
                position += 1
        return tuple(tokens)

    @functools.cached_property
    def stemmed_words(self) -> tuple[str, ...]:
        return tuple(_stem(word) for word in self.words)

    @functools.cached_property
    def stemmed_text(self) -> str:
        return " ".join(self.stemmed_words)

    def entity_words(self) -> list[str]:
        return [" ".join(self.words[start:end]) for start, end in self.spans]


class QuestionMatcher:
    """Finds the benchmark example a released question copies (see the module docstring).

    Args:
        examples (Sequence[SemparseExample]): The benchmark's examples, the likeliest first
            (its test split).

    Example:
        >>> matcher = QuestionMatcher([
        ...     SemparseExample("what rivers are in texas", "(lambda $0:e (loc:<lo,<lo,t>> $0 texas:s))"),
        ...     SemparseExample("what rivers are in ohio", "(lambda $0:e (loc:<lo,<lo,t>> $0 ohio:s))")])
        >>> match = matcher.match("What rivers are in Ohio ?")
        >>> match.example.question, match.step
        ('what rivers are in ohio', 'words')
        >>> [matcher.match("what river are in s0").fill("river in s0") for _ in range(2)]
        ['river in texas', 'river in ohio']
    """

    def __init__(self, examples: Sequence[SemparseExample]) -> None:
        self.examples = tuple(examples)
        self._readings = [_reading(example) for example in self.examples]
        self._by_words: dict[tuple[str, ...], list[int]] = {}
        self._by_entities: dict[tuple[str, ...], list[int]] = {}
        self._by_stems: dict[tuple[str, ...], list[int]] = {}
        for position, reading in enumerate(self._readings):
            self._by_words.setdefault(reading.words, []).append(position)
            self._by_entities.setdefault(reading.anonymised, []).append(position)
            self._by_stems.setdefault(_stems(reading.anonymised), []).append(position)
        self._handed_out: Counter[tuple[str, tuple[str, ...]]] = Counter()

    def restarted(self) -> QuestionMatcher:
        """This matcher with its turns forgotten (for another file: repeated questions start over)."""
        fresh = copy.copy(self)
        fresh._handed_out = Counter()
        return fresh

    def match(self, question: str) -> QuestionMatch | None:
        """The benchmark example ``question`` copies, or ``None`` when no step finds one.

        A question that fits several examples gets the next of them on each call (then the
        first again), so repeated anonymised questions spread over the examples they fit.
        """
        words = tuple(literal_words(question))
        if not words:
            return None
        tokens = tuple(_ENTITY if PLACEHOLDER.match(word) else word for word in words)
        placeholders = [word for word in words if PLACEHOLDER.match(word)]
        for step, index, key in (
            (STEPS[0], self._by_words, words),
            (STEPS[1], self._by_entities, tokens),
            (STEPS[2], self._by_stems, _stems(tokens)),
        ):
            positions = index.get(key)
            if positions:
                position = self._next(step, key, positions)
                if step == STEPS[0]:
                    return QuestionMatch(self.examples[position], position, _identity(placeholders), step)
                entities = self._readings[position].entity_words()
                return QuestionMatch(self.examples[position], position, _pairs(placeholders, entities), step)
        return self._match_spans(tokens, placeholders)

    def _match_spans(self, tokens: tuple[str, ...], placeholders: list[str]) -> QuestionMatch | None:
        if not placeholders:
            return None
        pattern = re.compile(
            " ".join(
                rf"(\S+(?: \S+){{0,{_MAX_ENTITY_WORDS - 1}}}?)" if token == _ENTITY else re.escape(token)
                for token in _stems(tokens)
            )
        )
        found = [
            (position, matched)
            for position, reading in enumerate(self._readings)
            if (matched := pattern.fullmatch(reading.stemmed_text))
        ]
        if not found:
            return None
        chosen = self._next(STEPS[3], tokens, [position for position, _ in found])
        matched = dict(found)[chosen]
        reading = self._readings[chosen]
        text = reading.stemmed_text
        entities = [
            " ".join(reading.words[text.count(" ", 0, matched.start(group)) : text.count(" ", 0, matched.end(group)) + 1])
            for group in range(1, len(placeholders) + 1)
        ]
        return QuestionMatch(self.examples[chosen], chosen, _pairs(placeholders, entities), STEPS[3])

    def _next(self, step: str, key: tuple[str, ...], positions: list[int]) -> int:
        turn = self._handed_out[step, key]
        self._handed_out[step, key] += 1
        return positions[turn % len(positions)]


def _reading(example: SemparseExample) -> _Reading:
    words = tuple(literal_words(example.question))
    spans: dict[int, int] = {}
    for constant in logical_form_constants(example.question, example.gold):
        start = constant.position
        end = start + len(literal_words(constant.spelling))
        if all(end <= other or start >= other_end for other, other_end in spans.items()):
            spans[start] = end
    return _Reading(words, tuple(sorted(spans.items())))


@functools.cache
def _stemmer() -> object:
    from nltk.stem import PorterStemmer

    return PorterStemmer()


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """Porter twice: an already-stemmed release word (``capit``) and the benchmark's
    (``capital``) meet at a fixed point more often than after one pass."""
    stemmer = _stemmer()
    return stemmer.stem(stemmer.stem(word))  # type: ignore[attr-defined]


def _stems(tokens: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(token if token == _ENTITY else _stem(token) for token in tokens)


def _pairs(placeholders: list[str], entities: list[str]) -> Mapping[str, str]:
    return MappingProxyType(dict(zip(placeholders, entities)))


def _identity(placeholders: list[str]) -> Mapping[str, str]:
    """The benchmark spells the question with the same placeholders (ATIS as Dong & Lapata ship it)."""
    return MappingProxyType({placeholder: placeholder for placeholder in placeholders})

