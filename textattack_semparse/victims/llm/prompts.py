"""Prompts: the "Create Table + Select 3" text-to-SQL prompt.

Rajkumar, Li and Bahdanau (2022), "Evaluating the Text-to-SQL Capabilities of Large Language
Models" (https://arxiv.org/abs/2204.00498), the prompt Zhuo et al. (2023), "On Robustness of
Prompt-based Semantic Parsing with Large Pre-trained Language Model"
(https://arxiv.org/abs/2301.12868), use with Codex. For every table the prompt gives its
``CREATE TABLE`` statement (column types, primary and foreign keys) followed by a comment with
the result of ``SELECT * FROM t LIMIT 3`` (a header line and up to three rows, tab-separated);
then an instruction comment, the demonstrations (each its question as an SQL comment and its
gold SQL), and the test question as a comment, ending with ``SELECT`` for the model to continue::

    CREATE TABLE "state" (
      "state_name" TEXT,
      ...
    )
    /*
    3 example rows:
    SELECT * FROM state LIMIT 3;
    state_name<TAB>population<TAB>...
    alabama<TAB>3894000<TAB>...
    ...
    */

    -- Using valid SQLite, answer the following questions for the tables provided above.

    -- what is the capital of texas
    SELECT capital FROM state WHERE state_name = 'texas'

    -- how many people live in ohio
    SELECT

The ``CREATE TABLE`` statements are rebuilt from the database by
:meth:`~textattack_semparse.test_suites.schema.Schema.create_statements` (identifiers quoted,
declared types, ``PRIMARY KEY``/``FOREIGN KEY`` clauses; ``NOT NULL``/``DEFAULT`` clauses of the
original DDL are not reproduced).
"""

from __future__ import annotations

import difflib
import os
import re
import sqlite3
import string
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, SchemaError
from textattack_semparse.test_suites.schema import Schema, quote_identifier

if TYPE_CHECKING:
    from textattack_semparse.datasets.example import SemparseExample

#: Placeholders a prompt template may use.
PLACEHOLDERS: tuple[str, ...] = ("schema", "demonstrations", "question")

#: The instruction line of Rajkumar et al. (2022).
INSTRUCTION = "-- Using valid SQLite, answer the following questions for the tables provided above."

#: The default template: schema, instruction, demonstrations, test question, then ``SELECT``.
DEFAULT_TEMPLATE = "{schema}\n\n" + INSTRUCTION + "\n\n{demonstrations}-- {question}\nSELECT"

_PLAIN_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class PromptTemplate:
    """A prompt format string with ``{schema}``, ``{demonstrations}`` and ``{question}``.

    Rajkumar, Li and Bahdanau (2022), "Evaluating the Text-to-SQL Capabilities of Large Language
    Models", https://arxiv.org/abs/2204.00498 (the default, :data:`DEFAULT_TEMPLATE`).

    Args:
        template (str, default DEFAULT_TEMPLATE): A :meth:`str.format` string naming only the
            placeholders of :data:`PLACEHOLDERS` (``{question}`` is required); literal braces
            are written ``{{`` and ``}}``.
        prefix (str, default "SELECT"): The text the template ends with that belongs to the
            answer; :func:`~textattack_semparse.sql.completion_sql.extract_sql` re-attaches it
            to the completion. ``""`` when the template ends before the SQL.

    Raises:
        ValueError: The template names an unknown placeholder, indexes or formats one, lacks
            ``{question}``, is malformed, or does not end with ``prefix``.

    Example:
        >>> template = PromptTemplate("{schema}\\n{demonstrations}Q: {question}\\nSQL:", prefix="")
        >>> template.render(schema="CREATE TABLE t (a INT)", demonstrations="", question="how many?")
        'CREATE TABLE t (a INT)\\nQ: how many?\\nSQL:'
        >>> PromptTemplate("{schema} {questoin}", prefix="")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        textattack_semparse.errors.ConfigurationError: Prompt template placeholder {questoin} is unknown (did you mean {question}?); ...
    """

    template: str = DEFAULT_TEMPLATE
    prefix: str = "SELECT"

    def __post_init__(self) -> None:
        if not isinstance(self.template, str):
            raise ConfigurationTypeError(f"template must be a str format string, got {type(self.template).__name__}")
        if not isinstance(self.prefix, str):
            raise ConfigurationTypeError(f"prefix must be a str, got {type(self.prefix).__name__}")
        fields = _placeholders(self.template)
        if "question" not in fields:
            raise ConfigurationError(
                f"Prompt template {self.template!r} has no {{question}} placeholder; the test question must appear."
            )
        if not self.template.endswith(self.prefix):
            raise ConfigurationError(
                f"Prompt template must end with its prefix {self.prefix!r}; "
                'pass prefix="" when the answer starts after the template.'
            )

    def render(self, *, schema: str, demonstrations: str, question: str) -> str:
        """The template with its placeholders filled in."""
        return self.template.format(schema=schema, demonstrations=demonstrations, question=question)


class DatabasePrompt:
    """"Create Table + Select 3" prompts for the questions of one SQLite database, zero- or k-shot.

    Rajkumar, Li and Bahdanau (2022), "Evaluating the Text-to-SQL Capabilities of Large Language
    Models", https://arxiv.org/abs/2204.00498; the prompt of Zhuo et al. (2023),
    https://arxiv.org/abs/2301.12868. The schema text (``CREATE TABLE`` statements and example
    rows) is read once, on first use, from a read-only connection (``mode=ro`` URI and
    ``PRAGMA query_only``) and cached; the database is never written. Output is deterministic:
    tables in ``sqlite_master`` order, rows in the order ``SELECT * FROM t LIMIT 3`` returns them.

    Each value is shown as ``str(value)`` (``NULL`` for ``None``, bytes as ``<blob N bytes>``),
    whitespace runs collapsed to one space so a row stays one line and tabs only separate
    columns, ``*/`` written ``* /`` so the comment stays closed, and cut to ``max_value_chars``
    characters ending in ``...``. Questions are put on one line the same way.

    Deviation: the paper does not say how long values are shown; long texts are cut so one
    column cannot crowd the context window.

    Args:
        db_path (str | os.PathLike): The SQLite database.
        template (PromptTemplate | None, default None): The prompt format;
            ``None`` is ``PromptTemplate()``, the paper's format.
        num_rows (int, default 3): Example rows per table (the "3" of "Select 3"); 0 omits the
            example-row comments ("Create Table" only).
        max_value_chars (int, default 100): Longest value shown, in characters.

    Raises:
        SchemaError: On first use: the database is missing or unreadable.
        TypeError, ValueError: A parameter has the wrong type or is out of range.

    Example:
        >>> from textattack_semparse.datasets.benchmark import load_benchmark
        >>> geo = load_benchmark("geo-mini")
        >>> prompt = DatabasePrompt(geo.database)
        >>> text = prompt("how many states are there", demonstrations=geo.split("question", "train")[:2])
        >>> text.startswith('CREATE TABLE "state"'), text.endswith("-- how many states are there\\nSELECT")
        (True, True)
    """

    def __init__(
        self,
        db_path: str | os.PathLike[str],
        *,
        template: PromptTemplate | None = None,
        num_rows: int = 3,
        max_value_chars: int = 100,
    ) -> None:
        if not isinstance(db_path, (str, os.PathLike)):
            raise ConfigurationTypeError(
                f"db_path must be a str or os.PathLike path of an SQLite file, got {type(db_path).__name__}"
            )
        if template is not None and not isinstance(template, PromptTemplate):
            raise ConfigurationTypeError(
                f"template must be a PromptTemplate (wrap a format string as PromptTemplate(text, prefix=...)), "
                f"got {type(template).__name__}"
            )
        for name, value, minimum in (("num_rows", num_rows, 0), ("max_value_chars", max_value_chars, 4)):
            check_count(name, value, minimum=minimum)
        self.db_path = Path(db_path)
        self.template = PromptTemplate() if template is None else template
        self.num_rows = num_rows
        self.max_value_chars = max_value_chars
        self._schema_text: str | None = None

    @property
    def prefix(self) -> str:
        """The answer prefix the prompt ends with (pass it to ``extract_sql``)."""
        return self.template.prefix

    @property
    def schema_text(self) -> str:
        """The ``CREATE TABLE`` statements and example-row comments (read once, then cached)."""
        if self._schema_text is None:
            self._schema_text = self._read_schema_text()
        return self._schema_text

    def __call__(self, question: str, demonstrations: Sequence[SemparseExample] = ()) -> str:
        """The prompt for ``question``, after ``demonstrations`` in the order given (k-shot).

        Args:
            question (str): The test question.
            demonstrations (Sequence[SemparseExample], default ()): Examples whose ``question``
                and ``gold`` are shown before the test question; empty for zero-shot.
        """
        if not isinstance(question, str):
            raise TypeError(f"question must be a str, got {type(question).__name__}")
        shown = "".join(format_demonstration(example.question, example.gold) for example in demonstrations)
        return self.template.render(schema=self.schema_text, demonstrations=shown, question=one_line(question))

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({str(self.db_path)!r}, template={self.template!r}, "
            f"num_rows={self.num_rows!r}, max_value_chars={self.max_value_chars!r})"
        )

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_schema_text": None}

    def _read_schema_text(self) -> str:
        schema = Schema.from_sqlite(self.db_path)  # read-only, raises SchemaError when unreadable
        statements = schema.create_statements()
        if self.num_rows == 0:
            return "\n\n".join(statements)
        connection = sqlite3.connect(f"{self.db_path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            connection.execute("PRAGMA query_only = ON")
            blocks = []
            for table, statement in zip(schema.tables, statements):
                cursor = connection.execute(f"SELECT * FROM {quote_identifier(table.name)} LIMIT {self.num_rows}")
                header = [str(column[0]) for column in cursor.description]
                rows = cursor.fetchall()
                blocks.append(statement + "\n" + self._rows_comment(table.name, header, rows))
        except sqlite3.DatabaseError as error:
            raise SchemaError(f"Could not read example rows of {str(self.db_path)!r} ({error}).") from error
        finally:
            connection.close()
        return "\n\n".join(blocks)

    def _rows_comment(self, table: str, header: list[str], rows: list[tuple[object, ...]]) -> str:
        shown = table if _PLAIN_NAME.match(table) else quote_identifier(table)
        lines = [
            "/*",
            f"{self.num_rows} example rows:",
            f"SELECT * FROM {shown} LIMIT {self.num_rows};",
            "\t".join(format_value(name, self.max_value_chars) for name in header),
        ]
        lines += ["\t".join(format_value(value, self.max_value_chars) for value in row) for row in rows]
        return "\n".join(lines + ["*/"])


def _placeholders(template: str) -> set[str]:
    """The placeholder names of ``template``, each checked against :data:`PLACEHOLDERS`."""
    try:
        fields = [parsed for parsed in string.Formatter().parse(template) if parsed[1] is not None]
    except ValueError as error:
        raise ConfigurationError(
            f"Prompt template {template!r} is malformed ({error}); write literal braces as {{{{ and }}}}."
        ) from error
    allowed = "use {schema}, {demonstrations} and {question}"
    for _, name, spec, conversion in fields:
        if name not in PLACEHOLDERS:
            close = difflib.get_close_matches(str(name), PLACEHOLDERS, n=1)
            hint = f" (did you mean {{{close[0]}}}?)" if close else ""
            raise ConfigurationError(f"Prompt template placeholder {{{name}}} is unknown{hint}; {allowed}.")
        if spec or conversion:
            raise ConfigurationError(
                f"Prompt template placeholder {{{name}}} must be plain, without format spec or conversion."
            )
    return {str(name) for _, name, _, _ in fields}


def format_value(value: object, max_chars: int = 100) -> str:
    """A database value as one short line of an example-row comment.

    Example:
        >>> [format_value(v) for v in (None, 3.5, "new\\tyork", b"ab", "a*/b")]
        ['NULL', '3.5', 'new york', '<blob 2 bytes>', 'a* /b']
        >>> format_value("x" * 20, max_chars=10)
        'xxxxxxx...'
    """
    if value is None:
        text = "NULL"
    elif isinstance(value, (bytes, bytearray, memoryview)):
        text = f"<blob {len(bytes(value))} bytes>"
    else:
        text = one_line(str(value)).replace("*/", "* /")
    return text if len(text) <= max_chars else text[: max_chars - 3] + "..."


def one_line(text: str) -> str:
    """``text`` with whitespace runs collapsed to one space and stripped.

    Example:
        >>> one_line("  what is\\nthe capital ")
        'what is the capital'
    """
    return _WHITESPACE.sub(" ", text).strip()


def format_demonstration(question: str, sql: str) -> str:
    """One demonstration: the question as an SQL comment, its SQL, and a blank line.

    Example:
        >>> format_demonstration("capital of texas", "SELECT capital FROM state WHERE state_name = 'texas' ;")
        "-- capital of texas\\nSELECT capital FROM state WHERE state_name = 'texas' ;\\n\\n"
    """
    return f"-- {one_line(question)}\n{sql.strip()}\n\n"
