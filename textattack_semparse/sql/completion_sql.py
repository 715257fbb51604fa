"""SQL from a completion: the one query an LLM's free-text answer contains.

Original to textattack-semparse. Completions of a prompt such as the "Create Table + Select 3"
prompt of Rajkumar, Li and Bahdanau (2022, https://arxiv.org/abs/2204.00498) continue the
prompt's ``SELECT``, wrap the query in a Markdown code fence, prefix it with a label
(``SQL:``), add prose after it, or go on to invent the next ``-- question``.
:func:`extract_sql` keeps the first query and drops the rest.

Example:
    >>> extract_sql("Here you go:\\n```sql\\nSELECT capital FROM state;\\n```\\nThis returns the capital.")
    'SELECT capital FROM state'
    >>> extract_sql(" COUNT(*) FROM state\\n\\n-- how many rivers are there\\nSELECT", prefix="SELECT")
    'SELECT COUNT(*) FROM state'
"""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.tokens import TokenType

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_LABEL = re.compile(r"^\s*(?:SQL(?:ite)?(?:\s+query)?|Query|Answer|A|Output)\s*:\s*", re.IGNORECASE)
_STATEMENT_START = re.compile(r"^\s*\(*\s*(?:SELECT|WITH|VALUES)\b", re.IGNORECASE)
_STATEMENT_LINE = re.compile(r"^[ \t]*\(*[ \t]*(?:SELECT|WITH)\b", re.IGNORECASE | re.MULTILINE)
_STOP_LINE = re.compile(r"^\s*(?:--|/\*|#|```|(?:Question|Q|Explanation|Note|Answer)\s*:)", re.IGNORECASE)
_CONTINUATION = re.compile(
    r"^\s*(?:\(|\)|,|FROM|WHERE|JOIN|INNER|LEFT|RIGHT|CROSS|NATURAL|OUTER|ON|USING|AND|OR|NOT|GROUP|ORDER|HAVING|"
    r"LIMIT|OFFSET|UNION|INTERSECT|EXCEPT|SELECT|AS|IN|EXISTS|CASE|WHEN|THEN|ELSE|END|DESC|ASC|BETWEEN|LIKE|IS)\b",
    re.IGNORECASE,
)
_PROSE_STARTS = frozenset(
    "this that these those the it its here i we you note explanation output result results answer "
    "which there thus so however".split()
)


def extract_sql(completion: str, *, prefix: str = "") -> str:
    """The first SQL query in an LLM completion, or ``""`` when it contains none.

    Steps: take the first Markdown code fence when there is one; drop a leading ``SQL:`` /
    ``Answer:`` label; re-attach ``prefix`` (the end of a prompt such as ``SELECT``) unless the
    text restarts the query; otherwise skip prose up to the first line starting with ``SELECT``
    or ``WITH``; cut at a comment line (a new ``-- question``), a blank line followed by prose,
    or a prose line; keep the first statement (split on ``;`` by sqlglot's tokenizer, so
    semicolons inside strings stay); strip whitespace and the final ``;``.

    Args:
        completion (str): The model's text.
        prefix (str, default ""): What the prompt ended with that belongs to the query.

    Returns:
        str: One query without trailing ``;``, or ``""``.

    Example:
        >>> extract_sql("SQL: SELECT name FROM city; SELECT 1;")
        'SELECT name FROM city'
        >>> extract_sql("I cannot answer that.")
        ''
    """
    if not isinstance(completion, str) or not completion.strip():
        return ""
    text = _LABEL.sub("", fenced_code(completion), count=1)
    if prefix.strip() and not _STATEMENT_START.match(text):
        continued = prefix.rstrip() + (text if text[:1].isspace() else " " + text)
        first_line = continued.strip().split("\n", 1)[0]
        if looks_like_prose(text.strip().split("\n", 1)[0]) and not parses_as_sql(_without_full_stop(first_line)):
            return ""
        text = continued
    else:
        start = _STATEMENT_LINE.search(text)
        if start is None:
            return ""
        text = text[start.start():]
    sql = first_statement(cut_trailing_text(text)).strip().rstrip(";").strip()
    if sql.endswith(".") and not parses_as_sql(sql) and parses_as_sql(_without_full_stop(sql)):
        sql = _without_full_stop(sql)  # a query the model ended like a sentence: "... FROM river."
    return "" if prefix.strip() and sql == prefix.strip() else sql


def parses_as_sql(text: str) -> bool:
    """Whether sqlglot parses ``text`` as one SQLite query.

    Example:
        >>> parses_as_sql("SELECT COUNT(*) FROM river"), parses_as_sql("SELECT I cannot answer that")
        (True, False)
    """
    try:
        return isinstance(sqlglot.parse_one(text, read="sqlite"), exp.Query)
    except SqlglotError:
        return False


def _without_full_stop(text: str) -> str:
    return text.rstrip().removesuffix(".").rstrip()


def fenced_code(text: str) -> str:
    """The body of the first Markdown code fence of ``text`` (an unclosed fence runs to the end),
    preferring an ``sql``-tagged fence; ``text`` unchanged when it has no fence.

    Example:
        >>> fenced_code("Query:\\n```sql\\nSELECT 1\\n```")
        'SELECT 1\\n'
        >>> fenced_code("SELECT 1")
        'SELECT 1'
    """
    fences = list(_FENCE.finditer(text))
    if not fences:
        return text
    tagged = [fence for fence in fences if fence.group(1).lower() in ("sql", "sqlite")]
    return (tagged or fences)[0].group(2)


def cut_trailing_text(sql: str) -> str:
    """``sql`` up to the first comment line, prose line, or blank line followed by non-SQL text.

    Example:
        >>> cut_trailing_text("SELECT a\\nFROM t\\n\\nThis lists a.")
        'SELECT a\\nFROM t'
        >>> cut_trailing_text("SELECT a\\n\\nFROM t\\n-- next question")
        'SELECT a\\n\\nFROM t'
    """
    lines = sql.split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        if index > 0 and (_STOP_LINE.match(line) or looks_like_prose(line)):
            break
        if not line.strip():
            following = next((later for later in lines[index + 1:] if later.strip()), None)
            if following is None or not _CONTINUATION.match(following):
                break
        kept.append(line)
    return "\n".join(kept).rstrip()


def looks_like_prose(line: str) -> bool:
    """Whether ``line`` reads as an English sentence rather than SQL.

    Example:
        >>> looks_like_prose("This query returns the capital."), looks_like_prose("WHERE a = 'x'.")
        (True, False)
        >>> looks_like_prose("I'm sorry, I cannot answer that.")
        True
    """
    words = line.split()
    if not words:
        return False
    first = re.sub(r"[^a-z].*$", "", words[0].lower())  # "I'm" -> "i"
    if first in _PROSE_STARTS and len(words) >= 3 and not _CONTINUATION.match(line):
        return True
    return (
        len(words) >= 4
        and line.rstrip().endswith((".", "!", "?", ":"))
        and not _CONTINUATION.match(line)
        and "'" not in line
        and '"' not in line
        and "=" not in line
    )


def first_statement(sql: str) -> str:
    """The text before the first top-level ``;`` (sqlglot's SQLite tokenizer; a naive split
    when the text does not tokenize, e.g. an unclosed quote).

    Example:
        >>> first_statement("SELECT ';' FROM t; DROP TABLE t")
        "SELECT ';' FROM t"
    """
    try:
        tokens = sqlglot.Dialect.get_or_raise("sqlite").tokenize(sql)
    except SqlglotError:
        return sql.split(";", 1)[0]
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            return sql[: token.start]
    return sql
