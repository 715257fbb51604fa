"""JSONL files of rewrite pairs: the input of ``validate judge`` (one ``{"original", "rewrite",
"gold"?, "schema"?}`` object a line, other keys kept), its output (the same lines with ``"verdict"`` and
``"reason"``), and labelled pairs (with a person's ``"label"``) that ``validate agreement``
compares a judge with."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError
from textattack_semparse.judges.judgement import RewritePair


def read_pairs(path: str | os.PathLike[str], *, required: Sequence[str] = ("original", "rewrite")) -> list[dict[str, Any]]:
    """The JSON objects of the lines of ``path`` (blank lines skipped), each with the ``required``
    keys as strings.

    Raises:
        DatasetError: The file is missing or not UTF-8, or a line is not a JSON object with the
            required keys (the message names the file and line).
    """
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"Pairs file {str(path)!r} does not exist; pass a JSONL file of {{\"original\", \"rewrite\"}} lines.")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DatasetError(f"Pairs file {str(path)!r} is not UTF-8 text.") from None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise DatasetError(f"{path}:{number} is not valid JSON ({error.msg}); one JSON object a line.") from None
        missing = [key for key in required if not isinstance(record, dict) or not isinstance(record.get(key), str)]
        if missing:
            raise DatasetError(
                f"{path}:{number} has no {' and no '.join(repr(key) for key in missing)} string; each line needs "
                f"{', '.join(repr(key) for key in required)} (e.g. {{\"original\": \"rivers in texas\", \"rewrite\": "
                "\"the rivers in texas\"}})."
            )
        records.append(record)
    if not records:
        raise DatasetError(f"Pairs file {str(path)!r} holds no pairs.")
    return records


def rewrite_pair(record: dict[str, Any]) -> RewritePair:
    """The pair a record asks about (``gold`` when it is a string, ``schema`` when a list of words)."""
    gold, schema = record.get("gold"), record.get("schema")
    words = frozenset(str(word) for word in schema) if isinstance(schema, list) else frozenset()
    return RewritePair(record["original"], record["rewrite"], gold if isinstance(gold, str) else None, words)


def pairs_text(records: Sequence[dict[str, Any]]) -> str:
    """``records`` as JSONL."""
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
