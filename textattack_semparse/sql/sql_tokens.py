"""SQL tokens normalised for comparison, and the token-level edit distance between queries."""

from __future__ import annotations

import functools
import operator
import re

from rapidfuzz.distance import Levenshtein
from sqlglot import TokenType, tokenize
from sqlglot.dialects.mysql import MySQL
from sqlglot.errors import SqlglotError

# Double quotes delimit strings in MySQL, the dialect GeoQuery/ATIS gold SQL is written in.
_DIALECT = "mysql"
_FALLBACK_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\w+|[^\w\s]")

# The fast tokenizer (`_fast_tokens`) reads ASCII words, numbers, quoted strings and operators;
# it leaves the whole text to sqlglot when it meets anything else (the regex's third group),
# comments, backslashes (MySQL string escapes), a quote inside a string of the other quote, or
# a literal glued to a word or number (1e3, 0x1F, 1abc, 1.5.2, N'x').
_PUNCTUATION = "(),.;*=+-/%<>!"
# Taken from sqlglot itself, so that the two tokenizers cannot drift: operators of several
# characters (<=>, ->>), keywords of two words (ORDER BY) and keywords of a word and
# punctuation (USER-DEFINED), each of which sqlglot reads as one token.
_OPERATORS = sorted(
    (key for key in MySQL.Tokenizer.KEYWORDS if key and set(key) <= set(_PUNCTUATION)), key=len, reverse=True
)
_PHRASES = frozenset(key.lower() for key in MySQL.Tokenizer.KEYWORDS if " " in key)
_PHRASE_STARTS = frozenset(phrase.split()[0] for phrase in _PHRASES)
_MIXED_KEYWORDS = [key for key in MySQL.Tokenizer.KEYWORDS if re.search(r"\w", key) and re.search(r"[^\w\s]", key)]
_MIXED_KEYWORD = re.compile("|".join(map(re.escape, _MIXED_KEYWORDS)), re.IGNORECASE)
_MIXED_MARKS = frozenset(char for key in _MIXED_KEYWORDS for char in key if not (char.isalnum() or char == "_"))
_FAST_TOKEN = re.compile(
    r"[ \t\n\r]*+(?:"
    r"([A-Za-z_][A-Za-z0-9_]*+(?!['\"])|\d++(?:\.\d++)?+(?![A-Za-z0-9_.'\"])|"
    + "|".join(map(re.escape, _OPERATORS))
    + "|["
    + re.escape(_PUNCTUATION)
    + r"])|('(?:[^'\"\\]|'')*+'|\"(?:[^\"'\\]|\"\")*+\")|(.))",
    re.DOTALL,
)
_OTHER = operator.itemgetter(2)
_FAST_LITERAL = re.compile(r"'(?:[^'\"\\]|'')*+'|\"(?:[^\"'\\]|\"\")*+\"")


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


def clear_token_cache() -> None:
    """Forget the tokens of every query read so far (they are cached per SQL text)."""
    _cached_tokens.cache_clear()


@functools.lru_cache(maxsize=4096)
def _cached_tokens(sql: str) -> tuple[str, ...]:
    fast = _fast_tokens(sql)
    return fast if fast is not None else _sqlglot_tokens(sql)


def _sqlglot_tokens(sql: str) -> tuple[str, ...]:
    """The tokens as sqlglot's MySQL tokenizer reads them (the reference :func:`_fast_tokens` follows)."""
    try:
        return tuple(
            _quote(token.text) if token.token_type == TokenType.STRING else token.text.lower()
            for token in tokenize(sql, read=_DIALECT)
        )
    except SqlglotError:
        return tuple(_normalise_fallback(token) for token in _FALLBACK_TOKEN.findall(sql))


def _fast_tokens(sql: str) -> tuple[str, ...] | None:
    """The tokens of plain SQL read by one regular expression (about eight times faster than
    sqlglot on GeoQuery's queries); ``None`` when the text holds anything whose reading only
    sqlglot settles.

    On the text it reads, the result equals :func:`_sqlglot_tokens` (tested on every gold query
    of GeoQuery, ATIS, Scholar, Advising and Spider, and on generated text).
    """
    if "--" in sql or "/*" in sql or "\\" in sql:
        return None
    if not _MIXED_MARKS.isdisjoint(sql) and _MIXED_KEYWORD.search(sql):
        return None
    if not sql.isascii():
        pieces = _FAST_TOKEN.findall(sql)
        if any(map(_OTHER, pieces)):
            return None
        tokens = [plain.lower() if plain else _literal(text) for plain, text, _ in pieces]
    else:  # ASCII lowercases in place, so the lowered text splits alike; literals keep their case
        pieces = _FAST_TOKEN.findall(sql.lower())
        if any(map(_OTHER, pieces)):
            return None
        tokens = [plain for plain, _, _ in pieces]
        if "'" in sql or '"' in sql:
            literals = iter(_FAST_LITERAL.findall(sql))  # every quote opens or closes one in text read this far
            tokens = [plain or _literal(next(literals)) for plain in tokens]
    if _PHRASE_STARTS.isdisjoint(tokens):
        return tuple(tokens)
    merged: list[str] = []  # two adjacent words are separated by whitespace only
    for token in tokens:
        if merged and f"{merged[-1]} {token}" in _PHRASES:
            merged[-1] = f"{merged[-1]} {token}"
        else:
            merged.append(token)
    return tuple(merged)


def _normalise_fallback(token: str) -> str:
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return _quote(token[1:-1].replace(token[0] * 2, token[0]))
    return token.lower()


def _literal(text: str) -> str:
    """A quoted literal as a token: its value, in single quotes."""
    return _quote(text[1:-1].replace(text[0] * 2, text[0]))


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
