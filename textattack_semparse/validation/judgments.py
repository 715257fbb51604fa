"""People's judgments of exported rewrites, read from CSV files: the annotation page's download
(``judgments-<annotator>.csv``) or a crowdsourcing platform's results file.

Every file has a header row; the three columns read are the item id, the annotator and the label
(``item_id,annotator,label`` by default). A platform names them its own way, and ``columns``
says which column is which: Amazon Mechanical Turk's batch results name the uploaded item's id
``Input.item_id``, the worker ``WorkerId`` and a form field called ``label`` ``Answer.label``
(:func:`parse_columns`). A same-meaning label is *same*, *different* or *unsure* (Huang et al.'s
three options), in any case, also spelled *same meaning*, *different meaning* or *not sure*
(:func:`same_meaning_label`).
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import ConfigurationError, DatasetError, closest_match_hint
from textattack_semparse.judges.judgement import Verdict

JUDGMENT_COLUMNS = ("item_id", "annotator", "label")
"""The columns of a judgments file, as the annotation page writes them."""

MTURK_COLUMNS = "item_id=Input.item_id,annotator=WorkerId,label=Answer.label"
"""``--columns`` for Amazon Mechanical Turk's batch results of items.csv with a form field ``label``."""

_SPELLINGS = {
    "same": Verdict.SAME,
    "same meaning": Verdict.SAME,
    "different": Verdict.DIFFERENT,
    "different meaning": Verdict.DIFFERENT,
    "unsure": Verdict.UNSURE,
    "not sure": Verdict.UNSURE,
}


@dataclass(frozen=True)
class Judgment:
    """One annotator's label of one item, and where it was read (``file:line``, for messages)."""

    item_id: str
    annotator: str
    label: str
    where: str


def parse_columns(text: str | None) -> dict[str, str]:
    """The column of each of :data:`JUDGMENT_COLUMNS` from ``FIELD=COLUMN,...``; fields not named
    keep their own name.

    Example:
        >>> parse_columns("item_id=Input.item_id,annotator=WorkerId,label=Answer.label")["annotator"]
        'WorkerId'
        >>> parse_columns(None)
        {'item_id': 'item_id', 'annotator': 'annotator', 'label': 'label'}
    """
    columns = {field: field for field in JUDGMENT_COLUMNS}
    if text is None:
        return columns
    for entry in filter(None, (part.strip() for part in text.split(","))):
        field, separator, column = (piece.strip() for piece in entry.partition("="))
        if not separator or not column:
            raise ConfigurationError(f"--columns entry {entry!r} is not FIELD=COLUMN (e.g. --columns {MTURK_COLUMNS}).")
        if field not in columns:
            raise ConfigurationError(
                f"--columns names the field {field!r}; the fields are {', '.join(JUDGMENT_COLUMNS)}."
                + closest_match_hint(field, JUDGMENT_COLUMNS)
            )
        columns[field] = column
    return columns


def read_judgments(paths: Sequence[str | os.PathLike[str]], columns: Mapping[str, str] | None = None) -> list[Judgment]:
    """Every judgment of the CSV files ``paths``, in file and row order; the label as written.

    Raises:
        DatasetError: A file is missing, not UTF-8, has no header, lacks one of the columns, or
            has a row with another number of fields than the header or an empty field (the
            message names the file and line and the fix).
    """
    columns = dict(columns or parse_columns(None))
    judgments: list[Judgment] = []
    for path in map(Path, paths):
        judgments.extend(_read_file(path, columns))
    return judgments


def _read_file(path: Path, columns: Mapping[str, str]) -> list[Judgment]:
    if not path.is_file():
        raise DatasetError(f"Judgments file {str(path)!r} does not exist; pass the CSV files the annotators sent back.")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise DatasetError(f"Judgments file {str(path)!r} is not UTF-8 text; save it as UTF-8 CSV.") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, [])
        if not any(header):
            raise DatasetError(
                f"Judgments file {str(path)!r} is empty; expected a header row ({','.join(JUDGMENT_COLUMNS)}) and one row "
                "per judgment."
            )
        missing = [f"{field} ({column!r})" for field, column in columns.items() if column not in header]
        if missing:
            raise DatasetError(
                f"Judgments file {str(path)!r} has no column for {', '.join(missing)}; its columns are "
                f"{', '.join(header)}. Map a platform's columns with --columns FIELD=COLUMN,... (Amazon Mechanical "
                f"Turk: --columns {MTURK_COLUMNS})."
            )
        positions = {field: header.index(column) for field, column in columns.items()}
        judgments = []
        line = reader.line_num + 1
        for record in reader:
            where = f"{path}:{line}"
            line = reader.line_num + 1
            if not any(field.strip() for field in record):
                continue
            if len(record) != len(header):
                raise DatasetError(
                    f"{where}: {len(record)} fields where the header has {len(header)}; the CSV is malformed "
                    "(an unquoted comma?). Write it again from the annotation page or the platform."
                )
            values = {field: record[position].strip() for field, position in positions.items()}
            empty = [field for field, value in values.items() if not value]
            if empty:
                raise DatasetError(f"{where}: the {' and '.join(empty)} field is empty; every judgment needs all three.")
            judgments.append(Judgment(values["item_id"], values["annotator"], values["label"], where))
    except csv.Error as error:
        raise DatasetError(f"Judgments file {str(path)!r} is not a CSV file ({error}).") from None
    return judgments


def same_meaning_label(label: str) -> str | None:
    """``same``, ``different`` or ``unsure`` for a label as people write it, else ``None``.

    Example:
        >>> same_meaning_label("Same"), same_meaning_label("not_sure"), same_meaning_label("maybe")
        ('same', 'unsure', None)
    """
    verdict = _SPELLINGS.get(re.sub(r"[\s_-]+", " ", label.strip().lower()))
    return None if verdict is None else verdict.value
