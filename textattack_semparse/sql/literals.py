"""Database values in a gold query and the question words that carry them.

A meaning-preserving perturbation must leave the words that name the query's database
values intact ("missouri" in "population of missouri", both words of "new york").
:func:`sql_literals` lists the string and numeric literals of a SQL query with sqlglot's
tokenizer, which does not need the query to parse (GeoQuery has a query with a broken
alias) and, in the default ``mysql`` dialect, reads GeoQuery's double-quoted ``"texas"``
as a string. :func:`literal_word_indices` finds those values in a question's word list,
tokenised the way TextAttack splits words.

Example:
    >>> sql_literals('SELECT population FROM city WHERE city_name = "new york" AND x > 150000')
    ['new york', '150000']
    >>> sorted(literal_word_indices("what is the population of new york".split(), ["new york"]))
    [5, 6]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import SqlglotError
from sqlglot.tokens import TokenType

_LITERAL_TOKENS = frozenset(
    {
        TokenType.STRING,
        TokenType.NATIONAL_STRING,
        TokenType.RAW_STRING,
        TokenType.UNICODE_STRING,
        TokenType.NUMBER,
    }
)
# Used only when sqlglot cannot tokenize the query (e.g. an unterminated string).
_FALLBACK_LITERAL = re.compile(r"'([^']*)'|\"([^\"]*)\"|(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])")
# A span in double or typographic quotes, or in single quotes that are not apostrophes ("what's").
_QUOTED_SPAN = re.compile(r"\"([^\"]+)\"|\u201c([^\u201d]+)\u201d|(?<!\w)'([^']+)'(?!\w)")
# TextAttack's ``words_from_text``: runs of word characters and ' - _ * @, ends trimmed.
_WORD = re.compile(r"[\w'\-*@]+")
_WORD_EDGES = "'-_*@"


def sql_literals(sql: str, *, dialect: str = "mysql") -> list[str]:
    """String and numeric literals of ``sql`` in order of first appearance, without duplicates.

    Args:
        sql (str): The query.
        dialect (str): sqlglot dialect used to tokenize; ``"mysql"`` (default) treats both
            ``'...'`` and ``"..."`` as strings, as GeoQuery, ATIS and Spider golds need.

    Returns:
        list[str]: Literal values as written (quotes removed, case kept).
    """
    return list(_sql_literals(sql, dialect))


@functools.lru_cache(maxsize=4096)
def _sql_literals(sql: str, dialect: str) -> tuple[str, ...]:
    try:
        tokens = Dialect.get_or_raise(dialect).tokenize(sql)
        values: Iterable[str] = (t.text for t in tokens if t.token_type in _LITERAL_TOKENS)
    except SqlglotError:
        values = ("".join(groups) for groups in _FALLBACK_LITERAL.findall(sql))
    return tuple(dict.fromkeys(value for value in values if value.strip()))


def quoted_values(question: str) -> list[str]:
    """The spans ``question`` puts in quotes: values its asker typed, which a rewrite must keep
    even where the gold spells them otherwise (Spider's gold for 'whose hometown is not "Little
    Lever Urban District"' reads ``"Little Lever Urban Distric"``).

    Example:
        >>> quoted_values('cities named "new york" or "boston"'), quoted_values("who's from 'Ann Arbor'")
        (['new york', 'boston'], ['Ann Arbor'])
    """
    return ["".join(groups) for groups in _QUOTED_SPAN.findall(question) if "".join(groups).strip()]


def literal_words(literal: str) -> list[str]:
    """Lowercased words of ``literal``, split as TextAttack splits a text into words.

    Example:
        >>> literal_words("St. Louis")
        ['st', 'louis']
    """
    # One pass over the whole text: a run of word characters never spans whitespace, and trimming
    # the marks off each run also trims them off the ends of its chunk.
    return [word for run in _WORD.findall(literal.lower()) if (word := run.strip(_WORD_EDGES))]


@functools.lru_cache(maxsize=4096)
def literal_phrase(literal: str) -> tuple[str, ...]:
    """:func:`literal_words` of ``literal`` as a tuple, remembered: a dataset's literals are looked
    for again in question after question.

    Example:
        >>> literal_phrase("New York")
        ('new', 'york')
    """
    return tuple(literal_words(literal))


def literal_word_indices(words: Sequence[str], literals: Iterable[str]) -> set[int]:
    """Indices of ``words`` covered by a contiguous, case-insensitive match of a literal, its last
    word (of three letters or more) also in the plural (the gold's ``'fiat'`` in "countries that
    produce fiats", ``'House'`` in "either houses or apartments": the question names the value).

    Every occurrence of every literal is matched; a literal whose word sequence does not
    occur contributes nothing.

    Args:
        words (Sequence[str]): The question's words (e.g. ``AttackedText.words``).
        literals (Iterable[str]): Values such as those from :func:`sql_literals`.

    Returns:
        set[int]: Word indices that carry a literal.
    """
    lowered = [word.lower() for word in words]
    present = set(lowered)  # most spellings (a plural, another question's value) are not there: one look-up each
    indices: set[int] = set()
    for literal in literals:
        for phrase in literal_spellings(literal):
            if phrase[0] in present:
                for start in phrase_starts(lowered, phrase):
                    indices.update(range(start, start + len(phrase)))
    return indices


@functools.lru_cache(maxsize=4096)
def literal_spellings(literal: str) -> tuple[tuple[str, ...], ...]:
    """The word sequences :func:`literal_word_indices` looks for: :func:`literal_phrase`, then its
    plurals when its last word has three letters or more (none for a literal without words)."""
    target = literal_phrase(literal)
    if not target:
        return ()
    *head, last = target
    plurals = ((*head, last + "s"), (*head, last + "es")) if len(last) > 2 and last.isalpha() else ()
    return (target, *plurals)


def phrase_starts(words: Sequence[str], phrase: tuple[str, ...]) -> list[int]:
    """Where ``phrase`` (not empty) occurs in ``words``, as the index of its first word.

    Example:
        >>> phrase_starts(["new", "york", "in", "new", "york"], ("new", "york"))
        [0, 3]
    """
    first, span = phrase[0], len(phrase)
    return [
        start
        for start in range(len(words) - span + 1)
        if words[start] == first and (span == 1 or tuple(words[start : start + span]) == phrase)
    ]
