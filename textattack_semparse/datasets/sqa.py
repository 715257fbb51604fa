"""Loader for SQA (Sequential Question Answering) in its released TSV format.

Iyyer, Yih and Chang (2017), "Search-based Neural Structured Learning for Sequential Question
Answering", ACL. https://aclanthology.org/P17-1167/ ; one of RobuT's three benchmarks (Zhao
et al. 2023, https://arxiv.org/abs/2306.14321).

``<split>.tsv`` (``train.tsv``, ``test.tsv``) has the columns ``id``, ``annotator``,
``position``, ``question``, ``table_file``, ``answer_coordinates`` and ``answer_text``; the
two answer columns are Python list literals (``['(0, 1)', '(2, 1)']`` and ``['Ann', 'Cy']``).
Tables are CSV files under ``table_csv/`` (``table_file`` is relative to the folder of the
TSV). Each row is one question of a sequence; it becomes one example (its ``position`` in the
sequence is not kept: the question is attacked alone, as RobuT does).

This module does not import TextAttack.
"""

from __future__ import annotations

import ast
import csv
import io
from collections.abc import MutableMapping
from pathlib import Path

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table

SQA_COLUMNS = ("id", "annotator", "position", "question", "table_file", "answer_coordinates", "answer_text")


def load_sqa(
    path: str | Path, *, split: str | None = None, tables: MutableMapping[str, Table] | None = None
) -> list[SemparseExample]:
    """Read an SQA ``<split>.tsv`` into one :class:`SemparseExample` per question.

    The gold is ``answer_text`` in WTQ's answer format, the ``db_id`` the ``table_file``.

    Args:
        path (str | Path): The TSV file.
        split (str | None, default None): The question-split label of every example.
        tables (MutableMapping[str, Table] | None, default None): Tables already read, by
            ``table_file``; tables read here are added.

    Raises:
        DatasetError: The file is missing or lacks a column; a line has another number of
            fields, an empty question, an answer that is not a list literal, or a table file
            that is missing or not rectangular; the message names ``file:line``.
    """
    path = Path(path)
    tables = {} if tables is None else tables
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(
            f"SQA file {str(path)!r} does not exist. Put SQA's '<split>.tsv' files and 'table_csv/' under "
            "'<SEMPARSE_DATA_DIR>/sqa/'."
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    header = next(reader, [])
    missing = [name for name in SQA_COLUMNS if name not in header]
    if missing:
        raise DatasetError(f"{path}:1: the header lacks {', '.join(missing)}; SQA files have {', '.join(SQA_COLUMNS)}.")
    index = {name: header.index(name) for name in SQA_COLUMNS}
    examples = []
    for fields in reader:
        where = f"{path}:{reader.line_num}"
        if not any(fields):
            continue
        if len(fields) != len(header):
            raise DatasetError(
                f"{where}: {len(fields)} tab-separated fields under a {len(header)}-column header; fix or remove "
                "the line."
            )
        question, table_file = fields[index["question"]].strip(), fields[index["table_file"]]
        if not question:
            raise DatasetError(f"{where}: empty question; fill it in or remove the line.")
        answer = _answer_list(fields[index["answer_text"]], where)
        examples.append(
            SemparseExample(
                question=question,
                gold=format_answer(answer),
                db_id=table_file,
                table=_table(path.parent, table_file, tables, where),
                question_split=split,
            )
        )
    return examples


def _answer_list(text: str, where: str) -> list[str]:
    try:
        values = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        values = None
    if not isinstance(values, list):
        raise DatasetError(
            f"{where}: answer_text {text[:80]!r} is not a list literal like \"['Ann', 'Cy']\"; fix the line."
        )
    return [str(value) for value in values]


def _table(folder: Path, table_file: str, tables: MutableMapping[str, Table], where: str) -> Table:
    if table_file not in tables:
        path = folder / table_file
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise DatasetError(
                f"{where}: table file {str(path)!r} does not exist; put SQA's 'table_csv/' folder beside the TSV."
            ) from None
        try:
            tables[table_file] = Table.from_csv(text, name=table_file)
        except DatasetError as error:
            raise DatasetError(f"{where}: {error}") from None
    return tables[table_file]
