"""Database values a question may mention, with their types, and where a question mentions them.

Finegan-Dollak et al. (2018), "Improving Text-to-SQL Evaluation Methodology" (ACL,
https://aclanthology.org/P18-1033/), anonymise the values of a question into typed
placeholders (``state_name0``); Dong & Lapata (2016, https://aclanthology.org/P16-1004/) do
the same for logical-form constants. A :class:`ValueLexicon` finds those values in new
questions: the template retriever (``KNNTemplateParser``) and the trained parsers' entity
anonymisation (:mod:`textattack_semparse.datasets.entity_anonymization`) both read questions
through it.

This module does not import TextAttack.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.sql.sqlite_schema import quote_identifier

# ``ALIAS.COLUMN = "placeholder"`` (also <>, !=, LIKE, with optional % wildcards).
_COMPARISON = re.compile(r'(\w+)\.(\w+)\s*(?:=|<>|!=|\bLIKE\b)\s*"%?(\w+)%?"', re.IGNORECASE)
_TABLE_ALIAS = re.compile(r"\b(\w+)\s+AS\s+(\w+)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Mention:
    """A value found in a (normalised) question: its span, spelling and types (likeliest first)."""

    start: int
    end: int
    value: str
    types: tuple[str, ...]


class ValueLexicon:
    """Normalised value -> (spelling, types by training frequency), and the segmenters over it.

    A segmenter is a list of patterns matched in turn, each in the gaps the earlier ones
    left: the whole lexicon at once and, when the lexicon has both, training values before
    database values (so "the mississippi river" can be the river "mississippi", not only
    the lowest point "mississippi river", while "kansas city" stays a city).

    Args:
        entries (Mapping[str, tuple[str, Sequence[str]]]): Normalised value -> its spelling
            and its types, likeliest first.
        training_keys (Collection[str] | None, default None): The entries seen in training
            questions; ``None`` means all of them.

    Example:
        >>> lexicon = ValueLexicon({"new york": ("new york", ["state_name", "city_name"])})
        >>> [(m.value, m.types) for m in lexicon.segmentations("rivers in new york")[0]]
        [('new york', ('state_name', 'city_name'))]
    """

    def __init__(
        self,
        entries: Mapping[str, tuple[str, Sequence[str]]],
        training_keys: Collection[str] | None = None,
    ) -> None:
        self.entries = {key: (spelling, tuple(types)) for key, (spelling, types) in entries.items()}
        self.training_keys = frozenset(self.entries if training_keys is None else training_keys)
        if not self.entries:
            self._segmenters: list[list[re.Pattern[str]]] = [[]]
            return
        database_keys = set(self.entries) - self.training_keys
        self._segmenters = [[word_pattern(self.entries)]]
        if self.training_keys and database_keys:
            self._segmenters.append([word_pattern(self.training_keys), word_pattern(database_keys)])

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def from_examples(
        cls, examples: Iterable[SemparseExample], *, database: str | os.PathLike[str] | None = None
    ) -> ValueLexicon:
        """The training variables' values with their variable types and, with a ``database``,
        the string values of every column a training template compares a placeholder with
        (``CITY.STATE_NAME = "state_name0"`` makes every value of ``CITY.STATE_NAME`` a
        ``state_name``), except values the training questions use as ordinary words ("high
        point" is also a city)."""
        examples = list(examples)
        type_counts: dict[str, Counter[str]] = {}
        spellings: dict[str, str] = {}
        for example in examples:
            for name, value in example.variables.items():
                value_type = example.variable_types.get(name)
                key = normalize_text(value)
                if value_type is None or not key:
                    continue
                type_counts.setdefault(key, Counter())[value_type] += 1
                spellings.setdefault(key, value)
        training_keys = set(type_counts)
        if database is not None and Path(database).is_file():
            phrases = word_ngrams(example.template_question or example.question for example in examples)
            for value, value_type in _database_values(examples, Path(database)):
                key = normalize_text(value)
                if key in training_keys or key not in phrases:
                    type_counts.setdefault(key, Counter()).setdefault(value_type, 0)
                    spellings.setdefault(key, value)
        entries = {
            key: (spellings[key], sorted(counts, key=lambda value_type: (-counts[value_type], value_type)))
            for key, counts in type_counts.items()
        }
        return cls(entries, training_keys)

    def segmentations(self, text: str) -> list[tuple[Mention, ...]]:
        """The distinct segmentations of a normalised ``text`` into values, one per segmenter
        (leftmost-longest matches of its first pattern, then of the next ones in the gaps)."""
        found: list[tuple[Mention, ...]] = []
        for passes in self._segmenters:
            spans: list[tuple[int, int]] = []
            for pattern in passes:
                spans = sorted(
                    spans
                    + [
                        match.span()
                        for start, end in _gaps(spans, len(text))
                        for match in pattern.finditer(text, start, end)
                    ]
                )
            mentions = tuple(Mention(start, end, *self.entries[text[start:end]]) for start, end in spans)
            if mentions not in found:
                found.append(mentions)
        return found

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (:meth:`from_dict` reads it back)."""
        return {
            "entries": {key: [spelling, list(types)] for key, (spelling, types) in sorted(self.entries.items())},
            "training_keys": sorted(self.training_keys),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ValueLexicon:
        return cls(
            {key: (spelling, types) for key, (spelling, types) in data["entries"].items()},
            data["training_keys"],
        )


def normalize_text(text: str) -> str:
    """Lower-cased, whitespace collapsed: the form questions are read in."""
    return " ".join(text.lower().split())


def word_pattern(phrases: Collection[str]) -> re.Pattern[str]:
    """Match any of ``phrases`` as whole words, longest first."""
    alternatives = sorted(phrases, key=lambda phrase: (-len(phrase), phrase))
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, alternatives)) + r")(?!\w)")


def _database_values(examples: list[SemparseExample], database: Path) -> list[tuple[str, str]]:
    """String values of every column a training placeholder is compared with, typed."""
    column_types: set[tuple[str, str, str]] = set()
    for example in examples:
        template_gold = example.template_gold or ""
        aliases = {alias.lower(): table for table, alias in _TABLE_ALIAS.findall(template_gold)}
        for alias, column, name in _COMPARISON.findall(template_gold):
            if name in example.variable_types:
                table = aliases.get(alias.lower(), alias)
                column_types.add((table, column, example.variable_types[name]))
    values: list[tuple[str, str]] = []
    connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        for table, column, value_type in sorted(column_types):
            try:
                selected = f"SELECT DISTINCT {quote_identifier(column)} FROM {quote_identifier(table)}"
                rows = connection.execute(selected).fetchall()
            except sqlite3.Error:
                continue  # a column the templates name but the database lacks adds no values
            values.extend(
                (value.strip(), value_type)
                for (value,) in rows
                if isinstance(value, str) and len(value.strip()) > 1 and re.search(r"[^\W\d_]", value)
            )
    finally:
        connection.close()
    return values


def word_ngrams(texts: Iterable[str], max_n: int = 6) -> set[str]:
    """Every run of up to ``max_n`` words in the normalised ``texts``."""
    ngrams: set[str] = set()
    for text in texts:
        words = normalize_text(text).split()
        for n in range(1, max_n + 1):
            ngrams.update(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))
    return ngrams


def _gaps(spans: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    """The stretches of ``[0, length)`` that no span of the sorted, disjoint ``spans`` covers."""
    gaps = []
    last = 0
    for start, end in spans:
        if start > last:
            gaps.append((last, start))
        last = end
    if last < length:
        gaps.append((last, length))
    return gaps
