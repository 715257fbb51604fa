"""Denotation match of Table QA answers, as WikiTableQuestions' official evaluator judges them.

Pasupat and Liang (2015), "Compositional Semantic Parsing on Semi-Structured Tables",
https://arxiv.org/abs/1508.00305; the rules are those of the dataset's ``evaluator.py``
(version 1.0.2), re-implemented here:

* every answer value is read as a number (``int``/``float`` syntax), else as a date
  ``yyyy-mm-dd`` whose parts may be ``xx`` (a date with only a year is the number of the
  year), else as a string;
* a string is normalised: unicode NFKD with combining marks dropped, typographic quotes and
  dashes made ASCII, trailing citations (``[1]``, ``*``, ``†``...) and trailing parenthesised
  details removed, outermost double quotes removed (repeated until nothing changes), one
  trailing period removed, whitespace collapsed, lowercased;
* answers are sets (duplicate values collapse); a prediction is correct when it has as many
  values as the gold and every gold value matches one of them: equal normalised strings, or
  numbers within 1e-6, or dates equal in every part.

The official evaluator reads gold numbers and dates from CoreNLP's ``targetCanon`` column,
which the released ``data/*.tsv`` files do not carry. This scorer reads a gold value written
with thousands separators (``"12,467"``) as its number, the CoreNLP reading of such values;
other CoreNLP readings (``"17 years"`` as 17, ``"January 26, 1995"`` as a date) are not
reproduced, so those gold values match by their normalised text only.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.scoring.scorer import GoldError, Score, Scorer
from textattack_semparse.tables.answers import parse_answer

_QUOTES = str.maketrans({"‘": "'", "’": "'", "´": "'", "`": "'", "“": '"', "”": '"'})
_DASHES = str.maketrans(dict.fromkeys("‐‑‒–—−", "-"))
# One trailing citation mark: a bracketed note that does not open the string, a numeric
# note [12] anywhere, or a footnote symbol; the evaluator strips any run of them at the end.
_CITATIONS = re.compile(r"(?:(?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$")
# Trailing " (details)" groups, unless the string is nothing but them.
_PARENTHESES = re.compile(r"(?<!^)(?: \([^)]*\))*$")
_OUTER_QUOTES = re.compile(r'^"([^"]*)"$')
_WHITESPACE = re.compile(r"\s+")
_GROUPED_NUMBER = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_TOLERANCE = 1e-6


def normalize_answer_string(text: str) -> str:
    """WTQ's string normalisation of one answer value.

    Example:
        >>> normalize_answer_string("  Café “Noir” [1]")
        'cafe "noir"'
        >>> normalize_answer_string('"Hello World (band)."')
        'hello world (band)'
    """
    text = "".join(char for char in unicodedata.normalize("NFKD", text) if unicodedata.category(char) != "Mn")
    text = text.translate(_QUOTES).translate(_DASHES)
    while True:
        before = text
        text = _CITATIONS.sub("", text.strip())
        text = _PARENTHESES.sub("", text.strip())
        text = _OUTER_QUOTES.sub(r"\1", text.strip())
        if text == before:
            break
    if text.endswith("."):
        text = text[:-1]
    return _WHITESPACE.sub(" ", text).lower().strip()


@dataclass(frozen=True)
class _AnswerValue:
    """One answer value as the evaluator reads it.

    Args:
        normalized (str): The normalised text (:func:`normalize_answer_string`).
        number (float | None): The value as a number (an integral amount is stored exact).
        date (tuple[int, int, int] | None): Year, month, day; ``-1`` for an ``xx`` part.
    """

    normalized: str
    number: float | None = None
    date: tuple[int, int, int] | None = None

    @property
    def key(self) -> object:
        """What makes two values of one answer duplicates (the evaluator's set equality)."""
        if self.number is not None:
            return ("number", self.number)
        if self.date is not None:
            return ("date", self.date)
        return ("string", self.normalized)

    def matches(self, other: _AnswerValue) -> bool:
        """Whether this gold value is answered by the predicted value ``other``."""
        if self.normalized == other.normalized:
            return True
        if self.number is not None and other.number is not None:
            return abs(self.number - other.number) < _TOLERANCE
        return self.date is not None and self.date == other.date


def _read_value(text: str, *, gold: bool = False) -> _AnswerValue:
    """``text`` as a number, else a date, else a string (WTQ's ``to_value``).

    A gold value written with thousands separators also reads as its number (see the module
    docstring); a predicted one stays a string, as the evaluator reads prediction files.

    """
    canonical = text.replace(",", "") if gold and _GROUPED_NUMBER.fullmatch(text.strip()) else text
    normalized = normalize_answer_string(text)
    number = _number(canonical)
    if number is not None:
        return _AnswerValue(normalized, number=number)
    date = _date(canonical)
    if date is None:
        return _AnswerValue(normalized)
    if date[1] == date[2] == -1:
        return _AnswerValue(normalized, number=date[0])
    return _AnswerValue(normalized, date=date)


def _read_answer(values: Iterable[str], *, gold: bool = False) -> list[_AnswerValue]:
    """The distinct values of an answer (the evaluator treats an answer as a set)."""
    distinct: dict[object, _AnswerValue] = {}
    for text in values:
        value = _read_value(text, gold=gold)
        distinct.setdefault(value.key, value)
    return list(distinct.values())


@dataclass(frozen=True)
class TableAnswerScorer(Scorer):
    """A predicted answer is correct when its denotation matches the gold's, as WTQ judges.

    Both texts are answers in WTQ's ``targetValue`` format
    (:func:`~textattack_semparse.tables.answers.parse_answer`); the comparison is the
    official evaluator's (module docstring): same number of distinct values, every gold value
    matched by a predicted one as a normalised string, a number or a date. The distance of a
    wrong prediction is ``(unmatched gold values + unmatched predicted values + 1) /
    (gold values + predicted values + 1)``: 1.0 when nothing matches, smaller the more values
    agree. No database is needed.

    Example:
        >>> TableAnswerScorer().score("Siim Ennemuist|andri aganits", "Andri Aganits|Siim Ennemuist")
        Score(match=True, distance=0.0)
        >>> TableAnswerScorer().score("2", "2|3")
        Score(match=False, distance=0.5)
    """

    name = "denotation"

    def score(self, prediction: str, gold: str, databases: Sequence[Path] = ()) -> Score:
        if not isinstance(gold, str):
            raise GoldError(
                f"The gold answer {gold!r} is a {type(gold).__name__}; a Table QA gold is the answer text in "
                "WTQ's targetValue format (values joined by '|')."
            )
        targets = _read_answer(parse_answer(gold), gold=True)
        predicted = _read_answer(parse_answer(str(prediction)))
        unmatched_targets = sum(not any(target.matches(value) for value in predicted) for target in targets)
        if len(targets) == len(predicted) and unmatched_targets == 0:
            return Score(match=True, distance=0.0)
        unmatched_predicted = sum(not any(target.matches(value) for target in targets) for value in predicted)
        distance = (unmatched_targets + unmatched_predicted + 1) / (len(targets) + len(predicted) + 1)
        return Score(match=False, distance=distance)

    def distance(self, prediction: str, gold: str) -> float:
        return self.score(prediction, gold).distance


def _number(text: str) -> float | None:
    """``text`` as Python 2's ``int``/``float`` read it (no ``_`` separators, no NaN or infinity)."""
    if "_" in text:
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        amount = float(text)
    except ValueError:
        return None
    if math.isnan(amount) or math.isinf(amount):
        return None
    # As the evaluator: an amount within 1e-6 of an integer is truncated to int.
    return int(amount) if abs(amount - round(amount)) < _TOLERANCE else amount


def _date(text: str) -> tuple[int, int, int] | None:
    """``yyyy-mm-dd`` with ``xx`` (``xxxx`` for the year) for unknown parts, not all unknown."""
    parts = text.lower().split("-")
    if len(parts) != 3 or "_" in text:
        return None
    try:
        year = -1 if parts[0] in ("xx", "xxxx") else int(parts[0])
        month = -1 if parts[1] == "xx" else int(parts[1])
        day = -1 if parts[2] == "xx" else int(parts[2])
    except ValueError:
        return None
    if year == month == day == -1 or not (month == -1 or 1 <= month <= 12) or not (day == -1 or 1 <= day <= 31):
        return None
    return (year, month, day)
