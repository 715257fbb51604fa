"""Loader for Spider's JSON files (``dev.json``, ``train_spider.json``).

Yu, Zhang, Yang, Yasunaga, Wang, Li, Ma, Li, Yao, Roman, Zhang and Radev (2018): "Spider: A
Large-Scale Human-Labeled Dataset for Complex and Cross-Domain Semantic Parsing and
Text-to-SQL Task". https://aclanthology.org/D18-1425/ ; https://yale-lily.github.io/spider

Each entry has ``question``, ``query`` (the gold SQL) and ``db_id``; the database of an
example is ``<database root>/<db_id>/<db_id>.sqlite``. The other fields (tokens, the
parsed ``sql``) are not needed here.

This module does not import TextAttack.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError

_FIELDS = ("question", "query", "db_id")


def spider_example(entry: Any, *, where: str, split: str | None) -> SemparseExample:
    """One Spider entry (``question``, ``query``, ``db_id``; other fields ignored) as an example of
    ``split``; ``where`` names the entry in errors (``"dev.json: entry 3"``). The same fields make
    a row of ``xlangai/spider`` on the Hugging Face Hub (:mod:`textattack_semparse.datasets.hub`).

    Raises:
        DatasetError: ``entry`` is not an object with a non-empty question, query and db_id.

    Example:
        >>> spider_example({"question": "How many singers? ", "query": "SELECT count(*) FROM singer",
        ...                 "db_id": "concert_singer"}, where="row 0", split="dev").question
        'How many singers?'
    """
    if not isinstance(entry, Mapping):
        raise DatasetError(f"{where} is a {type(entry).__name__}, not an object with {', '.join(_FIELDS)}.")
    for name in _FIELDS:
        value = entry.get(name)
        if not isinstance(value, str) or not value.strip():
            raise DatasetError(
                f"{where} has no {name!r} (got {value!r}); every Spider entry needs a non-empty "
                f"'question', 'query' and 'db_id'."
            )
    return SemparseExample(
        question=entry["question"].strip(),
        gold=entry["query"].strip(),
        db_id=entry["db_id"],
        question_split=split,
        query_split=split,
    )


def load_spider(path: str | Path, *, split: str | None = "dev") -> list[SemparseExample]:
    """Read a Spider JSON file into one :class:`SemparseExample` per entry, with its ``db_id``.

    Spider's splits are by database: no database (hence no question and no query) of the
    dev set occurs in training. ``split`` is therefore given as both the question split and
    the query split of every example.

    Args:
        path (str | Path): The JSON file (e.g. ``spider-dev/dev.json``).
        split (str | None, default "dev"): Split label of every example.

    Raises:
        DatasetError: The file is missing, not valid JSON, not a list, or an entry lacks a
            question, query or db_id; the message names the file and the entry index.
    """
    path = Path(path)
    return [
        spider_example(entry, where=f"{path}: entry {index}", split=split)
        for index, entry in enumerate(read_spider_entries(path))
    ]


def read_spider_entries(path: Path) -> list[Any]:
    """The raw entries of a Spider-format JSON file (a list), unchecked.

    Raises:
        DatasetError: The file is missing, unreadable, not valid JSON or not a list.
    """
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(
            f"Spider file {str(path)!r} does not exist. Check the path, or set SEMPARSE_DATA_DIR to the folder "
            f"that holds 'spider-dev/'."
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise DatasetError(f"Spider file {str(path)!r} cannot be read as UTF-8 text: {error}.") from error
    try:
        entries = json.loads(raw)
    except json.JSONDecodeError as error:
        raise DatasetError(
            f"{path} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}). "
            f"Expected Spider's list of {{'question', 'query', 'db_id', ...}} entries."
        ) from None
    if not isinstance(entries, list):
        raise DatasetError(f"{path} holds a JSON {type(entries).__name__}; Spider files are a list of entries.")
    return entries
