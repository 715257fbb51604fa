"""SQL tokens normalised for comparison, and the token-level edit distance between queries."""

from __future__ import annotations

import functools
import re

from rapidfuzz.distance import Levenshtein
from sqlglot import TokenType, tokenize
from sqlglot.errors import SqlglotError

# Double quotes delimit strings in MySQL, the dialect GeoQuery/ATIS gold SQL is written in.
_DIALECT = "mysql"
_FALLBACK_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\w+|[^\w\s]")


def sql_tokens(sql: str) -> list[str]:
    """Tokens of ``sql``: keywords and identifiers lowercased, string literals in single quotes.

    Uses sqlglot's tokenizer with MySQL quoting, so ``"texas"`` and ``'texas'`` give the same
    token; string contents keep their case. SQL the tokenizer rejects (an unterminated string,
    say) is split on words and punctuation instead, so this never raises.

    Example:
        >>> sql_tokens('SELECT City_Name FROM city WHERE state_name = "Texas";')
        ['select', 'city_name', 'from', 'city', 'where', 'state_name', '=', "'Texas'", ';']
    """
    return list(_cached_tokens(sql))


def token_distance(a: str, b: str) -> float:
    """Levenshtein distance between the :func:`sql_tokens` of two queries, in [0, 1].

    The edit count is divided by the longer token sequence: 0.0 iff the tokens are equal,
    1.0 when no token lines up.

    Example:
        >>> token_distance("SELECT a FROM t", "select A from T")
        0.0
        >>> token_distance("SELECT a FROM t", "SELECT b FROM t")
        0.25
    """
    return float(Levenshtein.normalized_distance(_cached_tokens(a), _cached_tokens(b)))


@functools.lru_cache(maxsize=4096)
def _cached_tokens(sql: str) -> tuple[str, ...]:
    try:
        return tuple(
            _quote(token.text) if token.token_type == TokenType.STRING else token.text.lower()
            for token in tokenize(sql, read=_DIALECT)
        )
    except SqlglotError:
        return tuple(_normalise_fallback(token) for token in _FALLBACK_TOKEN.findall(sql))


def _normalise_fallback(token: str) -> str:
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return _quote(token[1:-1].replace(token[0] * 2, token[0]))
    return token.lower()


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
