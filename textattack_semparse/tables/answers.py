"""Table QA answers as one string: WikiTableQuestions' ``targetValue`` format.

An answer is a list of values; its text joins them with ``|`` after escaping each value as
WTQ's TSV files do (:func:`~textattack_semparse.tables.table.escape_wtq`), so the gold of a WTQ
example is its ``targetValue`` column verbatim (Pasupat and Liang 2015,
https://arxiv.org/abs/1508.00305). Victims return predictions in the same format.
"""

from __future__ import annotations

from collections.abc import Sequence

from textattack_semparse.tables.table import escape_wtq, unescape_wtq


def format_answer(values: Sequence[str]) -> str:
    """The answer text of ``values``.

    Example:
        >>> format_answer(["Siim Ennemuist", "a|b"])
        'Siim Ennemuist|a\\\\pb'
    """
    if isinstance(values, str):
        raise TypeError(f"format_answer takes a list of values, got the string {values!r}; wrap it as [{values!r}].")
    return "|".join(escape_wtq(str(value)) for value in values)


def parse_answer(text: str) -> list[str]:
    """The values of an answer text (``""`` is the empty answer).

    Example:
        >>> parse_answer(format_answer(["Siim Ennemuist", "a|b"]))
        ['Siim Ennemuist', 'a|b']
    """
    return [] if text == "" else [unescape_wtq(value) for value in text.split("|")]
