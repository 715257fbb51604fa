"""The words a benchmark's schema names things with, which the meaning judge's vetoes read: a
rewrite that puts one of them in place of the word naming the gold's predicate names another
table or column ("the singers" -> "the songs" when ``song`` is a table).

A database's words are its tables' and columns' names; a logical-form benchmark's are every
predicate and constant its golds use (its language has no schema apart from them); a Table QA
question's are its table's header. Original to textattack-semparse.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from textattack_semparse.datasets.benchmark import Benchmark
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.linguistics.operator_words import gold_predicate_words, identifier_words


@functools.lru_cache(maxsize=256)
def database_schema_words(path: Path) -> frozenset[str]:
    """The words of the tables' and columns' names of the SQLite database at ``path`` (none when
    it cannot be read).

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "db.sqlite"
        >>> with sqlite3.connect(path) as connection:
        ...     _ = connection.execute("CREATE TABLE singer (singer_id INTEGER, song_name TEXT)")
        >>> sorted(database_schema_words(path))
        ['name', 'singer', 'song']
    """
    from textattack_semparse.errors import SchemaError
    from textattack_semparse.sql.sqlite_schema import connect_read_only, read_columns, table_names

    try:
        connection = connect_read_only(path)
    except SchemaError:
        return frozenset()
    try:
        names: list[str] = []
        for table in table_names(connection):
            names.append(table)
            names.extend(column.name for column in read_columns(connection, table))
    finally:
        connection.close()
    return identifier_words(names)


def schema_words_of(benchmark: Benchmark) -> Callable[[SemparseExample], frozenset[str]]:
    """For ``benchmark``, the function giving an example's schema words (see the module docstring)."""
    databases = benchmark.databases
    if databases is None:
        everything = frozenset().union(*(gold_predicate_words(example.gold) for example in benchmark.examples))

        def words(example: SemparseExample) -> frozenset[str]:
            if example.table is not None:
                return identifier_words(re.split(r"\W+", " ".join(example.table.header)))
            return everything

        return words

    def database_words(example: SemparseExample) -> frozenset[str]:
        try:
            return database_schema_words(databases.for_example(example.db_id)[0])
        except Exception:  # noqa: BLE001 - an example without a database has no schema words to offer
            return frozenset()

    return database_words
