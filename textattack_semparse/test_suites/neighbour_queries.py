"""Near-miss *neighbour* queries of a gold query, for distilling test suites.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/), keep a database in a test suite when it tells
a gold query apart from one of its *neighbours*: queries a small edit away, which usually mean
something else. :func:`neighbour_queries` makes them with sqlglot syntax-tree edits. The code is
original to textattack-semparse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import zip_longest

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from textattack_semparse.arguments import check_count

#: The edits, in the order their neighbours are interleaved (see :func:`neighbour_queries`).
EDIT_KINDS = (
    "drop-predicate",
    "comparison",
    "negate-predicate",
    "aggregate",
    "column",
    "distinct",
    "limit",
    "order",
    "number",
)

_COMPARISON_SWAPS: dict[type[exp.Expr], tuple[type[exp.Expression], ...]] = {
    exp.EQ: (exp.NEQ,),
    exp.NEQ: (exp.EQ,),
    exp.LT: (exp.LTE, exp.GT),
    exp.LTE: (exp.LT, exp.GTE),
    exp.GT: (exp.GTE, exp.LT),
    exp.GTE: (exp.GT, exp.LTE),
}
_AGGREGATE_SWAPS: dict[type[exp.Expr], tuple[type[exp.Expression], ...]] = {
    exp.Max: (exp.Min,),
    exp.Min: (exp.Max,),
    exp.Count: (exp.Sum,),
    exp.Sum: (exp.Count, exp.Avg),
    exp.Avg: (exp.Sum, exp.Max, exp.Min),
}
_COMPARED = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE, exp.In, exp.Like)
_NEGATABLE = (exp.In, exp.Like)

# An edit: (index of the node in the tree's walk, function editing that node of a copy; what it returns is ignored).
Edit = tuple[int, Callable[[exp.Expr], object]]


def neighbour_queries(
    sql: str,
    *,
    dialect: str = "mysql",
    columns: Mapping[str, Sequence[str]] | None = None,
    limit: int | None = None,
) -> list[str]:
    """Distinct near-miss variants of ``sql``, each one syntax-tree edit away, as SQLite SQL.

    Edits (one per variant, applied at every place they fit, subqueries included):

    - ``drop-predicate``: drop one conjunct of a ``WHERE`` or ``HAVING`` (the whole clause when
      it has one);
    - ``comparison``: ``=`` ↔ ``!=``, ``<`` → ``<=``/``>``, ``<=`` → ``<``/``>=``, ``>`` →
      ``>=``/``<``, ``>=`` → ``>``/``<=``;
    - ``negate-predicate``: ``IN`` ↔ ``NOT IN``, ``LIKE`` ↔ ``NOT LIKE``;
    - ``aggregate``: ``MAX`` ↔ ``MIN``, ``COUNT(x)`` → ``SUM(x)`` (not ``COUNT(*)`` or
      ``COUNT(1)``), ``SUM`` → ``COUNT``/``AVG``, ``AVG`` → ``SUM``/``MAX``/``MIN``;
    - ``column``: a selected column (not of a derived table), or a column compared with a
      value or subquery, replaced by each other column of its table (needs ``columns``; tables are found through their
      aliases, case-insensitively);
    - ``distinct``: drop ``SELECT DISTINCT`` or ``COUNT(DISTINCT ...)``;
    - ``limit``: drop ``LIMIT n``, or make it ``n + 1`` or ``n - 1`` (when ``n > 1``), except
      in a subquery compared with ``=``, ``<``, ... (SQLite reads its first row only);
    - ``order``: flip the direction of one ``ORDER BY`` key;
    - ``number``: a numeric literal (outside ``LIMIT`` and ``COUNT(1)``) plus or minus one.

    Every variant is rendered in SQLite's dialect (string literals single-quoted), so the
    double-quoted strings of text2sql-data's MySQL gold (``STATE_NAME = "texas"``) stay
    strings. Variants equal to the gold's own rendering are left out, and duplicates are kept
    once. The order is deterministic: the edit kinds of :data:`EDIT_KINDS` take turns (the
    first variant of each kind, then the second of each, ...), so ``limit`` keeps a mix of
    kinds. SQL that sqlglot cannot parse has no neighbours (``[]``).

    Only the first statement of ``sql`` is used.

    Args:
        sql: The gold query.
        dialect: sqlglot dialect ``sql`` is read in (text2sql-data's gold is MySQL).
        columns: Table name -> its column names, for the ``column`` edit; ``None`` skips it.
        limit: Keep at most this many neighbours; ``None`` keeps all.

    Returns:
        The neighbours, as SQLite SQL text.

    Raises:
        ValueError: ``limit`` is negative.

    Example:
        >>> gold = 'SELECT city_name FROM city WHERE population > 150000 AND state_name = "texas"'
        >>> columns = {"city": ["city_name", "population", "state_name"]}
        >>> for query in neighbour_queries(gold, columns=columns, limit=6):
        ...     print(query)
        SELECT city_name FROM city WHERE state_name = 'texas'
        SELECT city_name FROM city WHERE population >= 150000 AND state_name = 'texas'
        SELECT population FROM city WHERE population > 150000 AND state_name = 'texas'
        SELECT city_name FROM city WHERE population > 150001 AND state_name = 'texas'
        SELECT city_name FROM city WHERE population > 150000
        SELECT city_name FROM city WHERE population < 150000 AND state_name = 'texas'
    """
    check_count("limit", limit, minimum=0, none_means="no limit")
    tree = _parse(sql, dialect)
    if tree is None or limit == 0:
        return []
    gold = _render(tree)
    nodes = list(tree.walk())
    table_columns = {name.lower(): tuple(names) for name, names in (columns or {}).items()}
    edits_by_kind = {
        "drop-predicate": list(_drop_predicate_edits(nodes)),
        "comparison": list(_comparison_edits(nodes)),
        "negate-predicate": list(_negation_edits(nodes)),
        "aggregate": list(_aggregate_edits(nodes)),
        "column": list(_column_edits(nodes, table_columns)) if table_columns else [],
        "distinct": list(_distinct_edits(nodes)),
        "limit": list(_limit_edits(nodes)),
        "order": list(_order_edits(nodes)),
        "number": list(_number_edits(nodes)),
    }
    seen = {gold}
    neighbours: list[str] = []
    for round_ in zip_longest(*(edits_by_kind[kind] for kind in EDIT_KINDS)):
        for edit in round_:
            if edit is None:
                continue
            variant = _apply(tree, edit)
            if variant is None or variant in seen:
                continue
            seen.add(variant)
            neighbours.append(variant)
            if limit is not None and len(neighbours) >= limit:
                return neighbours
    return neighbours


def _parse(sql: str, dialect: str) -> exp.Expr | None:
    try:
        statements = sqlglot.parse(sql, read=dialect)
    except (SqlglotError, RecursionError, ValueError):
        return None
    for statement in statements:
        if statement is not None:
            return statement
    return None


def _render(tree: exp.Expr) -> str | None:
    try:
        return tree.sql(dialect="sqlite")
    except (SqlglotError, RecursionError, ValueError):
        return None


def _apply(tree: exp.Expr, edit: Edit) -> str | None:
    """Render a copy of ``tree`` with ``edit`` applied to the copy's node at the edit's index."""
    index, change = edit
    copy = tree.copy()
    target = next(node for position, node in enumerate(copy.walk()) if position == index)
    change(target)
    return _render(copy)


def _replace_with(cls: type[exp.Expression]) -> Callable[[exp.Expr], None]:
    def change(node: exp.Expr) -> None:
        node.replace(cls(this=node.args.get("this"), expression=node.args.get("expression")))

    return change


def _drop_predicate_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if not isinstance(node, (exp.Where, exp.Having)):
            continue
        condition = node.this.unnest()
        conjuncts = list(condition.flatten()) if isinstance(condition, exp.And) else [condition]
        if len(conjuncts) == 1:
            yield index, lambda clause: clause.pop()
            continue
        for dropped in range(len(conjuncts)):
            yield index, _without_conjunct(dropped)


def _without_conjunct(dropped: int) -> Callable[[exp.Expr], None]:
    def change(clause: exp.Expr) -> None:
        conjuncts = list(clause.this.unnest().flatten())
        kept = [conjunct for position, conjunct in enumerate(conjuncts) if position != dropped]
        clause.set("this", exp.and_(*kept, copy=False))

    return change


def _comparison_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        for replacement in _COMPARISON_SWAPS.get(type(node), ()):
            yield index, _replace_with(replacement)


def _negation_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if not isinstance(node, _NEGATABLE):
            continue
        if isinstance(node.parent, exp.Not):
            yield index, _drop_negation
        else:
            yield index, lambda predicate: predicate.replace(exp.Not(this=predicate.copy()))


def _drop_negation(predicate: exp.Expr) -> None:
    """Replace the ``NOT`` around ``predicate`` with ``predicate``."""
    negation = predicate.parent
    if negation is not None:
        negation.replace(predicate)


def _aggregate_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if isinstance(node, exp.Count) and (node.this is None or isinstance(node.this, (exp.Star, exp.Literal))):
            continue  # SUM(*) is not SQL, and SUM(1) is COUNT(1)
        for replacement in _AGGREGATE_SWAPS.get(type(node), ()):
            yield index, _replace_aggregate(replacement)


def _replace_aggregate(cls: type[exp.Expression]) -> Callable[[exp.Expr], None]:
    def change(node: exp.Expr) -> None:
        node.replace(cls(this=node.this))

    return change


def _column_edits(nodes: list[exp.Expr], table_columns: Mapping[str, tuple[str, ...]]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if not isinstance(node, exp.Column) or not isinstance(node.this, exp.Identifier):
            continue
        if not (_is_selected(node) or _is_compared_with_value(node)):
            continue
        table = _table_of(node)
        if table is None:
            continue
        for other in table_columns.get(table.lower(), ()):
            if other.lower() != node.name.lower():
                yield index, _rename_column(other)


def _rename_column(name: str) -> Callable[[exp.Expr], None]:
    def change(column: exp.Expr) -> None:
        column.set("this", exp.to_identifier(name))

    return change


def _is_selected(column: exp.Column) -> bool:
    """The column is (inside) one of the projections of its nearest ``SELECT``, which is not a
    derived table (the outer query reads a derived table's columns by name)."""
    select = column.find_ancestor(exp.Select)
    if select is None or _is_derived_table(select):
        return False
    node: exp.Expr = column
    while node.parent is not None and node.parent is not select:
        if isinstance(node.parent, exp.Subquery):
            return False
        node = node.parent
    return node.parent is select and node.arg_key == "expressions"


def _is_derived_table(select: exp.Expr) -> bool:
    parent = select.parent
    return isinstance(parent, exp.Subquery) and isinstance(parent.parent, (exp.From, exp.Join))


def _is_compared_with_value(column: exp.Column) -> bool:
    """The column is one side of a comparison whose other side is not a column (a join key)."""
    parent = column.parent
    if not isinstance(parent, _COMPARED):
        return False
    others = [child for child in parent.iter_expressions() if child is not column]
    return bool(others) and not any(isinstance(other, exp.Column) for other in others)


def _table_of(column: exp.Column) -> str | None:
    """The table a column reads, through the aliases of its ``SELECT`` and the enclosing ones."""
    qualifier = column.table.lower()
    select = column.find_ancestor(exp.Select)
    while select is not None:
        tables = _tables_in_scope(select)
        if qualifier and qualifier in tables:
            return tables[qualifier]
        if not qualifier:
            names = set(tables.values())
            return names.pop() if len(names) == 1 else None
        select = select.find_ancestor(exp.Select)
    return None


def _tables_in_scope(select: exp.Select) -> dict[str, str]:
    """Alias (or name) -> table name of the tables in a ``SELECT``'s ``FROM`` and joins."""
    sources = [select.args.get("from_") or select.args.get("from")]
    sources += [join for join in select.args.get("joins") or ()]
    tables: dict[str, str] = {}
    for source in sources:
        table = source.this if source is not None else None
        if isinstance(table, exp.Table):
            tables[table.alias_or_name.lower()] = table.name
    return tables


def _distinct_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if isinstance(node, exp.Select) and node.args.get("distinct") is not None:
            yield index, lambda select: select.set("distinct", None)
        elif isinstance(node, exp.Distinct) and isinstance(node.parent, exp.AggFunc) and len(node.expressions) == 1:
            yield index, lambda distinct: distinct.replace(distinct.expressions[0])


def _limit_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if not isinstance(node, exp.Limit) or _is_scalar_subquery(node.parent):
            continue  # SQLite compares a scalar subquery's first row whatever its LIMIT
        yield index, lambda limit: limit.pop()
        count = node.expression
        if isinstance(count, exp.Literal) and not count.is_string and count.this.isdigit():
            value = int(count.this)
            yield index, _set_limit(value + 1)
            if value > 1:
                yield index, _set_limit(value - 1)


def _is_scalar_subquery(select: exp.Expr | None) -> bool:
    """The query is a subquery compared with ``=``, ``<``, ... (SQLite reads its first row)."""
    parent = None if select is None else select.parent
    return isinstance(parent, exp.Subquery) and isinstance(parent.parent, tuple(_COMPARISON_SWAPS))


def _set_limit(value: int) -> Callable[[exp.Expr], None]:
    def change(limit: exp.Expr) -> None:
        limit.set("expression", exp.Literal.number(value))

    return change


def _order_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if isinstance(node, exp.Ordered):
            yield index, _flip_direction


def _flip_direction(ordered: exp.Expr) -> None:
    descending = not ordered.args.get("desc")
    ordered.set("desc", descending)
    ordered.set("nulls_first", not descending)  # NULLs sort first ascending, in MySQL and SQLite


def _number_edits(nodes: list[exp.Expr]) -> Iterator[Edit]:
    for index, node in enumerate(nodes):
        if not isinstance(node, exp.Literal) or node.is_string or node.find_ancestor(exp.Limit, exp.Offset):
            continue
        if isinstance(node.parent, exp.Count):
            continue  # COUNT(2) counts what COUNT(1) counts
        value = _number(node.this)
        if value is None:
            continue
        for changed in (value + 1, value - 1):
            yield index, _set_number(changed)


def _number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def _set_number(value: int | float) -> Callable[[exp.Expr], None]:
    def change(literal: exp.Expr) -> None:
        literal.replace(exp.Literal.number(value))

    return change
