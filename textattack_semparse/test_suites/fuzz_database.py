"""Fuzzed databases of one schema on which the gold queries return rows: the builder.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/) judge a predicted query by its denotations on
many random databases of the gold's schema. :class:`FuzzDatabaseGenerator` writes such
databases: values are sampled from each column's declared type and, when the original database
is given, from that column's values in it; primary keys stay unique and foreign-key values exist
in the referenced column; every literal of a gold query is planted, and for each gold query a
*witness* (one row per table occurrence, satisfying the query's conjunctive equalities, joins,
literal comparisons and MAX/MIN subqueries) is inserted, so the gold queries return rows.

This module decides which rows a database holds and writes the file; what a gold query needs
comes from :mod:`textattack_semparse.test_suites.query_analysis`, the values from
:mod:`textattack_semparse.test_suites.fuzz_values`.
"""

from __future__ import annotations

import os
import random
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from textattack_semparse.errors import SchemaError
from textattack_semparse.sql.sqlite_schema import (
    connect_read_only,
    quote_identifier,
    read_columns,
    table_names,
    unreadable_database,
)
from textattack_semparse.test_suites.fuzz_values import ValueSampler, coerce_to_affinity, planted_literals
from textattack_semparse.test_suites.query_analysis import (
    ClassConstraints,
    Term,
    Witness,
    analyse_witness,
    is_constrained,
)
from textattack_semparse.test_suites.schema import Schema, Table, owns_column

_STEP = 1_000  # SQLite virtual-machine instructions between two progress-handler calls


def _table_order(schema: Schema) -> list[Table]:
    """Tables with referenced ones first (cycles broken in declaration order)."""
    needs = defaultdict(set)
    for fk in schema.foreign_keys:
        if fk.table != fk.ref_table:
            needs[fk.table].add(fk.ref_table)
    order: list[Table] = []
    visiting: set[str] = set()

    def visit(table: Table) -> None:
        if table in order or table.name in visiting:
            return
        visiting.add(table.name)
        for name in sorted(needs[table.name]):
            target = schema.table(name)
            if target is not None:
                visit(target)
        order.append(table)

    for table in schema.tables:
        visit(table)
    return order


class FuzzDatabaseGenerator:
    """Write fuzzed SQLite databases of ``schema`` on which the gold queries return rows.

    Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites",
    https://aclanthology.org/2020.emnlp-main.29/, section 3: databases whose values are sampled
    from each column's type and, where a database exists, its value distribution, with primary
    and foreign keys kept consistent and the gold queries' literals planted.

    Each database holds ``rows_per_table`` random rows per table (a share of them copied from
    the original's rows, then some cells resampled; gold literals planted in 15% of cells), then,
    in random order, one *witness* per gold query: one row per table occurrence, with the
    columns the query equates (joins, ``= (subquery)``, ``IN (subquery)``) sharing a value,
    literals in place (``=``, ``IN``, ``LIKE``, ``BETWEEN``, ``<``/``>`` bounds), and
    ``= (SELECT MAX/MIN ...)`` columns bound to the row that holds the column's extreme (so all
    gold queries about "the largest state" describe one row). OR picks one branch at random;
    ``HAVING COUNT(...) > n`` gets n + 1 copies sharing the GROUP BY values; NOT, ``<>`` and
    ``NOT IN`` are left to chance. An occurrence with only literal text cells (an author's
    name) or no constraint at all may reuse an existing row. A row whose key exists is merged
    into it; a foreign-key value missing from its referenced column gets a referenced row
    (copied from the original when it has one). Gold queries still empty afterwards get another
    witness (``repair_rounds``). Keys are the declared primary key, else the columns foreign
    keys reference that are named after their table and unique in the original
    (``state.state_name``).

    Deviation: the paper samples random databases and keeps those that distinguish neighbour
    queries; the witnesses here make every database return rows for (nearly) every gold query.

    Args:
        schema (Schema): Tables, types and keys; use :meth:`Schema.with_join_keys` to add join keys.
        gold_queries (Sequence[str]): Gold SQL (MySQL-flavoured text2sql-data SQL is read).
        original (Path | None, default None): The original SQLite database, if any.
        seed (int, default 0): Seed; database ``index`` uses ``random.Random(f"{seed}:{index}")``.
        rows_per_table (int, default 20): Random rows per table before witnesses.
        original_share (float, default 0.7): Share of random rows copied from the original's rows.
        repair_rounds (int, default 1): Rounds of extra witnesses for gold queries still empty.
        max_steps (int, default 2_000_000): SQLite VM instructions allowed per gold query in a
            repair check (a deterministic time limit).

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> from textattack_semparse.test_suites.schema import Column, Table
        >>> schema = Schema((Table("state", (Column("state_name", "text", True), Column("area", "int"))),))
        >>> golds = ['SELECT area FROM state WHERE state_name = "texas"']
        >>> path = FuzzDatabaseGenerator(schema, golds, seed=1).write(0, pathlib.Path(tempfile.mkdtemp()) / "0.sqlite")
        >>> sqlite3.connect(path).execute("SELECT COUNT(*) FROM state WHERE state_name = 'texas'").fetchone()
        (1,)
    """

    def __init__(
        self,
        schema: Schema,
        gold_queries: Sequence[str],
        *,
        original: Path | None = None,
        seed: int = 0,
        rows_per_table: int = 20,
        original_share: float = 0.7,
        repair_rounds: int = 1,
        max_steps: int = 2_000_000,
    ) -> None:
        if not isinstance(schema, Schema):
            raise TypeError(f"schema must be a Schema, got {type(schema).__name__}")
        if isinstance(gold_queries, str):
            raise TypeError("gold_queries must be a sequence of SQL strings, not one string")
        if not isinstance(rows_per_table, int) or rows_per_table < 0:
            raise ValueError(f"rows_per_table must be a non-negative int, got {rows_per_table!r}")
        if not 0.0 <= original_share <= 1.0:
            raise ValueError(f"original_share must be in [0, 1], got {original_share!r}")
        if not isinstance(repair_rounds, int) or repair_rounds < 0:
            raise ValueError(f"repair_rounds must be a non-negative int, got {repair_rounds!r}")
        self.schema = schema
        self.gold_queries = tuple(dict.fromkeys(gold_queries))
        self.original = None if original is None else Path(original)
        self.seed = seed
        self.rows_per_table = rows_per_table
        self.original_share = original_share
        self.repair_rounds = repair_rounds
        self.max_steps = max_steps
        self._prepared = False

    # ----------------------------------------------------------------- preparation (first use)

    def _prepare(self) -> None:
        if self._prepared:
            return
        self._trees: list[exp.Expr] = []
        self._sql: dict[int, str] = {}  # id(tree) -> gold SQL as written, run unchanged
        for sql in self.gold_queries:
            try:
                tree = sqlglot.parse_one(sql, read="mysql")
            except SqlglotError:
                continue
            if tree is not None:
                self._trees.append(tree)
                self._sql[id(tree)] = sql
        self._original_rows: dict[str, list[tuple[Any, ...]]] = {}
        self._original_values: dict[tuple[str, int], list[Any]] = {}
        if self.original is not None:
            self._read_original()
        self._planted = planted_literals(self.schema, self._trees)
        self._order = _table_order(self.schema)
        self._keys = self._key_columns()
        self._prepared = True

    def _read_original(self) -> None:
        if self.original is None or not self.original.is_file():
            raise SchemaError(f"Original database {str(self.original)!r} does not exist; pass an existing .sqlite file or None.")
        connection = connect_read_only(self.original)
        try:
            existing = {name.lower(): name for name in table_names(connection)}
            for table in self.schema.tables:
                name = existing.get(table.name.lower())
                if name is None:
                    continue
                present = {column.name.lower(): column.name for column in read_columns(connection, name)}
                selected = ", ".join(
                    quote_identifier(present[c.name.lower()]) if c.name.lower() in present else "NULL" for c in table.columns
                )
                rows = connection.execute(f"SELECT {selected} FROM {quote_identifier(name)} ORDER BY rowid").fetchall()
                self._original_rows[table.name] = rows
                for index in range(len(table.columns)):
                    self._original_values[(table.name, index)] = [row[index] for row in rows if row[index] is not None]
        except sqlite3.DatabaseError as error:
            raise unreadable_database(self.original, error) from error
        finally:
            connection.close()

    def _key_columns(self) -> dict[str, tuple[int, ...]]:
        referenced = {(fk.ref_table, fk.ref_column.lower()) for fk in self.schema.foreign_keys}
        keys = {}
        for table in self.schema.tables:
            if table.primary_key:
                keys[table.name] = tuple(i for i, c in enumerate(table.columns) if c.primary_key)
            else:
                keys[table.name] = tuple(
                    i for i, c in enumerate(table.columns)
                    if (table.name, c.name.lower()) in referenced and owns_column(table.name, c.name)
                    and not self._repeats(table.name, i)
                )[:1]
        return keys

    def _repeats(self, table: str, column: int) -> bool:
        """Whether the original holds a value twice in this column (then it is no key)."""
        values = self._original_values.get((table, column), [])
        return len(set(values)) < len(values)

    # ----------------------------------------------------------------------------- writing

    def write(self, index: int, path: Path) -> Path:
        """Write fuzz database number ``index`` to ``path`` (replacing any file there); return ``path``.

        The content depends only on (``seed``, ``index``) and the constructor's arguments.
        """
        self._prepare()
        path = Path(path)
        build = _Build(self, random.Random(f"{self.seed}:{index}"))
        build.fill()
        memory = build.materialise()
        for _ in range(self.repair_rounds):
            empty = [tree for tree in self._trees if not self._returns_rows(memory, tree)]
            if not empty:
                break
            for tree in empty:
                build.add_witness(tree)
            build.close_foreign_keys()
            memory.close()
            memory = build.materialise()
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(suffix=".sqlite", dir=path.parent)
        os.close(handle)
        try:
            target = sqlite3.connect(temporary)
            with target:
                memory.backup(target)
            target.close()
            os.replace(temporary, path)
        finally:
            memory.close()
            if os.path.exists(temporary):
                os.unlink(temporary)
        return path

    def _returns_rows(self, connection: sqlite3.Connection, tree: exp.Expr) -> bool:
        steps = [0]

        def progress() -> int:
            steps[0] += _STEP
            return 1 if steps[0] > self.max_steps else 0

        connection.set_progress_handler(progress, _STEP)
        try:
            return connection.execute(self._sql[id(tree)]).fetchone() is not None
        except (sqlite3.Error, ValueError, OverflowError):
            return True  # errors and time-outs are not repaired
        finally:
            connection.set_progress_handler(None, _STEP)


class _Build:
    """The rows of one fuzz database under construction."""

    def __init__(self, generator: FuzzDatabaseGenerator, rng: random.Random) -> None:
        self.g = generator
        self.rng = rng
        self.rows: dict[str, list[list[Any]]] = {t.name: [] for t in generator.schema.tables}
        self.index: dict[str, dict[tuple[Any, ...], int]] = {t.name: {} for t in generator.schema.tables}
        self.values: dict[tuple[str, int], dict[Any, int]] = defaultdict(dict)  # value -> count
        self.pinned: set[tuple[str, int, int]] = set()  # (table, position, column) a witness relies on
        self.references: dict[tuple[str, int], tuple[str, int]] = {}
        self.sampler = ValueSampler(
            rng,
            original_values=generator._original_values,
            planted=generator._planted,
            rows_per_table=generator.rows_per_table,
            counts=self.values,
        )
        for fk in generator.schema.foreign_keys:
            table, target = generator.schema.table(fk.table), generator.schema.table(fk.ref_table)
            if table is None or target is None:
                continue
            declared, referenced = table.column(fk.column), target.column(fk.ref_column)
            if declared is None or referenced is None:
                continue
            column = [c.name for c in table.columns].index(declared.name)
            ref_column = [c.name for c in target.columns].index(referenced.name)
            self.references.setdefault((table.name, column), (target.name, ref_column))

    # rows and indexes

    def key(self, table: Table, row: list[Any]) -> tuple[Any, ...] | None:
        columns = self.g._keys[table.name]
        return tuple(row[i] for i in columns) if columns else None

    def insert(self, table: Table, row: list[Any]) -> int | None:
        """Append ``row``; None when its key is taken or NULL."""
        key = self.key(table, row)
        if key is not None and (None in key or key in self.index[table.name]):
            return None
        position = len(self.rows[table.name])
        self.rows[table.name].append(row)
        if key is not None:
            self.index[table.name][key] = position
        for column, value in enumerate(row):
            counts = self.values[(table.name, column)]
            counts[value] = counts.get(value, 0) + 1
        return position

    def update(self, table: Table, position: int, column: int, value: Any) -> None:
        row = self.rows[table.name][position]
        if column in self.g._keys[table.name]:
            return
        counts = self.values[(table.name, column)]
        counts[row[column]] -= 1
        if not counts[row[column]]:
            del counts[row[column]]
        row[column] = value
        counts[value] = counts.get(value, 0) + 1

    # base rows

    def fill(self) -> None:
        for table in self.g._order:
            originals = self.g._original_rows.get(table.name, [])
            attempts = 0
            added = 0
            while added < self.g.rows_per_table and attempts < 5 * self.g.rows_per_table:
                attempts += 1
                if originals and self.rng.random() < self.g.original_share:
                    row = list(self.rng.choice(originals))
                    for column in range(len(row)):
                        if self.rng.random() < 0.1:
                            row[column] = self.sampler.sample(table, column)
                else:
                    row = [self.sampler.sample(table, column) for column in range(len(table.columns))]
                    for column in range(len(row)):
                        target = self.references.get((table.name, column))
                        if target is not None and self.values.get(target) and self.rng.random() < 0.9:
                            row[column] = self.sampler.existing(target)
                row = [coerce_to_affinity(value, c.affinity) for value, c in zip(row, table.columns)]
                for column in self.g._keys[table.name]:
                    if row[column] is None:
                        row[column] = self.sampler.fresh(table, column)
                if self.insert(table, row) is not None:
                    added += 1
        trees = list(self.g._trees)
        self.rng.shuffle(trees)
        for tree in trees:
            self.add_witness(tree)
        self.close_foreign_keys()

    # witnesses

    def add_witness(self, tree: exp.Expr) -> None:
        """Insert rows on which ``tree`` returns a row; ``HAVING COUNT(...) > n`` groups get n + 1
        copies that share the GROUP BY values (IN lists take a different value in each copy)."""
        witness = analyse_witness(self.g.schema, self.rng, tree)
        if not witness.tables:
            return
        if not witness.groups:
            self.insert_witness(witness, {})
            return
        terms, needed = max(witness.groups, key=lambda group: group[1])
        shared: dict[Term, Any] = {}
        for copy in range(needed):
            witness = analyse_witness(self.g.schema, self.rng, tree, variant=copy)
            preset = {witness.find(term): value for term, value in shared.items()}
            values = self.insert_witness(witness, preset)
            if copy == 0:
                shared = {term: values[witness.find(term)] for term in terms if witness.find(term) in values}

    def insert_witness(self, witness: Witness, preset: dict[Term, Any]) -> dict[Term, Any]:
        """Insert one row per table occurrence of ``witness``; return the value of each class."""
        class_values = self.bind_extremes(witness)
        class_values.update(preset)
        members: dict[Term, list[Term]] = defaultdict(list)
        for term in list(witness.parent):
            members[witness.find(term)].append(term)
        for root in sorted(members):
            if root not in class_values:
                class_values[root] = self.class_value(witness, root, members[root])
        for occurrence, table in enumerate(witness.tables):
            position = witness.bound.get(occurrence)
            if position is not None:
                holder = self.rows[table.name][position]
                used = [c for c in range(len(table.columns)) if (occurrence, c) in witness.parent]
                if all(
                    coerce_to_affinity(class_values[witness.find((occurrence, c))], table.columns[c].affinity) == holder[c]
                    for c in used
                ):
                    self.pinned.update((table.name, position, c) for c in used)
                    continue  # an existing row already plays this part
            row: list[Any] = []
            constrained: list[int] = []
            for column, declared in enumerate(table.columns):
                term = (occurrence, column)
                if term in witness.parent:
                    row.append(coerce_to_affinity(class_values[witness.find(term)], declared.affinity))
                    constrained.append(column)
                elif column in self.g._keys[table.name]:
                    row.append(self.sampler.fresh(table, column))
                else:
                    target = self.references.get((table.name, column))
                    value = self.sampler.existing(target) if target is not None else None
                    value = value if value is not None else self.sampler.sample(table, column)
                    row.append(coerce_to_affinity(value, declared.affinity))
            for column in self.g._keys[table.name]:
                if row[column] is None:
                    row[column] = self.sampler.fresh(table, column)
            key = self.key(table, row)
            if key is not None and key in self.index[table.name]:
                position = self.index[table.name][key]
                existing = self.rows[table.name][position]
                for column in constrained:
                    if (table.name, position, column) in self.pinned and existing[column] != row[column]:
                        continue  # another witness relies on this cell: keep it
                    self.update(table, position, column, row[column])
                    self.pinned.add((table.name, position, column))
            else:
                position = self.insert(table, row)
                if position is not None:
                    self.pinned.update((table.name, position, column) for column in constrained)
        return class_values

    def bind_extremes(self, witness: Witness) -> dict[Term, Any]:
        """Values of MAX/MIN classes (the column's current extreme, a tie) and keys binding their
        table occurrences to a row that holds it, so that every gold query about "the largest
        state" describes one row and later witnesses do not overturn earlier ones."""
        members: dict[Term, list[Term]] = defaultdict(list)
        for term in list(witness.parent):
            members[witness.find(term)].append(term)
        values: dict[Term, Any] = {}
        for root in sorted(members):
            constraint = witness.constraints.get(root)
            if constraint is None or constraint.extreme not in ("max", "min") or constraint.literals:
                continue
            value = self.extreme(witness, members[root], constraint.extreme)
            if value is None:
                continue
            values[root] = value
            if constraint.filtered:
                continue  # a tie on new rows: the argmax row need not pass the subquery's filter
            for occurrence, column in members[root]:
                table = witness.tables[occurrence]
                keys = self.g._keys[table.name]
                if len(keys) > 1 or occurrence in witness.bound:
                    continue
                if keys:
                    key_root = witness.find((occurrence, keys[0]))
                    if key_root in values or is_constrained(witness.constraints.get(key_root)):
                        continue
                rows = self.rows[table.name]
                position = next((p for p, row in enumerate(rows) if row[column] == value), None)
                if position is not None and all(rows[position][k] is not None for k in keys):
                    self.bind(witness, occurrence, position, values)
        self.bind_named(witness, values)
        self.bind_free(witness, values)
        return values

    def bind_free(self, witness: Witness, values: dict[Term, Any]) -> None:
        """Bind, at random, table occurrences to existing rows when neither they nor the occurrences
        whose keys they join (transitively) carry a literal, bound or extreme: reading such rows
        cannot break another witness, and tables stay small and close to the original's values."""
        for occurrence, table in enumerate(witness.tables):
            keys = self.g._keys[table.name]
            if len(keys) != 1 or not self.rows[table.name] or self.rng.random() < 0.3:
                continue
            if self.free(witness, occurrence, values):
                self.bind(witness, occurrence, self.rng.randrange(len(self.rows[table.name])), values)

    def free(self, witness: Witness, start: int, values: dict[Term, Any]) -> bool:
        """Whether ``start`` and every occurrence reached through a join on its key are unconstrained."""
        seen, stack = {start}, [start]
        while stack:
            occurrence = stack.pop()
            columns = len(witness.tables[occurrence].columns)
            roots = {witness.find((occurrence, c)) for c in range(columns) if (occurrence, c) in witness.parent}
            if any(root in values or is_constrained(witness.constraints.get(root)) for root in roots):
                return False
            for other, table in enumerate(witness.tables):
                keys = self.g._keys[table.name]
                if other in seen:
                    continue
                if any((other, k) in witness.parent and witness.find((other, k)) in roots for k in keys) or any(
                    (other, c) in witness.parent and witness.find((other, c)) in roots and len(keys) != 1
                    for c in range(len(table.columns))
                ):
                    seen.add(other)
                    stack.append(other)
        return True

    def bind_named(self, witness: Witness, values: dict[Term, Any]) -> None:
        """Bind a table occurrence to an existing row with the same literal text cells (one author
        called "dan weld", not one per gold query), when its key is otherwise free."""
        for occurrence, table in enumerate(witness.tables):
            keys = self.g._keys[table.name]
            if len(keys) != 1 or witness.find((occurrence, keys[0])) in values:
                continue
            if is_constrained(witness.constraints.get(witness.find((occurrence, keys[0])))):
                continue
            cells = {}
            for column, declared in enumerate(table.columns):
                if (occurrence, column) in witness.parent:
                    constraint = witness.constraints.get(witness.find((occurrence, column)))
                    if constraint is not None and constraint.literals:
                        cells[column] = coerce_to_affinity(constraint.literals[0], declared.affinity)
            if not any(isinstance(value, str) for value in cells.values()):
                continue
            rows = self.rows[table.name]
            position = next((p for p, row in enumerate(rows) if all(row[c] == v for c, v in cells.items())), None)
            if position is not None:
                self.bind(witness, occurrence, position, values)

    def bind(self, witness: Witness, occurrence: int, position: int, values: dict[Term, Any]) -> None:
        """Make ``occurrence`` the existing row at ``position``: its classes take the row's cells,
        unless a class already has another value or a constraint the row breaks."""
        holder = self.rows[witness.tables[occurrence].name][position]
        columns = [c for c in range(len(holder)) if (occurrence, c) in witness.parent]
        keys = self.g._keys[witness.tables[occurrence].name]
        columns += [c for c in keys if c not in columns]
        affinity = [declared.affinity for declared in witness.tables[occurrence].columns]
        for column in columns:
            root = witness.find((occurrence, column))
            if root in values:
                if values[root] != holder[column]:
                    return
                continue
            constraint = witness.constraints.get(root)
            if constraint is not None and constraint.literals:
                if coerce_to_affinity(constraint.literals[0], affinity[column]) != holder[column]:
                    return
            elif is_constrained(constraint):
                return
        for column in columns:
            values[witness.find((occurrence, column))] = holder[column]
        witness.bound[occurrence] = position

    def extreme(self, witness: Witness, terms: list[Term], kind: str) -> Any:
        numbers = []
        for occurrence, column in terms:
            counts = self.values.get((witness.tables[occurrence].name, column), {})
            numbers += [v for v in counts if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if not numbers:
            return None
        return max(numbers) if kind in ("max", "above", "submax") else min(numbers)

    def class_value(self, witness: Witness, root: Term, terms: list[Term]) -> Any:
        constraint = witness.constraints.get(root, ClassConstraints())
        tables = witness.tables
        if constraint.literals:
            return constraint.literals[0]
        if constraint.extreme is not None:
            current = self.extreme(witness, terms, constraint.extreme)
            step = 0 if constraint.extreme in ("max", "min") and current is not None else self.rng.randint(1, 10)
            current = 0 if current is None else current
            return current + step if constraint.extreme in ("max", "above", "supmin") else current - step
        if constraint.lower is not None or constraint.upper is not None:
            return self.sampler.bounded(constraint)
        if constraint.like is not None:
            return self.sampler.matching(constraint.like)
        keyed = [(o, c) for o, c in terms if c in self.g._keys[tables[o].name] and len(self.g._keys[tables[o].name]) == 1]
        if keyed:
            occurrence, column = keyed[0]
            reusable = self.reusable_key(witness, keyed)
            if reusable is not None:
                return reusable
            value = self.sampler.fresh(tables[occurrence], column)
            while any(value in self.values.get((tables[o].name, c), {}) for o, c in keyed[1:]):
                value = self.sampler.fresh(tables[occurrence], column)
            return value
        for occurrence, column in terms:
            target = self.references.get((tables[occurrence].name, column))
            if target is not None and self.values.get(target):
                return self.sampler.existing(target)
        occurrence, column = terms[0]
        return self.sampler.sample(tables[occurrence], column)

    def reusable_key(self, witness: Witness, keyed: list[Term]) -> Any:
        """Often, the key of an existing row whose cells this witness would set are not relied on
        by another witness (rewriting them breaks nothing; tables stay near the original's size)."""
        if len(keyed) != 1 or self.rng.random() < 0.4:
            return None
        occurrence, key = keyed[0]
        table = witness.tables[occurrence]
        written = [c for c in range(len(table.columns)) if c != key and (occurrence, c) in witness.parent]
        rows = self.rows[table.name]
        for _ in range(5):
            if not rows:
                return None
            position = self.rng.randrange(len(rows))
            if rows[position][key] is not None and not any((table.name, position, c) in self.pinned for c in written):
                return rows[position][key]
        return None

    # foreign keys

    def close_foreign_keys(self) -> None:
        """Give every dangling foreign-key value a referenced row (or an existing value)."""
        tables = {table.name: table for table in self.g.schema.tables}  # by the names self.references holds
        for _ in range(4):
            missing = False
            for (name, column), (ref_name, ref_column) in sorted(self.references.items()):
                for value in sorted(self.values[(name, column)], key=repr):
                    if value is None or value in self.values[(ref_name, ref_column)]:
                        continue
                    missing = True
                    self.insert_referenced(tables[ref_name], ref_column, value)
            if not missing:
                return
        for (name, column), target in sorted(self.references.items()):
            table = tables[name]
            for position, row in enumerate(self.rows[name]):
                if row[column] is not None and row[column] not in self.values[target]:
                    if column in self.g._keys[name]:
                        row[column] = None  # dropped in materialise
                    else:
                        self.update(table, position, column, self.sampler.existing(target))

    def insert_referenced(self, target: Table, column: int, value: Any) -> None:
        originals = [
            row for row in self.g._original_rows.get(target.name, [])
            if coerce_to_affinity(row[column], target.columns[column].affinity) == value
        ]
        if originals:
            row = [coerce_to_affinity(v, c.affinity) for v, c in zip(self.rng.choice(originals), target.columns)]
        else:
            row = []
            for index, declared in enumerate(target.columns):
                if index == column:
                    row.append(value)
                elif index in self.g._keys[target.name]:
                    row.append(self.sampler.fresh(target, index))
                else:
                    reference = self.references.get((target.name, index))
                    existing = self.sampler.existing(reference) if reference is not None else None
                    existing = existing if existing is not None else self.sampler.sample(target, index)
                    row.append(coerce_to_affinity(existing, declared.affinity))
        for index in self.g._keys[target.name]:
            if row[index] is None:
                row[index] = self.sampler.fresh(target, index)
        if self.insert(target, row) is None:
            key = self.key(target, row)  # not None: insert refuses keyed rows only
            position = None if key is None else self.index[target.name].get(key)
            if position is not None:
                self.update(target, position, column, value)

    # output

    def materialise(self) -> sqlite3.Connection:
        connection = sqlite3.connect(":memory:")
        for statement in self.g.schema.create_statements():
            connection.execute(statement)
        for table in self.g.schema.tables:
            keys = self.g._keys[table.name]
            rows = [row for row in self.rows[table.name] if all(row[i] is not None for i in keys)]
            placeholders = ", ".join("?" for _ in table.columns)
            connection.executemany(f"INSERT INTO {quote_identifier(table.name)} VALUES ({placeholders})", rows)
        connection.commit()
        return connection
