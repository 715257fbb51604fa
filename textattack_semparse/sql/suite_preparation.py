"""How test-suite evaluation rewrites a query before running it.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/), as run by test-suite-sql-eval's
``eval_exec_match`` with Spider's defaults (``keep_distinct=False``, ``plug_value=False``),
rewrites both the predicted and the gold query before executing them:

1. ``> =``, ``< =`` and ``! =`` become ``>=``, ``<=`` and ``!=`` (model tokenizers split them);
2. only the first statement is kept;
3. ``YEAR(CURDATE())`` becomes ``2020`` (the year the benchmark's answers were fixed);
4. every ``DISTINCT`` set quantifier is removed, in ``COUNT(DISTINCT x)`` too.

:func:`prepare_for_test_suite` applies all four. The code is original to textattack-semparse;
only the behaviour follows the paper's evaluator.
"""

from __future__ import annotations

import functools
import re

import sqlglot
from sqlglot.errors import SqlglotError
from sqlglot.tokens import TokenType

# A quoted literal or identifier, or a comment; an unterminated one runs to the end of the text.
_LITERAL_OR_COMMENT = re.compile(
    r"'(?:[^']|'')*(?:'|\Z)|\"(?:[^\"]|\"\")*(?:\"|\Z)|`[^`]*(?:`|\Z)|\[[^\]]*(?:\]|\Z)"
    r"|--[^\n]*|/\*.*?(?:\*/|\Z)",
    re.DOTALL,
)
_CLOSED = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\[[^\]]*\]|/\*.*?\*/", re.DOTALL)
_LITERAL_COMMENT_OR_SEMICOLON = re.compile(f"{_LITERAL_OR_COMMENT.pattern}|;", re.DOTALL)
# "distinct" as a whole word (spaces, parentheses, commas or the text's ends around it), and
# whether FROM follows it.
_DISTINCT_WORD = re.compile(r"(?<![^\s(),])distinct(?=[\s(),]|\Z)(\s+from(?![^\s(),]))?", re.IGNORECASE)
_SPACED_COMPARISON = re.compile(r"([<>!]) =")
_CURRENT_YEAR = re.compile(r"YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*", re.IGNORECASE)


def repair_spaced_comparisons(sql: str) -> str:
    """Join the operators ``> =``, ``< =`` and ``! =`` into ``>=``, ``<=`` and ``!=``.

    A plain text substitution (a single space between the two characters), applied
    everywhere in the text, as test-suite-sql-eval's ``postprocess`` does.

    Example:
        >>> repair_spaced_comparisons("SELECT name FROM city WHERE population > = 100 AND id ! = 3")
        'SELECT name FROM city WHERE population >= 100 AND id != 3'
    """
    return _SPACED_COMPARISON.sub(r"\1=", sql)


def first_statement(sql: str) -> str:
    """The text up to and including the first ``;`` outside literals, identifiers and comments.

    Example:
        >>> first_statement("SELECT ';' FROM city; DROP TABLE city")
        "SELECT ';' FROM city;"
        >>> first_statement("SELECT name FROM city")
        'SELECT name FROM city'
    """
    if ";" not in sql or (sql.endswith(";") and sql.count(";") == 1):
        return sql  # the only ';' ends the text: cut there or not, the text is the same
    for token in _LITERAL_COMMENT_OR_SEMICOLON.finditer(sql):
        if token.group() == ";":
            return sql[: token.end()]
    return sql


def replace_current_year(sql: str) -> str:
    """Replace MySQL's ``YEAR(CURDATE())`` (unknown to SQLite) with the constant ``2020``.

    Example:
        >>> replace_current_year("SELECT name FROM people WHERE YEAR(CURDATE()) - birth_year > 30")
        'SELECT name FROM people WHERE 2020- birth_year > 30'
    """
    return _CURRENT_YEAR.sub("2020", sql)


def remove_distinct(sql: str) -> str:
    """Delete every ``DISTINCT`` keyword: ``SELECT DISTINCT`` and ``COUNT(DISTINCT x)`` alike.

    sqlglot's SQLite tokenizer finds the keyword, so ``'distinct'`` in a string literal, a
    quoted identifier or a comment is left alone, and so is the comparison operator
    ``IS [NOT] DISTINCT FROM``. Only the keyword is cut out; the rest of the text is kept
    byte for byte. SQL that sqlglot cannot tokenize (an unterminated literal, say) is
    returned unchanged, to be run as is.

    Example:
        >>> remove_distinct("SELECT DISTINCT state_name, COUNT(distinct city_name) FROM city")
        'SELECT  state_name, COUNT( city_name) FROM city'
        >>> remove_distinct("SELECT 'distinct' FROM city WHERE a IS NOT DISTINCT FROM b")
        "SELECT 'distinct' FROM city WHERE a IS NOT DISTINCT FROM b"
    """
    if "DISTINCT" not in sql.upper():  # upper(), not lower(): sqlglot reads 'DıSTINCT' (dotless i) as the keyword
        return sql
    settled = _distinct_removed_from_text(sql)
    return _distinct_removed_by_tokens(sql) if settled is None else settled


def _distinct_removed_from_text(sql: str) -> str | None:
    """:func:`remove_distinct` without sqlglot, or ``None`` when only its tokenizer can tell.

    The text settles it when it is ASCII without backslashes, ends in no unterminated literal,
    quoted identifier or block comment, and, those blanked out, every ``distinct`` left is a whole word between spaces,
    parentheses and commas that no ``FROM`` follows (so none belongs to ``IS [NOT] DISTINCT
    FROM``). The two agree on every gold query of GeoQuery, ATIS and Spider (``tests/sql``).
    """
    if not sql.isascii() or "\\" in sql:
        return None
    spans = list(_LITERAL_OR_COMMENT.finditer(sql))
    last = spans[-1].group() if spans else ""
    if last and spans[-1].end() == len(sql) and not last.startswith("--") and not _CLOSED.fullmatch(last):
        return None  # unterminated, which the tokenizer refuses
    blanked = _LITERAL_OR_COMMENT.sub(lambda match: " " * len(match.group()), sql)
    words = list(_DISTINCT_WORD.finditer(blanked))
    if len(words) != blanked.upper().count("DISTINCT") or any(word.group(1) for word in words):
        return None
    for word in reversed(words):
        sql = sql[: word.start()] + sql[word.start() + len("distinct") :]
    return sql


def _distinct_removed_by_tokens(sql: str) -> str:
    """:func:`remove_distinct` as sqlglot's SQLite tokenizer finds the keyword."""
    try:
        tokens = sqlglot.tokenize(sql, read="sqlite")
    except (SqlglotError, RecursionError, ValueError):
        return sql
    cuts: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if token.token_type != TokenType.DISTINCT or _is_distinct_from(tokens, index):
            continue
        cuts.append((token.start, token.end + 1))
    for start, end in reversed(cuts):
        sql = sql[:start] + sql[end:]
    return sql


def _is_distinct_from(tokens: list, index: int) -> bool:
    """Whether the ``DISTINCT`` at ``index`` is part of ``IS [NOT] DISTINCT FROM``."""
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if following is None or following.token_type != TokenType.FROM:
        return False
    before = index - 1
    if before >= 0 and tokens[before].token_type == TokenType.NOT:
        before -= 1
    return before >= 0 and tokens[before].token_type == TokenType.IS


@functools.lru_cache(maxsize=4096)
def prepare_for_test_suite(sql: str) -> str:
    """Rewrite ``sql`` as test-suite evaluation runs it (both predicted and gold queries).

    Applies :func:`repair_spaced_comparisons`, :func:`first_statement`,
    :func:`replace_current_year` and :func:`remove_distinct`, in that order.

    Example:
        >>> prepare_for_test_suite("SELECT DISTINCT name FROM city WHERE population > = 5; SELECT 1")
        'SELECT  name FROM city WHERE population >= 5;'
    """
    if " =" in sql:  # the regular expressions below find nothing in text without their marks
        sql = repair_spaced_comparisons(sql)
    sql = first_statement(sql)
    if "CURDATE" in sql.upper():
        sql = replace_current_year(sql)
    return remove_distinct(sql)  # which checks for its own mark
