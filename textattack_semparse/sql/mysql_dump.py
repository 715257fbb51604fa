"""Convert a MySQL dump (GeoQuery's ``geography-db.sql``) to an SQLite database, with a cache.

Statements are parsed with sqlglot's MySQL dialect. ``CREATE TABLE`` is rebuilt for SQLite
from the parsed columns (names kept as in the dump, types reduced to SQLite affinities,
``NOT NULL``, literal ``DEFAULT`` and ``PRIMARY KEY`` kept; engines, charsets, collations,
comments, ``AUTO_INCREMENT`` and secondary indexes dropped). ``INSERT`` statements are
transpiled by sqlglot (MySQL string escapes become SQLite literals). Everything else in the
dump (``SET``, ``LOCK TABLES``, ``DROP TABLE``, conditional comments) is skipped.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from sqlglot import Dialect, TokenType, exp
from sqlglot.errors import SqlglotError

from textattack_semparse.cache import cache_dir
from textattack_semparse.errors import SchemaError
from textattack_semparse.sql.sqlite_schema import quote_identifier

if TYPE_CHECKING:
    from sqlglot import Token

# Part of the cache key: bump when the converter's output changes.
_CONVERTER_VERSION = b"mysql_dump/1"
_TEXT_TYPES = {"ENUM", "SET", "JSON", "UUID"}
_BLOB_TYPES = {"BINARY", "VARBINARY"}


def convert_mysql_dump(dump_path: str | os.PathLike[str], sqlite_path: str | os.PathLike[str]) -> Path:
    """Convert the MySQL dump at ``dump_path`` into a new SQLite database at ``sqlite_path``.

    The database is written to a temporary file beside ``sqlite_path`` and renamed into
    place, so readers never see a half-written file; an existing file is replaced.

    Returns:
        The path of the SQLite database.

    Raises:
        SchemaError: The dump cannot be read or parsed, has no ``CREATE TABLE``, or a
            converted statement fails in SQLite.
    """
    source = Path(dump_path)
    statements = mysql_to_sqlite_statements(_read_dump(source), source=source)
    target = Path(sqlite_path)
    _write_database(statements, target, source=source)
    return target


def cached_sqlite_from_dump(dump_path: str | os.PathLike[str]) -> Path:
    """The SQLite conversion of a MySQL dump, converted once into the cache directory.

    The cache file is keyed by the dump's content hash (and the converter version), so an
    edited dump is converted again. The directory is ``$TEXTATTACK_SEMPARSE_CACHE`` or
    ``~/.cache/textattack_semparse``, subdirectory ``sqlite``.

    Raises:
        SchemaError: As :func:`convert_mysql_dump`.
    """
    source = Path(dump_path)
    text = _read_dump(source)
    digest = hashlib.sha256(_CONVERTER_VERSION + text.encode("utf-8")).hexdigest()[:16]
    target = cache_dir() / "sqlite" / f"{source.stem}-{digest}.sqlite"
    if not target.is_file():
        _write_database(mysql_to_sqlite_statements(text, source=source), target, source=source)
    return target


def mysql_to_sqlite_statements(dump: str, *, source: Path | None = None) -> list[str]:
    """SQLite ``CREATE TABLE`` and ``INSERT`` statements equivalent to a MySQL dump's text.

    Example:
        >>> mysql_to_sqlite_statements(
        ...     "CREATE TABLE `state` (`state_name` text, `population` int(11) DEFAULT NULL)"
        ...     " ENGINE=InnoDB DEFAULT CHARSET=latin1;"
        ...     "LOCK TABLES `state` WRITE; INSERT INTO `state` VALUES ('ohio',10847115);"
        ... )
        ['CREATE TABLE "state" ("state_name" TEXT, "population" INTEGER DEFAULT NULL)', 'INSERT INTO "state" VALUES (\\'ohio\\', 10847115)']
    """
    dialect = Dialect.get_or_raise("mysql")
    where = f" in {str(source)!r}" if source is not None else ""
    try:
        tokens = dialect.tokenize(dump)
    except SqlglotError as exc:
        raise SchemaError(f"cannot tokenize the MySQL dump{where}: {exc}") from exc
    statements = []
    for statement in _split_statements(tokens):
        if statement[0].token_type not in (TokenType.CREATE, TokenType.INSERT):
            continue
        try:
            expression = dialect.parser().parse(statement, dump)[0]
        except SqlglotError as exc:
            raise SchemaError(
                f"cannot parse the MySQL statement starting at line {statement[0].line}{where}: {exc}"
            ) from exc
        if isinstance(expression, exp.Create) and str(expression.args.get("kind")).upper() == "TABLE":
            statements.append(_create_table_sql(expression))
        elif isinstance(expression, exp.Insert):
            statements.append(expression.sql(dialect="sqlite"))
    if not any(statement.startswith("CREATE TABLE") for statement in statements):
        raise SchemaError(
            f"no CREATE TABLE statement found{where}. Fix: pass a MySQL dump made by mysqldump "
            "with table structure (not --no-create-info)."
        )
    return statements


def _read_dump(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(
            f"cannot read the MySQL dump {str(path)!r}: {exc}. Fix: pass the path of a UTF-8 "
            "mysqldump file such as GeoQuery's geography-db.sql."
        ) from exc


def _split_statements(tokens: list[Token]) -> Iterator[list[Token]]:
    """Group tokens into statements at top-level semicolons (comments are not tokens)."""
    statement: list[Token] = []
    for token in tokens:
        if token.token_type == TokenType.SEMICOLON:
            if statement:
                yield statement
            statement = []
        else:
            statement.append(token)
    if statement:
        yield statement


def _create_table_sql(create: exp.Create) -> str:
    schema = create.this
    columns: list[str] = []
    primary_key: list[str] = []
    for item in schema.expressions:
        if isinstance(item, exp.ColumnDef):
            columns.append(_column_sql(item))
            if any(isinstance(c.kind, exp.PrimaryKeyColumnConstraint) for c in item.constraints):
                primary_key.append(item.name)
        elif isinstance(item, exp.PrimaryKey):
            primary_key.extend(column.name for column in item.expressions)
    if primary_key:
        columns.append(f"PRIMARY KEY ({', '.join(quote_identifier(name) for name in primary_key)})")
    return f"CREATE TABLE {quote_identifier(schema.this.name)} ({', '.join(columns)})"


def _column_sql(column: exp.ColumnDef) -> str:
    parts = [quote_identifier(column.name), _affinity(column.args.get("kind"))]
    for constraint in column.constraints:
        kind = constraint.kind
        if isinstance(kind, exp.NotNullColumnConstraint) and not kind.args.get("allow_null"):
            parts.append("NOT NULL")
        elif isinstance(kind, exp.DefaultColumnConstraint) and _is_literal(kind.this):
            parts.append(f"DEFAULT {kind.this.sql(dialect='sqlite')}")
    return " ".join(parts)


def _affinity(data_type: exp.DataType | None) -> str:
    """SQLite's type-affinity rules (https://sqlite.org/datatype3.html §3.1) on the MySQL type."""
    name = data_type.this.name if data_type is not None else ""
    if name in _TEXT_TYPES:
        return "TEXT"
    if name in _BLOB_TYPES or "BLOB" in name or not name:
        return "BLOB"
    if "INT" in name:
        return "INTEGER"
    if any(marker in name for marker in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if any(marker in name for marker in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def _is_literal(value: exp.Expression | None) -> bool:
    if isinstance(value, exp.Neg):
        value = value.this
    return isinstance(value, (exp.Literal, exp.Null))


def _write_database(statements: list[str], target: Path, *, source: Path) -> None:
    """Run ``statements`` into a fresh database beside ``target``, then rename it into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(handle)
    try:
        connection = sqlite3.connect(temporary)
        try:
            with connection:
                for statement in statements:
                    _run_statement(connection, statement, source=source)
        finally:
            connection.close()
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _run_statement(connection: sqlite3.Connection, statement: str, *, source: Path) -> None:
    try:
        connection.execute(statement)
    except sqlite3.Error as exc:
        raise SchemaError(
            f"converted statement from {str(source)!r} failed in SQLite ({exc}): "
            f"{statement[:200]!r}. Fix: simplify that statement in the dump or report it."
        ) from exc
