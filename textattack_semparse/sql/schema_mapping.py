"""How a perturbed schema renames, reorders and extends an original one, and SQL rewritten to match.

Pi, Xinyu et al. (2022), "Towards Robustness of Text-to-SQL Models Against Natural and Realistic
Adversarial Table Perturbation" (https://aclanthology.org/2022.acl-long.142/) and Chang, Shuaichen
et al. (2023), "Dr.Spider: A Diagnostic Evaluation Benchmark towards Text-to-SQL Robustness"
(https://arxiv.org/abs/2301.08881) perturb database schemas and rewrite the gold SQL by hand;
RobuT (Zhao, Yilun et al. 2023, https://arxiv.org/abs/2306.14321) perturbs table headers.
:class:`SchemaMapping` rewrites any SQL of a perturbed database mechanically.

Rewriting edits the original text in place: only identifiers that name a table or a column of
the database change (string literals, aliases, keywords and layout stay as written). Column
references are resolved the way SQLite resolves them, with sqlglot's scopes: a qualifier names a
source of the query or of an enclosing query (correlated subqueries); an unqualified name is a
column of the one source that has it, searching outwards, except in ``ORDER BY``, where a result
alias comes first. When the column order or set changes, ``*`` and ``t.*`` become the original
columns, in their original order, under their new names, so results keep their shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import Scope, traverse_scope

from textattack_semparse.sql.sqlite_schema import quote_identifier

#: The dialect gold SQL is read in: MySQL's, where ``"texas"`` is a string (as SQLite treats it
#: when no column has that name), which GeoQuery and Spider golds rely on.
READ_DIALECT = "mysql"


@dataclass(frozen=True)
class SqlRewrite:
    """SQL rewritten for a perturbed schema, or why it could not be.

    Args:
        sql (str | None): The rewritten SQL; ``None`` when rewriting failed.
        error (str | None, default None): Why rewriting failed.
    """

    sql: str | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when :attr:`sql` holds the rewritten query."""
        return self.error is None


@dataclass(frozen=True)
class SchemaMapping:
    """Old table and column names -> new ones, and whether the column layout changed.

    Original to textattack-semparse (the perturbations follow Dr.Spider, Chang et al. 2023,
    https://arxiv.org/abs/2301.08881, and RobuT, Zhao et al. 2023, https://arxiv.org/abs/2306.14321).

    Args:
        tables (Mapping[str, str]): Every original table -> its new name (itself when kept).
        columns (Mapping[str, Mapping[str, str]]): Original table -> its original columns, in
            their original order, each -> its new name.
        layout_changed (bool, default False): Columns were reordered or added, so ``*`` must be
            spelled out to keep the original result columns.
        added (Mapping[str, tuple[str, ...]], default {}): New table name -> the distractor
            columns added to it.

    Example:
        >>> mapping = SchemaMapping({"state": "province"}, {"state": {"state_name": "name", "area": "area"}})
        >>> mapping.rewrite("SELECT s.state_name FROM state AS s WHERE s.state_name = 'area'").sql
        "SELECT s.name FROM province AS s WHERE s.name = 'area'"
        >>> mapping.rewrite("SELECT * FROM (").error.split(":")[0]
        'ParseError'
    """

    tables: Mapping[str, str]
    columns: Mapping[str, Mapping[str, str]]
    layout_changed: bool = False
    added: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", MappingProxyType(dict(self.tables)))
        object.__setattr__(
            self, "columns", MappingProxyType({t: MappingProxyType(dict(c)) for t, c in self.columns.items()})
        )
        object.__setattr__(self, "added", MappingProxyType({t: tuple(c) for t, c in self.added.items()}))
        object.__setattr__(self, "_tables", {old.lower(): old for old in self.tables})

    def table_name(self, table: str) -> str | None:
        """The new name of original table ``table`` (case-insensitive), or ``None`` if unknown."""
        old = self._tables.get(table.lower())  # type: ignore[attr-defined]
        return None if old is None else self.tables[old]

    def column_name(self, table: str, column: str) -> str | None:
        """The new name of ``table.column`` (original names, case-insensitive), or ``None``."""
        old = self._tables.get(table.lower())  # type: ignore[attr-defined]
        if old is None:
            return None
        lowered = column.lower()
        return next((new for name, new in self.columns[old].items() if name.lower() == lowered), None)

    def to_json(self) -> dict[str, object]:
        """The mapping as plain JSON data."""
        return {
            "tables": dict(self.tables),
            "columns": {table: dict(columns) for table, columns in self.columns.items()},
            "layout_changed": self.layout_changed,
            "added": {table: list(columns) for table, columns in self.added.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SchemaMapping:
        """Inverse of :meth:`to_json`."""
        return cls(data["tables"], data["columns"], bool(data["layout_changed"]), data.get("added", {}))  # type: ignore[arg-type]

    def rewrite(self, sql: str) -> SqlRewrite:
        """``sql`` (a query on the original database) for the perturbed database.

        Never raises for bad SQL: text sqlglot cannot parse, several statements, or an
        unqualified column that several sources share come back with ``error`` set.
        """
        if not isinstance(sql, str):
            return SqlRewrite(None, f"expected SQL text (str), got {type(sql).__name__}")
        try:
            trees = [tree for tree in sqlglot.parse(sql, read=READ_DIALECT) if tree is not None]
            if len(trees) != 1:
                return SqlRewrite(None, f"expected one SQL statement, found {len(trees)}")
            edits = _Rewriter(self, sql).edits(trees[0])
        except (SqlglotError, _RewriteError) as error:
            return SqlRewrite(None, f"{type(error).__name__}: {error}".splitlines()[0])
        text = sql
        for start, end, replacement in sorted(edits, reverse=True):
            text = text[:start] + replacement + text[end:]
        return SqlRewrite(text)


class _RewriteError(Exception):
    """A reference the rewriter cannot resolve unambiguously."""


class _Rewriter:
    """Collects ``(start, end, text)`` edits of one query's identifiers."""

    def __init__(self, mapping: SchemaMapping, sql: str) -> None:
        self.mapping = mapping
        self.sql = sql
        self.edits_by_start: dict[int, tuple[int, int, str]] = {}

    def edits(self, tree: exp.Expr) -> list[tuple[int, int, str]]:
        for scope in traverse_scope(tree):
            self._rewrite_scope(scope)
        return list(self.edits_by_start.values())

    def _replace(self, identifier: exp.Expression, new: str) -> None:
        meta = identifier.meta
        if "start" not in meta:
            raise _RewriteError(f"no position for identifier {identifier.sql()!r}")
        start, end = meta["start"], meta["end"] + 1
        original = self.sql[start:end]
        if original[:1] in "`\"[" and len(original) > 1:
            new = quote_identifier(new)
        elif original.lower() == new.lower() and original != new:
            return  # keep the original's case when the name is unchanged
        if original != new:
            self.edits_by_start[start] = (start, end, new)

    def _rewrite_scope(self, scope: Scope) -> None:
        for source in _local_sources(scope).values():
            if isinstance(source, exp.Table) and self._is_table(source):
                self._replace(source.this, self.mapping.table_name(source.name) or source.name)
        aliases = {
            projection.alias.lower()
            for projection in scope.expression.selects
            if isinstance(projection, exp.Alias)
        } if isinstance(scope.expression, exp.Select) else set()
        for column in _own_columns(scope):
            self._rewrite_column(column, scope, aliases)
        if self.mapping.layout_changed and isinstance(scope.expression, exp.Select):
            self._expand_stars(scope)
        if (scope.is_derived_table or scope.is_cte) and isinstance(scope.expression, exp.Select):
            self._keep_output_names(scope)

    def _is_table(self, source: exp.Table) -> bool:
        """A base table of the database (not a CTE of the query)."""
        return self.mapping.table_name(source.name) is not None and not source.args.get("db")

    def _resolve(self, column: exp.Column, scope: Scope, aliases: set[str]) -> tuple[exp.Table, str] | None:
        """The base table ``column`` reads and its original name, or ``None`` (alias, derived column)."""
        qualifier = column.table
        in_order = isinstance(column.find_ancestor(exp.Ordered, exp.Select), exp.Ordered)
        if not qualifier and in_order and column.name.lower() in aliases:
            return None
        current: Scope | None = scope
        while current is not None:
            if qualifier:
                source = _source(current, qualifier)
                if source is not None:
                    return self._column_of(source, column)
            else:
                owners = [
                    source
                    for source in _local_sources(current).values()
                    if self._has_column(source, column.name)
                ]
                if len(owners) > 1:
                    raise _RewriteError(f"column {column.name!r} is ambiguous in {current.expression.sql()[:80]!r}")
                if owners:
                    return self._column_of(owners[0], column)
                if current is scope and column.name.lower() in aliases:
                    return None
            current = current.parent
        return None

    def _column_of(self, source: object, column: exp.Column) -> tuple[exp.Table, str] | None:
        if isinstance(source, exp.Table) and self._is_table(source):
            if self.mapping.column_name(source.name, column.name) is None:
                raise _RewriteError(f"table {source.name!r} has no column {column.name!r}")
            return source, column.name
        return None

    def _has_column(self, source: object, name: str) -> bool:
        if isinstance(source, exp.Table):
            return self._is_table(source) and self.mapping.column_name(source.name, name) is not None
        if isinstance(source, Scope) and isinstance(source.expression, exp.Query):
            return name.lower() in {output.lower() for output in source.expression.named_selects}
        return False

    def _rewrite_column(self, column: exp.Column, scope: Scope, aliases: set[str]) -> None:
        if isinstance(column.this, exp.Star):
            return
        resolved = self._resolve(column, scope, aliases)
        if resolved is None:
            return
        table, name = resolved
        self._replace(column.this, self.mapping.column_name(table.name, name) or name)
        qualifier = column.args.get("table")
        if qualifier is not None and not table.alias:
            self._replace(qualifier, self.mapping.table_name(table.name) or table.name)

    def _expand_stars(self, scope: Scope) -> None:
        select = scope.expression
        for projection in select.expressions:
            if isinstance(projection, exp.Star):
                targets = list(_local_sources(scope).values())
                qualified = len(targets) > 1
            elif isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star):
                targets = [_source(scope, projection.table)]
                qualified = True
            else:
                continue
            tables = [target for target in targets if isinstance(target, exp.Table) and self._is_table(target)]
            if len(tables) != len(targets):
                raise _RewriteError(f"cannot spell out {projection.sql()!r}: it selects from a subquery")
            listed = []
            for target in tables:
                qualifier = target.alias or self.mapping.table_name(target.name)
                prefix = f"{qualifier}." if qualified else ""
                old = self.mapping._tables[target.name.lower()]  # type: ignore[attr-defined]
                listed += [f"{prefix}{new}" for new in self.mapping.columns[old].values()]
            meta = projection.meta if isinstance(projection, exp.Star) else projection.this.meta
            start = (projection.args["table"].meta if isinstance(projection, exp.Column) else meta)["start"]
            self.edits_by_start[start] = (start, meta["end"] + 1, ", ".join(listed))

    def _keep_output_names(self, scope: Scope) -> None:
        """Unaliased renamed columns of a derived table keep their old output name (``new AS old``)."""
        for projection in scope.expression.expressions:
            if isinstance(projection, exp.Column) and not isinstance(projection.this, exp.Star):
                start = projection.this.meta.get("start")
                if start in self.edits_by_start:
                    begin, end, text = self.edits_by_start[start]
                    self.edits_by_start[start] = (begin, end, f"{text} AS {projection.name}")


def _local_sources(scope: Scope) -> dict[str, object]:
    """The sources of the scope's own ``FROM`` and joins (a subquery's ``sources`` include its parent's)."""
    return {name: source for name, (_, source) in scope.selected_sources.items()}


def _source(scope: Scope, qualifier: str) -> object | None:
    lowered = qualifier.lower()
    return next((source for name, source in _local_sources(scope).items() if name.lower() == lowered), None)


def _own_columns(scope: Scope) -> list[exp.Column]:
    """Columns written in the scope's own ``SELECT`` (not in its subqueries).

    sqlglot's ``Scope.columns`` is not used: it leaves out ``ORDER BY`` columns that name a result
    column and counts a subquery's unqualified columns as its parent's.
    """
    select = scope.expression
    if not isinstance(select, exp.Select):
        return []
    return [column for column in select.find_all(exp.Column) if column.find_ancestor(exp.Select) is select]
