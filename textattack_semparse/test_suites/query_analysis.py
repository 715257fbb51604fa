"""Gold-query analysis for fuzz databases: which rows a gold query needs to return something.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/) plant the gold queries' literals in their random
databases. :func:`analyse_witness` reads more of a gold query: its *witness* is one row per table
occurrence, with the columns the query equates (joins, ``= (subquery)``, ``IN (subquery)``)
grouped into classes that share a value, and each class's literals (``=``, ``IN``, ``LIKE``,
``BETWEEN``, ``<``/``>`` bounds), MAX/MIN ties and ``HAVING COUNT`` group sizes. The fuzz-database
builder (:mod:`textattack_semparse.test_suites.fuzz_database`) inserts such rows so the gold
queries return rows; :mod:`textattack_semparse.test_suites.fuzz_values` plants the literals.
This module only reads queries: it writes no database and draws no value.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from textattack_semparse.test_suites.schema import Schema, Table

Term = tuple[int, int]
"""A column occurrence of a witness: (table occurrence, column index)."""


@dataclass
class ClassConstraints:
    """Constraints on one equivalence class of column occurrences in a witness: every occurrence of
    the class holds one value, which must meet all of them."""

    literals: list[Any] = field(default_factory=list)
    lower: tuple[Any, bool] | None = None  # (bound, strict)
    upper: tuple[Any, bool] | None = None
    like: str | None = None
    extreme: str | None = None  # "max"/"min" (tie the column's extreme), "above"/"below" (pass it),
    # "submax"/"supmin" (stay inside it)
    filtered: bool = False  # the MAX/MIN is over a filtered subset: tie it, do not reuse the argmax row


class Witness:
    """Table occurrences of one gold query and the constraints that one row each must meet.

    Column occurrences (:data:`Term`) that the query equates form one class (union-find); each
    class has its :class:`ClassConstraints`.
    """

    def __init__(self) -> None:
        self.tables: list[Table] = []
        self.parent: dict[Term, Term] = {}
        self.constraints: dict[Term, ClassConstraints] = {}
        self.groups: list[tuple[list[Term], int]] = []  # (GROUP BY terms, rows HAVING COUNT needs)
        self.bound: dict[int, int] = {}  # table occurrence -> position of the existing row it is bound to

    def find(self, term: Term) -> Term:
        """The representative of ``term``'s class (``term`` joins the witness as a class of its own)."""
        self.parent.setdefault(term, term)
        while self.parent[term] != term:
            self.parent[term] = self.parent[self.parent[term]]
            term = self.parent[term]
        return term

    def union(self, left: Term, right: Term) -> None:
        """Merge the classes of ``left`` and ``right`` and their constraints (``left``'s bounds win)."""
        left, right = self.find(left), self.find(right)
        if left != right:
            self.parent[right] = left
            merged = self.constraints.pop(right, None)
            if merged is not None:
                target = self.constraint(left)
                target.literals += merged.literals
                target.lower = target.lower or merged.lower
                target.upper = target.upper or merged.upper
                target.like = target.like or merged.like
                target.extreme = target.extreme or merged.extreme
                target.filtered = target.filtered or merged.filtered

    def constraint(self, term: Term) -> ClassConstraints:
        """The constraints of ``term``'s class, created empty on first use."""
        return self.constraints.setdefault(self.find(term), ClassConstraints())


class _Analyser:
    """Walks a parsed gold query into a :class:`Witness`; OR and IN lists pick one branch at random."""

    def __init__(
        self, schema: Schema, rng: random.Random, *, every_branch: bool = False, variant: int | None = None
    ) -> None:
        self.schema = schema
        self.rng = rng
        self.every_branch = every_branch
        self.variant = variant  # copy number of a HAVING COUNT witness: IN lists take value ``variant``
        self.witness = Witness()

    def query(self, node: exp.Expr, scopes: list[dict[str, Any]]) -> list[Any]:
        """Visit a SELECT (or set operation); return its projections (term, ("max", term), or None)."""
        if isinstance(node, exp.Subquery):
            return self.query(node.this, scopes)
        if isinstance(node, exp.SetOperation):
            left = self.query(node.left, scopes)
            self.query(node.right, scopes)
            return left
        if not isinstance(node, exp.Select):
            return []
        scope: dict[str, Any] = {}
        sources = [node.args.get("from_")] + list(node.args.get("joins") or [])
        for source in sources:
            if source is not None:
                self.source(source.this, scope, scopes)
        inner = scopes + [scope]
        for join in node.args.get("joins") or []:
            if join.args.get("on") is not None:
                self.condition(join.args["on"], inner)
        for key in ("where", "having"):
            if node.args.get(key) is not None:
                self.condition(node.args[key].this, inner)
        if node.args.get("group") is not None and node.args.get("having") is not None:
            needed = _count_needed(node.args["having"].this)
            terms = [self.term(e, inner) for e in node.args["group"].expressions]
            if needed > 1:
                kept = [self.witness.find(t) and t for t in terms if t is not None]  # find(): a class of its own
                self.witness.groups.append((kept, needed))
        projections = []
        for expression in node.expressions:
            value = expression.this if isinstance(expression, exp.Alias) else expression
            projections.append(self.projection(value, inner))
        return projections

    def source(self, node: exp.Expr, scope: dict[str, Any], scopes: list[dict[str, Any]]) -> None:
        if isinstance(node, exp.Table):
            table = self.schema.table(node.name)
            if table is not None:
                self.witness.tables.append(table)
                scope[node.alias_or_name.lower()] = len(self.witness.tables) - 1
        elif isinstance(node, exp.Subquery):
            projections = self.query(node.this, scopes)
            names = [e.alias_or_name.lower() for e in node.this.expressions] if isinstance(node.this, exp.Select) else []
            scope[node.alias_or_name.lower()] = dict(zip(names, projections))

    def projection(self, node: exp.Expr, scopes: list[dict[str, Any]]) -> Any:
        if isinstance(node, (exp.Max, exp.Min)):
            term = self.term(node.this, scopes)
            return None if term is None else ("max" if isinstance(node, exp.Max) else "min", term)
        return self.term(node, scopes)

    def term(self, node: exp.Expr, scopes: list[dict[str, Any]]) -> Term | None:
        while isinstance(node, exp.Paren):
            node = node.this
        if not isinstance(node, exp.Column):
            return None
        name = node.name.lower()
        for scope in reversed(scopes):
            if node.table:
                entries = [scope[node.table.lower()]] if node.table.lower() in scope else []
            else:
                entries = list(scope.values())
            for entry in entries:
                if isinstance(entry, dict):
                    if name in entry:
                        value = entry[name]
                        return value[1] if isinstance(value, tuple) and isinstance(value[0], str) else value
                    continue
                table = self.witness.tables[entry]
                index = next((i for i, c in enumerate(table.columns) if c.name.lower() == name), None)
                if index is not None:
                    return (entry, index)
            if entries and node.table:
                return None
        return None

    def condition(self, node: exp.Expr, scopes: list[dict[str, Any]]) -> None:
        witness = self.witness
        if isinstance(node, exp.Paren):
            self.condition(node.this, scopes)
        elif isinstance(node, exp.And):
            self.condition(node.left, scopes)
            self.condition(node.right, scopes)
        elif isinstance(node, exp.Or):
            branches = [node.left, node.right] if self.every_branch else [self.rng.choice([node.left, node.right])]
            for branch in branches:
                self.condition(branch, scopes)
        elif isinstance(node, exp.Exists):
            self.query(node.this, scopes)
        elif isinstance(node, (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE)):
            self.comparison(node, scopes)
        elif isinstance(node, exp.In):
            term = self.term(node.this, scopes)
            if node.args.get("query") is not None:
                projections = self.query(node.args["query"], scopes)
                self.link(term, projections[0] if projections else None, "=", _filtered(node.args["query"]))
            elif term is not None:
                values = [v for v in map(_literal, node.expressions) if v is not None]
                if values:
                    if self.every_branch:
                        chosen = values
                    elif self.variant is not None:
                        chosen = [values[self.variant % len(values)]]
                    else:
                        chosen = [self.rng.choice(values)]
                    witness.constraint(term).literals += chosen
        elif isinstance(node, exp.Like):
            term = self.term(node.this, scopes)
            pattern = _literal(node.expression)
            if term is not None and isinstance(pattern, str):
                witness.constraint(term).like = pattern
        elif isinstance(node, exp.Between):
            term = self.term(node.this, scopes)
            low, high = _literal(node.args.get("low")), _literal(node.args.get("high"))
            if term is not None and low is not None and high is not None:
                witness.constraint(term).lower = (low, False)
                witness.constraint(term).upper = (high, False)
        # NOT, <>, IS NULL and the rest are left to the random rows: a fresh witness row rarely
        # matches a negated condition's subquery.

    def comparison(self, node: exp.Binary, scopes: list[dict[str, Any]]) -> None:
        operator = {exp.EQ: "=", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}[type(node)]
        left, right = node.left, node.right
        if self.term(left, scopes) is None and self.term(right, scopes) is not None:
            left, right = right, left
            operator = {"=": "=", ">": "<", ">=": "<=", "<": ">", "<=": ">="}[operator]
        term = self.term(left, scopes)
        if term is None:
            return
        other = right.this if isinstance(right, exp.Paren) and isinstance(right.this, exp.Subquery) else right
        if isinstance(other, exp.Subquery):
            projections = self.query(other, scopes)
            self.link(term, projections[0] if projections else None, operator, _filtered(other))
            return
        other_term = self.term(other, scopes)
        if other_term is not None:
            if operator == "=":
                self.witness.union(term, other_term)
            return
        value = _literal(other)
        if value is None:
            return
        constraint = self.witness.constraint(term)
        if operator == "=":
            constraint.literals.append(value)
        elif operator in (">", ">="):
            constraint.lower = (value, operator == ">")
        else:
            constraint.upper = (value, operator == "<")

    def link(self, term: Term | None, projection: Any, operator: str, filtered: bool) -> None:
        """Relate ``term`` to a subquery's first projection (a column or MAX/MIN of one)."""
        if term is None:
            return
        if filtered:
            self.witness.constraint(term).filtered = True
        kind, inner = (None, None) if projection is None else (
            projection if isinstance(projection[0], str) else (None, projection)
        )
        if operator == "=" and inner is not None:
            self.witness.union(term, inner)
            if kind is not None:
                self.witness.constraint(term).extreme = kind
        elif operator in (">", ">="):
            self.witness.constraint(term).extreme = "above" if kind == "max" else "max"
            if kind is None and inner is not None:  # x > (SELECT y ...): y under the max
                self.witness.constraint(inner).extreme = "submax"
        elif operator in ("<", "<="):
            self.witness.constraint(term).extreme = "below" if kind == "min" else "min"
            if kind is None and inner is not None:
                self.witness.constraint(inner).extreme = "supmin"


def _filtered(node: exp.Expr) -> bool:
    """Whether a subquery selects from a subset (WHERE, joins, several tables, GROUP BY)."""
    select = node.this if isinstance(node, exp.Subquery) else node
    if not isinstance(select, exp.Select):
        return True
    from_ = select.args.get("from_")
    return bool(
        select.args.get("where") or select.args.get("joins") or select.args.get("group")
        or (from_ is not None and not isinstance(from_.this, exp.Table))
    )


def analyse_witness(
    schema: Schema, rng: random.Random, tree: exp.Expr, *, every_branch: bool = False, variant: int | None = None
) -> Witness:
    """The witness of one parsed gold query.

    Args:
        schema (Schema): Resolves the query's tables and columns; unknown ones are ignored.
        rng (random.Random): Picks one branch of each OR and one value of each IN list.
        tree (exp.Expr): The query, parsed by sqlglot.
        every_branch (bool, default False): Take every OR branch and IN value instead
            (the literals to plant).
        variant (int | None, default None): Copy number of a ``HAVING COUNT`` witness: IN lists
            take their value number ``variant`` (modulo their length).

    Example:
        >>> import sqlglot
        >>> from textattack_semparse.test_suites.schema import Column, Table
        >>> schema = Schema((Table("state", (Column("state_name", "text"), Column("area", "int"))),))
        >>> tree = sqlglot.parse_one("SELECT area FROM state WHERE state_name = 'texas' AND area > 10", read="mysql")
        >>> witness = analyse_witness(schema, random.Random(0), tree)
        >>> [table.name for table in witness.tables], witness.constraint((0, 0)).literals, witness.constraint((0, 1)).lower
        (['state'], ['texas'], (10, True))
    """
    analyser = _Analyser(schema, rng, every_branch=every_branch, variant=variant)
    analyser.query(tree, [])
    return analyser.witness


def is_constrained(constraint: ClassConstraints | None) -> bool:
    """Whether a class must take a particular value (a literal, bound, pattern or extreme)."""
    return constraint is not None and bool(
        constraint.literals or constraint.lower or constraint.upper or constraint.like or constraint.extreme
    )


def _count_needed(node: exp.Expr) -> int:
    """Rows a group needs for ``COUNT(...) > n``, ``>= n`` or ``= n`` conjuncts of a HAVING (1 if none)."""
    if isinstance(node, exp.Paren):
        return _count_needed(node.this)
    if isinstance(node, exp.And):
        return max(_count_needed(node.left), _count_needed(node.right))
    if isinstance(node, (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE)):
        left, right = node.left, node.right
        kind: type[exp.Binary] = type(node)
        if isinstance(right, exp.Count):
            left, right = right, left
            kind = {exp.GT: exp.LT, exp.GTE: exp.LTE, exp.LT: exp.GT, exp.LTE: exp.GTE}.get(kind, kind)
        bound = _literal(right)
        if isinstance(left, exp.Count) and isinstance(bound, int):
            needed = {exp.EQ: bound, exp.GT: bound + 1, exp.GTE: bound}.get(kind, 1)
            return max(1, min(needed, 12))
    return 1


def _literal(node: exp.Expr | None) -> Any:
    """Python value of a literal node (``-5`` included), or None."""
    if isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        value = _literal(node.this)
        return -value if value is not None else None
    if not isinstance(node, exp.Literal):
        return None
    if node.is_string:
        return node.this
    return parse_number(node.this)


def parse_number(text: str) -> int | float | None:
    """``text`` as an int, else a float, else None.

    Example:
        >>> parse_number("12"), parse_number("-1.5"), parse_number("1e3"), parse_number("twelve")
        (12, -1.5, 1000.0, None)
    """
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None
