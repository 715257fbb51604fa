"""Loader for WikiTableQuestions' question files (``data/*.tsv``) and their tables.

Pasupat and Liang (2015), "Compositional Semantic Parsing on Semi-Structured Tables", ACL.
https://arxiv.org/abs/1508.00305 ; https://github.com/ppasupat/WikiTableQuestions

Each question file is TSV with the header ``id utterance context targetValue``: the
question, the table it is asked about (``csv/204-csv/590.csv``, read from the ``.tsv``
beside that ``.csv``, which is rectangular) and the answer, ``|``-separated values in WTQ's
escaping. The answer text is kept verbatim as the gold
(:mod:`textattack_semparse.tables.answers`), the context is the ``db_id``. RobuT (Zhao et
al. 2023, https://arxiv.org/abs/2306.14321) perturbs the ``random-split-1`` train/dev files.

This module does not import TextAttack.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.table import Table, unescape_wtq

WTQ_HEADER = ("id", "utterance", "context", "targetValue")


def wtq_table(root: str | Path, context: str, *, cache: MutableMapping[str, Table] | None = None) -> Table:
    """The table of a WTQ ``context`` (``csv/204-csv/590.csv``), read from ``<root>/<context>`` with
    ``.tsv`` for ``.csv`` and named by the context; ``cache`` keeps tables already read.

    Raises:
        DatasetError: The table file does not exist or is not a rectangular WTQ table.
    """
    if cache is not None and context in cache:
        return cache[context]
    path = Path(root) / Path(context).with_suffix(".tsv")
    if not path.is_file():
        raise DatasetError(
            f"Table {context!r} has no file {str(path)!r}. Put WikiTableQuestions' 'csv/' folder (with its "
            f".tsv tables) under {str(root)!r}."
        )
    table = Table.from_wtq_tsv(path, name=context)
    if cache is not None:
        cache[context] = table
    return table


def load_wtq(
    path: str | Path,
    *,
    split: str | None = None,
    root: str | Path | None = None,
    tables: MutableMapping[str, Table] | None = None,
) -> list[SemparseExample]:
    """Read a WTQ question file into one :class:`SemparseExample` per line, each with its table.

    Args:
        path (str | Path): A file under WTQ's ``data/`` (``data/random-split-1-dev.tsv``).
        split (str | None, default None): The question-split label of every example.
        root (str | Path | None, default None): The WTQ folder the contexts are relative to;
            default the parent of the file's folder.
        tables (MutableMapping[str, Table] | None, default None): Tables already read, by
            context; tables read here are added (pass one dict when loading several files).

    Raises:
        DatasetError: The file is missing or has another header; a line has not four fields,
            an empty question or context, or a table that does not exist; the message names
            ``file:line``.

    Example:
        >>> import tempfile, pathlib
        >>> root = pathlib.Path(tempfile.mkdtemp())
        >>> (root / "csv" / "200-csv").mkdir(parents=True); (root / "data").mkdir()
        >>> _ = (root / "csv/200-csv/0.tsv").write_text("Year\\tCity\\n2004\\tAthens\\n")
        >>> _ = (root / "data/dev.tsv").write_text(
        ...     "id\\tutterance\\tcontext\\ttargetValue\\nnt-0\\twhere in 2004?\\tcsv/200-csv/0.csv\\tAthens\\n")
        >>> (example,) = load_wtq(root / "data/dev.tsv", split="dev")
        >>> example.gold, example.db_id, example.table.column(1)
        ('Athens', 'csv/200-csv/0.csv', ('Athens',))
    """
    path = Path(path)
    root = path.parent.parent if root is None else Path(root)
    tables = {} if tables is None else tables
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        raise DatasetError(
            f"WikiTableQuestions file {str(path)!r} does not exist. Set SEMPARSE_DATA_DIR to the folder holding "
            "'wtq/' (with 'wtq/data/*.tsv' and 'wtq/csv/')."
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise DatasetError(f"WikiTableQuestions file {str(path)!r} cannot be read as UTF-8 text: {error}.") from error
    if tuple(lines[0].split("\t")) != WTQ_HEADER:
        raise DatasetError(
            f"{path}:1: header {lines[0][:80]!r} is not WTQ's {chr(9).join(WTQ_HEADER)!r}; is this a "
            "WikiTableQuestions data/*.tsv file?"
        )
    examples = []
    for number, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != len(WTQ_HEADER):
            raise DatasetError(
                f"{path}:{number}: {len(fields)} tab-separated fields, expected 4 ({', '.join(WTQ_HEADER)}); "
                "fix or remove the line (tabs inside a field are not allowed)."
            )
        _, utterance, context, target = fields
        if not utterance.strip() or not context.strip():
            missing = "question (utterance)" if not utterance.strip() else "table (context)"
            raise DatasetError(f"{path}:{number}: empty {missing}; fill it in or remove the line.")
        try:
            table = wtq_table(root, context, cache=tables)
        except DatasetError as error:
            raise DatasetError(f"{path}:{number}: {error}") from None
        examples.append(wtq_example(utterance, context, target, table, split=split))
    return examples


def wtq_example(utterance: str, context: str, target: str, table: Table, *, split: str | None) -> SemparseExample:
    """A WTQ question (its ``utterance``, in WTQ's escaping), asked about ``table`` (named by its
    ``context``) with the answer ``target`` (``targetValue``, kept verbatim), as an example of ``split``.

    Example:
        >>> table = Table(["Year"], [["2004"]], name="csv/200-csv/0.csv")
        >>> wtq_example(r"which year\\p? ", "csv/200-csv/0.csv", "2004", table, split="dev").question
        'which year|?'
    """
    return SemparseExample(
        question=unescape_wtq(utterance).strip(), gold=target, db_id=context, table=table, question_split=split
    )
