"""A question and its database schema serialised into one input, as text-to-SQL models on the
Hugging Face hub were fine-tuned to read them.

Models fine-tuned on Spider (Yu et al. 2018) read the question followed by the schema of the
example's database, and some write the ``db_id`` before the query. Formats built in:

``picard``
    The serialisation of PICARD's T5 models (Scholak, Schucher and Bahdanau 2021,
    https://aclanthology.org/2021.emnlp-main.779/; github.com/ServiceNow/picard), which follows
    Shaw et al. (2021)'s: ``question | db_id | table : column , column | table : ...``, table
    and column names lower-cased, targets written as ``db_id | query``.
``unifiedskg``
    UnifiedSKG's (Xie et al. 2022, https://arxiv.org/abs/2201.05966): the same schema string
    after ``question ; structured knowledge: ``.
``template``
    A template of the user's with the placeholders ``{question}``, ``{db_id}`` and ``{tables}``
    (``table : column , column | table : ...``).

With ``db_content`` ("+DB content" models such as PICARD's ``tscholak/cxmefzzi``), a column whose
values the question mentions is written ``column ( value , value )``: up to two values per
column, matched against the question's word n-grams. The matching approximates BRIDGE's (Lin,
Socher and Xiong 2020, https://aclanthology.org/2020.findings-emnlp.438/), which those models
were trained with: a text value matches an n-gram of the question of as many words whose
similarity (``difflib.SequenceMatcher`` ratio, case-insensitive) is at least 0.85, and the best
two by similarity are kept. BRIDGE's own matcher also compares prefixes and skips some stop-word
matches, so a value it writes may be missing here, or the reverse.

The schema is read from the SQLite database each example runs on
(:mod:`textattack_semparse.sql.sqlite_schema`): tables in creation order, columns in declaration
order, the names as declared. That is Spider's ``table_names_original``/``column_names_original``
for its databases, and the perturbed schema for a schema-perturbed benchmark.

Original to textattack-semparse.
"""

from __future__ import annotations

import difflib
import functools
import re
import sqlite3
import string
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import ConfigurationError, SchemaError
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.sql.sqlite_schema import connect_read_only, quote_identifier, read_tables

TEMPLATES = {
    "picard": "{question} | {db_id} | {tables}",
    "unifiedskg": "{question} ; structured knowledge: | {db_id} | {tables}",
}
"""The built-in formats' templates."""
FORMATS = (*TEMPLATES, "template")
PLACEHOLDERS = ("question", "db_id", "tables")
MATCH_THRESHOLD = 0.85
"""Least ``SequenceMatcher`` ratio between a database value and a question n-gram (BRIDGE's)."""
MATCHES_PER_COLUMN = 2
"""Most values written per column (BRIDGE's top two)."""
MAX_VALUE_WORDS = 6
"""Longest value (in words) compared with the question."""
_WORD = re.compile(r"\w+(?:['.-]\w+)*")


@dataclass(frozen=True)
class SchemaSerializedInput:
    """The model input for a question and its ``db_id``: ``format``'s template filled with the
    question, the ``db_id`` and the tables of the example's database (``databases``).

    A module-level class, so that a victim using it can be pickled.

    Args:
        databases: The benchmark's databases (the first one of each example is read).
        format: ``picard``, ``unifiedskg`` or ``template``.
        db_content: Write the database values the question mentions beside their columns.
        template: The template, for ``format="template"`` only.

    Example:
        >>> import sqlite3, tempfile, pathlib
        >>> root = pathlib.Path(tempfile.mkdtemp())
        >>> (root / "pets").mkdir()
        >>> with sqlite3.connect(root / "pets" / "pets.sqlite") as db:
        ...     _ = db.execute("CREATE TABLE Pet (PetID INT, PetType TEXT)")
        ...     _ = db.execute("INSERT INTO Pet VALUES (1, 'dog'), (2, 'cat')")
        >>> serialize = SchemaSerializedInput(Databases.at(root), "picard", db_content=True)
        >>> serialize("How many dogs are there?", "pets")
        'How many dogs are there? | pets | pet : petid , pettype ( dog )'
    """

    databases: Databases
    format: str = "picard"
    db_content: bool = False
    template: str | None = None

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ConfigurationError(f"Unknown input format {self.format!r}; choose one of: {', '.join(FORMATS)}.")
        if (self.format == "template") != (self.template is not None):
            raise ConfigurationError(
                "format=template needs a template (e.g. template={question} | {tables}), and only it takes one."
            )
        if self.template is not None:
            check_template(self.template)

    def __call__(self, question: str, db_id: str | None) -> str:
        path = self._database(db_id)
        tables = serialized_tables(path, question if self.db_content else None)
        template = self.template if self.template is not None else TEMPLATES[self.format]
        return template.format(question=question.strip(), db_id=path.stem, tables=tables)

    def _database(self, db_id: str | None) -> Path:
        files = self.databases.for_example(db_id)
        if not files:
            raise SchemaError(f"No database for db_id {db_id!r} in {self.databases.describe()}: the schema cannot be serialised.")
        return files[0]


def check_template(template: str) -> str:
    """``template`` if it names only :data:`PLACEHOLDERS` and includes ``{question}``.

    Example:
        >>> check_template("{question} | {tables}")
        '{question} | {tables}'
    """
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as error:
        raise ConfigurationError(f"Input template {template!r} is malformed ({error}); write e.g. '{{question}} | {{tables}}'.") from None
    unknown = sorted(names - set(PLACEHOLDERS))
    if unknown or "question" not in names:
        raise ConfigurationError(
            f"Input template {template!r} must contain {{question}} and may contain only "
            f"{', '.join('{' + name + '}' for name in PLACEHOLDERS)}; found {sorted(names)}."
        )
    return template


def serialized_tables(path: Path, question: str | None = None) -> str:
    """``table : column , column | table : ...`` for the database at ``path`` (names lower-cased);
    with ``question``, each column followed by the values the question mentions, ``( v , v )``."""
    parts = []
    for table, columns in _schema(path):
        rendered = []
        for column in columns:
            values = () if question is None else matched_values(question, path, table, column)
            rendered.append(column.lower() + (f" ( {' , '.join(values)} )" if values else ""))
        parts.append(f"{table.lower()} : {' , '.join(rendered)}")
    return " | ".join(parts)


def matched_values(question: str, path: Path, table: str, column: str) -> tuple[str, ...]:
    """The text values of ``table.column`` that an n-gram of ``question`` matches (ratio at least
    :data:`MATCH_THRESHOLD`), best first, at most :data:`MATCHES_PER_COLUMN`."""
    grams = _ngrams(question.lower())
    scored = []
    for value in _text_values(path, table, column):
        words = _WORD.findall(value.lower())
        if not words or len(words) > MAX_VALUE_WORDS or not any(len(word) > 1 for word in words):
            continue
        target = " ".join(words)
        best = 0.0
        for gram in grams.get(len(words), ()):
            matcher = difflib.SequenceMatcher(None, target, gram)
            if matcher.real_quick_ratio() >= MATCH_THRESHOLD and matcher.quick_ratio() >= MATCH_THRESHOLD:
                best = max(best, matcher.ratio())
                if best == 1.0:
                    break
        if best >= MATCH_THRESHOLD:
            scored.append((-best, value))
    return tuple(value for _, value in sorted(scored)[:MATCHES_PER_COLUMN])


def _ngrams(text: str) -> dict[int, tuple[str, ...]]:
    words = _WORD.findall(text)
    return {
        size: tuple(dict.fromkeys(" ".join(words[start : start + size]) for start in range(len(words) - size + 1)))
        for size in range(1, MAX_VALUE_WORDS + 1)
    }


@functools.lru_cache(maxsize=64)
def _schema(path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    connection = connect_read_only(path)
    try:
        return tuple((table.name, tuple(column.name for column in table.columns)) for table in read_tables(connection))
    finally:
        connection.close()


@functools.lru_cache(maxsize=4096)
def _text_values(path: Path, table: str, column: str) -> tuple[str, ...]:
    """The distinct non-empty text values of ``table.column`` (numbers are not matched, as in BRIDGE)."""
    connection = connect_read_only(path)
    try:
        rows = connection.execute(
            f"SELECT DISTINCT {quote_identifier(column)} FROM {quote_identifier(table)} "
            f"WHERE typeof({quote_identifier(column)}) = 'text'"
        ).fetchall()
    except sqlite3.Error as error:
        raise SchemaError(f"Cannot read the values of {table}.{column} in {str(path)!r}: {error}.") from error
    finally:
        connection.close()
    return tuple(value.strip() for (value,) in rows if isinstance(value, str) and value.strip())


