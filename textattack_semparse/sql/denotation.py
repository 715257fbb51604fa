"""Denotation (execution-result) equality of two queries, and whether order matters.

Two comparisons: :func:`denotations_match` with :func:`query_is_ordered` (the ``classical``
mode of :func:`~textattack_semparse.sql.execution.execution_match`), and
:func:`denotations_match_test_suite` with :func:`query_is_ordered_test_suite` (its
``test-suite`` mode, the semantics of Zhong, Yu and Klein 2020).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.sql.suite_preparation import first_statement

Row = tuple[Any, ...]
#: Above this many rows an unordered comparison with numeric tolerance pairs rows after
#: sorting instead of searching for a full matching.
MAX_MATCHING_ROWS = 64

# Quoted literals and identifiers, and comments; an unterminated one runs to the end of the text.
_LITERAL_OR_COMMENT = re.compile(
    r"'(?:[^']|'')*(?:'|\Z)|\"(?:[^\"]|\"\")*(?:\"|\Z)|`[^`]*(?:`|\Z)|\[[^\]]*(?:\]|\Z)"
    r"|--[^\n]*|/\*.*?(?:\*/|\Z)",
    re.DOTALL,
)
_ORDER_BY = re.compile(r"\border\s+by\b", re.IGNORECASE)
_ORDER = re.compile("order", re.IGNORECASE)
_PARENTHESES = re.compile(r"([()])")
# Where the outermost query is not plainly the text outside parentheses: a set operation, or a
# second statement.
_AMBIGUOUS_TOP_LEVEL = re.compile(r"\b(?:union|intersect|except)\b|;\s*\S", re.IGNORECASE)


def denotations_match(
    predicted: ExecutionResult,
    gold: ExecutionResult,
    *,
    ordered: bool,
    rel_tol: float = 1e-6,
    abs_tol: float = 1e-9,
) -> bool:
    """Whether two execution results denote the same answer.

    Rows are compared as multisets (duplicates count), or as sequences when ``ordered``
    (decide it from the gold query with :func:`query_is_ordered`). Numbers compare by value
    with :func:`math.isclose` (``3 == 3.0``), ``NULL`` equals ``NULL``, strings and blobs
    compare exactly, and column names are ignored. A failed or timed-out result never
    matches. Truncated results match only if both were truncated and the kept rows agree.

    Example:
        >>> a = ExecutionResult(rows=((3, "austin"), (None, "dallas")), columns=("n", "c"))
        >>> b = ExecutionResult(rows=((None, "dallas"), (3.0, "austin")), columns=("x", "y"))
        >>> denotations_match(a, b, ordered=False), denotations_match(a, b, ordered=True)
        (True, False)
    """
    if not (predicted.ok and gold.ok) or predicted.truncated != gold.truncated:
        return False
    if len(predicted.rows) != len(gold.rows):
        return False
    close = functools.partial(_rows_match, rel_tol=rel_tol, abs_tol=abs_tol)
    if ordered:
        return all(close(p, g) for p, g in zip(predicted.rows, gold.rows))
    return _multisets_match(predicted.rows, gold.rows, close)


@functools.lru_cache(maxsize=4096)
def query_is_ordered(sql: str) -> bool:
    """Whether the outermost query of ``sql`` has an ``ORDER BY``.

    Decided from the text when it settles the question (:func:`_ordered_from_text`), else
    parsed with sqlglot; SQL that sqlglot cannot parse falls back to looking for ``ORDER BY``
    outside parentheses, string literals and comments.

    Example:
        >>> query_is_ordered("SELECT name FROM city ORDER BY population DESC")
        True
        >>> query_is_ordered("SELECT name FROM (SELECT name FROM city ORDER BY name)")
        False
    """
    decided = _ordered_from_text(sql)
    return _ordered_from_parse(sql) if decided is None else decided


def _ordered_from_text(sql: str) -> bool | None:
    """:func:`query_is_ordered` without a parse, or ``None`` when only a parse can tell.

    No ``order`` anywhere, or no ``ORDER BY`` outside literals and comments: unordered. One
    statement that does not start with a parenthesis, with balanced parentheses and no
    ``UNION``/``INTERSECT``/``EXCEPT`` outside them (where sqlglot may attach a misplaced
    ``ORDER BY`` to one side): ordered iff ``ORDER BY`` occurs outside parentheses. The two
    decisions agree on every gold query of GeoQuery, ATIS and Spider (``tests/sql``).
    """
    if _ORDER.search(sql) is None:
        return False
    text = _LITERAL_OR_COMMENT.sub(" ", sql)
    if _ORDER_BY.search(text) is None:
        return False
    top_level = _top_level(text)
    if top_level is None or text.lstrip().startswith("(") or _AMBIGUOUS_TOP_LEVEL.search(top_level):
        return None
    return _ORDER_BY.search(top_level) is not None


def _ordered_from_parse(sql: str) -> bool:
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except (SqlglotError, RecursionError):
        return _has_top_level_order_by(sql)
    if not isinstance(tree, exp.Query):
        return _has_top_level_order_by(sql)
    while True:
        if tree.args.get("order") is not None:
            return True
        if not isinstance(tree, exp.Subquery):
            return False
        tree = tree.this


def _top_level(text: str) -> str | None:
    """``text`` (literals and comments blanked) with everything inside parentheses blanked;
    ``None`` when its parentheses do not balance."""
    if "(" not in text and ")" not in text:
        return text
    depth = 0
    kept: list[str] = []
    for piece in _PARENTHESES.split(text):
        if piece == "(":
            depth += 1
        elif piece == ")":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0:
            kept.append(piece)
        kept.append(" ")
    return "".join(kept) if depth == 0 else None


def _has_top_level_order_by(sql: str) -> bool:
    """Text fallback: ``ORDER BY`` at parenthesis depth 0, ignoring literals and comments."""
    text = _LITERAL_OR_COMMENT.sub(" ", sql)
    depth = 0
    top_level: list[str] = []
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        top_level.append(char if depth == 0 and char != ")" else " ")
    return _ORDER_BY.search("".join(top_level)) is not None


def denotations_match_test_suite(
    predicted: ExecutionResult, gold: ExecutionResult, *, ordered: bool
) -> bool:
    """Whether two results are equal under test-suite evaluation's rules.

    The semantics of ``result_eq`` in test-suite-sql-eval (Zhong, Yu and Klein 2020,
    "Semantic Evaluation for Text-to-SQL with Distilled Test Suites",
    https://aclanthology.org/2020.emnlp-main.29/); the code is original to
    textattack-semparse:

    - two empty results match, whatever their columns; different row counts never match;
    - the prediction may return the gold's columns in another order: the results match when
      some permutation of the predicted columns makes the rows equal, as multisets, or as
      sequences when ``ordered`` (decide it with :func:`query_is_ordered_test_suite`);
    - values compare with Python's ``==``, without tolerance (``15 != 14.999999999999998``),
      so ``1`` equals ``1.0`` in a one-column result; but first every row's cells are sorted
      by ``str(value) + str(type(value))`` and those sorted rows must agree as sets (as
      sequences when ``ordered``), which rejects ``(1, 1001)`` against ``(1.0, 1001)``
      (the cells sort as ``1001, 1`` and ``1.0, 1001``);
    - column names are ignored; a failed or timed-out result never matches; a truncated
      result matches only another truncated result (the row cap is this package's).

    Example:
        >>> gold = ExecutionResult(rows=(("austin", 3), ("dallas", 1)), columns=("c", "n"))
        >>> swapped = ExecutionResult(rows=((1, "dallas"), (3, "austin")), columns=("n", "c"))
        >>> denotations_match_test_suite(swapped, gold, ordered=False)
        True
        >>> denotations_match_test_suite(swapped, gold, ordered=True)
        False
        >>> one = ExecutionResult(rows=((1,),), columns=("x",))
        >>> denotations_match_test_suite(ExecutionResult(rows=((1.0,),), columns=("x",)), one, ordered=False)
        True
        >>> pair = ExecutionResult(rows=((1, 1001),), columns=("x", "y"))
        >>> denotations_match_test_suite(ExecutionResult(rows=((1.0, 1001),), columns=("x", "y")), pair, ordered=False)
        False
    """
    if not (predicted.ok and gold.ok) or predicted.truncated != gold.truncated:
        return False
    left, right = predicted.rows, gold.rows
    if not left and not right:
        return True
    if len(left) != len(right) or len(left[0]) != len(right[0]):
        return False
    left_sorted = [_cells_sorted_by_text(row) for row in left]
    right_sorted = [_cells_sorted_by_text(row) for row in right]
    if ordered and left_sorted != right_sorted:
        return False
    if not ordered and set(left_sorted) != set(right_sorted):
        return False
    return _column_permutation_matches(left, right, ordered=ordered)


def query_is_ordered_test_suite(sql: str) -> bool:
    """Whether test-suite evaluation compares results in order: ``order by`` is in the text.

    Zhong, Yu and Klein 2020 (https://aclanthology.org/2020.emnlp-main.29/) treat the gold
    result as ordered when the lowercased text of the gold query's first statement contains
    ``order by`` (one space) anywhere: in a subquery, and even in a literal or a comment.

    Example:
        >>> query_is_ordered_test_suite("SELECT name FROM (SELECT name FROM city ORDER BY name LIMIT 3)")
        True
        >>> query_is_ordered_test_suite("SELECT name FROM city; SELECT name FROM city ORDER BY name")
        False
    """
    return "order by" in first_statement(sql).lower()


def _cells_sorted_by_text(row: Row) -> Row:
    """The row's cells sorted by their text and type name (test-suite's row pre-check)."""
    if len(row) < 2:
        return row
    return tuple(sorted(row, key=lambda value: str(value) + str(type(value))))


def _column_permutation_matches(predicted: Sequence[Row], gold: Sequence[Row], *, ordered: bool) -> bool:
    """Whether some reordering of the predicted columns makes the rows equal to the gold rows.

    Rows compare as multisets, or as sequences when ``ordered``. Both results are non-empty
    and have the same number of rows and columns.
    """
    width = len(gold[0])
    predicted_columns = list(zip(*predicted))
    gold_columns = list(zip(*gold))
    if ordered:  # equal rows in order iff the columns, as whole sequences, pair up
        return Counter(predicted_columns) == Counter(gold_columns)
    if width == 1:
        return Counter(predicted) == Counter(gold)
    # Gold column i can only come from a predicted column holding the same multiset of values.
    column_bags = [Counter(column) for column in predicted_columns]
    candidates = []
    for column in gold_columns:
        bag = Counter(column)
        candidates.append([j for j, other in enumerate(column_bags) if other == bag])
    order = sorted(range(width), key=lambda i: len(candidates[i]))
    assigned: dict[int, int] = {}  # gold column -> predicted column

    def projections_agree() -> bool:
        gold_keys = list(assigned)
        predicted_keys = [assigned[i] for i in gold_keys]
        return Counter(tuple(row[i] for i in gold_keys) for row in gold) == Counter(
            tuple(row[j] for j in predicted_keys) for row in predicted
        )

    def search(depth: int) -> bool:
        if depth == width:
            return True
        gold_column = order[depth]
        tried: set[tuple[Any, ...]] = set()
        used = set(assigned.values())
        for j in candidates[gold_column]:
            # Two identical predicted columns are interchangeable: try one of them.
            if j in used or predicted_columns[j] in tried:
                continue
            tried.add(predicted_columns[j])
            assigned[gold_column] = j
            if projections_agree() and search(depth + 1):
                return True
            del assigned[gold_column]
        return False

    return search(0)


def _values_match(a: Any, b: Any, *, rel_tol: float, abs_tol: float) -> bool:
    if _is_number(a) and _is_number(b):
        return a == b or math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
    return type(a) is type(b) and a == b


def _rows_match(a: Row, b: Row, *, rel_tol: float, abs_tol: float) -> bool:
    return len(a) == len(b) and all(
        _values_match(x, y, rel_tol=rel_tol, abs_tol=abs_tol) for x, y in zip(a, b)
    )


def _multisets_match(
    predicted: Sequence[Row], gold: Sequence[Row], close: Callable[[Row, Row], bool]
) -> bool:
    """Multiset equality: exact counts first, then tolerant pairing of sorted rows, then a
    full bipartite matching for small results."""
    if Counter(predicted) == Counter(gold):
        return True
    left, right = sorted(predicted, key=_sort_key), sorted(gold, key=_sort_key)
    if all(close(p, g) for p, g in zip(left, right)):
        return True
    return len(left) <= MAX_MATCHING_ROWS and _perfect_matching_exists(left, right, close)


def _perfect_matching_exists(
    left: Sequence[Row], right: Sequence[Row], close: Callable[[Row, Row], bool]
) -> bool:
    """Kuhn's augmenting-path algorithm on the "rows are close" bipartite graph."""
    neighbours = [[j for j, g in enumerate(right) if close(p, g)] for p in left]
    owner: list[int | None] = [None] * len(right)

    def augment(i: int, seen: set[int]) -> bool:
        for j in neighbours[i]:
            if j not in seen:
                seen.add(j)
                current = owner[j]
                if current is None or augment(current, seen):
                    owner[j] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(left)))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _sort_key(row: Row) -> tuple[tuple[int, Any], ...]:
    """Total order over SQLite values: NULL < numbers < text < blobs (as SQLite sorts)."""
    return tuple(_value_key(value) for value in row)


def _value_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, 0)
    if _is_number(value):
        return (1, value)
    if isinstance(value, str):
        return (2, value)
    if isinstance(value, bytes):
        return (3, value)
    return (4, repr(value))
