"""Cell values of fuzz databases: sampled from a column's type and the original, gold literals planted.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/), section 3, fill their random databases with
values sampled from each column's type and, where a database exists, its value distribution,
with the gold queries' literals planted. :func:`planted_literals` lists those literals per column,
:class:`ValueSampler` draws one database's values from a seeded ``random.Random``, and
:func:`coerce_to_affinity` stores a value as SQLite would in the column. Which rows hold the values
is the builder's job (:mod:`textattack_semparse.test_suites.fuzz_database`).

Example:
    >>> coerce_to_affinity("7", "INTEGER"), coerce_to_affinity(7, "TEXT"), coerce_to_affinity(2.0, "NUMERIC")
    (7, '7', 2)
"""

from __future__ import annotations

import random
import re
import string
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlglot import exp

from textattack_semparse.test_suites.query_analysis import ClassConstraints, analyse_witness, parse_number
from textattack_semparse.test_suites.schema import Schema, Table

ColumnKey = tuple[str, int]
"""A column of the schema: (table name, column index)."""


def coerce_to_affinity(value: Any, affinity: str) -> Any:
    """``value`` as SQLite stores it in a column of ``affinity``."""
    if value is None:
        return None
    if affinity in ("INTEGER", "NUMERIC", "REAL"):
        number = parse_number(value.strip()) if isinstance(value, str) else value
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            if affinity == "REAL":
                return float(number)
            if isinstance(number, float) and number.is_integer() and abs(number) < 2**62:
                return int(number)
            return number
        return value
    if affinity == "TEXT" and isinstance(value, (int, float)):
        return str(value)
    return value


def like_match(pattern: str, filler: str = "") -> str:
    """A text that ``LIKE pattern`` accepts: the first ``%`` becomes ``filler``, the others nothing,
    each ``_`` an ``a``.

    Example:
        >>> like_match("%semantic parsing%"), like_match("a_c%", "xy")
        ('semantic parsing', 'aacxy')
    """
    return pattern.replace("%", filler, 1).replace("%", "").replace("_", "a")


def planted_literals(schema: Schema, trees: Iterable[exp.Expr]) -> dict[ColumnKey, list[Any]]:
    """The values to plant in each column: every literal a gold query compares it with (all OR
    branches and IN values), the neighbours of numeric bounds (``> 5``: 5, 6 and 4) and a text each
    LIKE pattern accepts, coerced to the column's affinity, without repeats, in query order.

    Example:
        >>> import sqlglot
        >>> from textattack_semparse.test_suites.schema import Column
        >>> schema = Schema((Table("state", (Column("state_name", "text"), Column("area", "int"))),))
        >>> tree = sqlglot.parse_one("SELECT 1 FROM state WHERE state_name IN ('ohio', 'utah') OR area > 5")
        >>> planted_literals(schema, [tree])
        {('state', 0): ['ohio', 'utah'], ('state', 1): [5, 6, 4]}
    """
    planted: dict[ColumnKey, list[Any]] = defaultdict(list)
    for tree in trees:
        witness = analyse_witness(schema, random.Random(0), tree, every_branch=True)
        for term, constraint in witness.constraints.items():
            members = [t for t in witness.parent if witness.find(t) == term] or [term]
            values = list(constraint.literals)
            for bound, sign in ((constraint.lower, 1), (constraint.upper, -1)):
                if bound is not None and isinstance(bound[0], (int, float)):
                    values += [bound[0], bound[0] + sign, bound[0] - sign]
            if constraint.like is not None:
                values.append(like_match(constraint.like))
            for member in members:
                table = witness.tables[member[0]]
                affinity = table.columns[member[1]].affinity
                planted[(table.name, member[1])] += [coerce_to_affinity(v, affinity) for v in values]
    return {key: list(dict.fromkeys(values)) for key, values in planted.items()}


class ValueSampler:
    """Draws the cell values of one fuzz database (Zhong et al. 2020, section 3).

    Args:
        rng (random.Random): The database's generator; every draw comes from it.
        original_values (Mapping[ColumnKey, Sequence]): Each column's non-NULL values in the
            original database (empty when there is none).
        planted (Mapping[ColumnKey, Sequence]): The gold literals to plant (:func:`planted_literals`).
        rows_per_table (int): Random rows per table; numbers without an original range are drawn
            below ``3 * max(rows_per_table, 10)``.
        counts (Mapping[ColumnKey, Mapping[Any, int]]): The values the database holds so far,
            per column (value -> count); the builder keeps it current, the sampler only reads it.
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        original_values: Mapping[ColumnKey, Sequence[Any]],
        planted: Mapping[ColumnKey, Sequence[Any]],
        rows_per_table: int,
        counts: Mapping[ColumnKey, Mapping[Any, int]],
    ) -> None:
        self.rng = rng
        self.original_values = original_values
        self.planted = planted
        self.rows_per_table = rows_per_table
        self.counts = counts

    def random_value(self, table: Table, column: int) -> Any:
        """A value drawn from the column's type (ranges from the original when it has values)."""
        rng = self.rng
        declared = table.columns[column]
        affinity = declared.affinity
        known = [v for v in self.original_values.get((table.name, column), []) if isinstance(v, (int, float))]
        if affinity in ("INTEGER", "NUMERIC"):
            if "year" in declared.name.lower():
                return rng.randint(1990, 2025)
            if known:
                return rng.randint(int(min(known)), int(max(known)))
            return rng.randint(0, 3 * max(self.rows_per_table, 10))
        if affinity == "REAL":
            if known:
                return round(rng.uniform(min(known), max(known)), 1)
            return round(rng.uniform(0, 1000), 1)
        match = re.search(r"\((\d+)\)", declared.type)
        limit = max(3, min(10, int(match.group(1)))) if match else 10
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, limit)))

    def sample(self, table: Table, column: int) -> Any:
        """A planted literal, a value of the original's column, or a random value of the type."""
        rng = self.rng
        planted = self.planted.get((table.name, column))
        if planted and rng.random() < 0.15:
            return rng.choice(planted)
        original = self.original_values.get((table.name, column))
        if original and rng.random() < 0.75:
            return rng.choice(original)
        return self.random_value(table, column)

    def fresh(self, table: Table, column: int) -> Any:
        """A value not yet in the column (for keys): a sampled one, else past the largest number
        or a longer random string."""
        used = self.counts.get((table.name, column), {})
        affinity = table.columns[column].affinity
        for _ in range(10):
            value = coerce_to_affinity(self.sample(table, column), affinity)
            if value is not None and value not in used:
                return value
        if affinity in ("INTEGER", "NUMERIC", "REAL"):
            numbers = [v for v in used if isinstance(v, (int, float)) and not isinstance(v, bool)]
            return coerce_to_affinity(int(max(numbers, default=0)) + self.rng.randint(1, 5), affinity)
        while True:
            value = "".join(self.rng.choice(string.ascii_lowercase) for _ in range(self.rng.randint(6, 12)))
            if value not in used:
                return value

    def existing(self, target: ColumnKey) -> Any:
        """A non-NULL value the column ``target`` holds (for foreign keys), or None when it holds none."""
        counts = self.counts.get(target)
        choices = [value for value in counts if value is not None] if counts else []
        return self.rng.choice(sorted(choices, key=repr)) if choices else None

    def bounded(self, constraint: ClassConstraints) -> Any:
        """A value inside the class's ``lower``/``upper`` bounds (one of them may be missing)."""
        lower = constraint.lower[0] if constraint.lower else None
        upper = constraint.upper[0] if constraint.upper else None
        if isinstance(lower, str) or isinstance(upper, str):
            return (lower + "a") if isinstance(lower, str) else (upper[:-1] if upper else "")
        integral = all(isinstance(v, int) for v in (lower, upper) if v is not None)
        if lower is not None and upper is not None:
            low, high = lower, upper
        elif lower is not None:
            low, high = lower, lower + 10 + abs(lower) // 4
        elif upper is not None:
            low, high = upper - 10 - abs(upper) // 4, upper
        else:
            raise ValueError("bounded() needs a constraint with a lower or an upper bound")
        if integral:
            low = int(low) + (1 if constraint.lower and constraint.lower[1] else 0)
            high = int(high) - (1 if constraint.upper and constraint.upper[1] else 0)
            return self.rng.randint(low, high) if low <= high else low
        value = self.rng.uniform(low, high)
        return value if low < value < high or low == high else (low + high) / 2

    def matching(self, pattern: str) -> str:
        """A text ``LIKE pattern`` accepts, its first ``%`` filled with up to three random letters."""
        filler = "".join(self.rng.choice(string.ascii_lowercase) for _ in range(self.rng.randint(0, 3)))
        return like_match(pattern, filler)
