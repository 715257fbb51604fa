"""The rows of a set the plugin wrote, as a 🤗 dataset holds them: one flat record per example.

================================  ===================================================  =========
set (written by)                  one row per                                          split
================================  ===================================================  =========
robustness test set (``robustness  line of ``originals.jsonl`` (``perturbation``       ``test``
build``/``run``; an ICL study's   ``"original"``) and of each ``<perturbation>.jsonl``,
``test_set/``)                    as written, the table itself in place of its CSV path
augmented training set            example the package's loader reads back from the     ``train``
(``augment``)                     file (text2sql JSON, ``.tsv``, WTQ with its tables);
                                  a CSV file's rows as written
attack results (``attack``,       result row of TextAttack's CSV log, as written       ``test``
``grammar-attack``)
================================  ===================================================  =========

``validate import`` writes each source again in its own kind, so its copies are rows of the
same kinds. A table becomes ``{"name", "header", "rows"}``, the ``table`` struct of the
WikiTableQuestions dataset on the Hub; an example's ``variables`` and ``variable_types``
(text2sql-data placeholders) are JSON text, since their keys differ from example to example.
Original to textattack-semparse.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.example import ORIGINAL, SemparseExample
from textattack_semparse.errors import DatasetError
from textattack_semparse.llm.icl_results import ICL_TEST_SET_DIR
from textattack_semparse.metrics.attack_metrics import read_attack_log_content
from textattack_semparse.robustness.robustness_test_set import MANIFEST, ORIGINALS, TABLE_FIELD, RobustnessTestSet
from textattack_semparse.tables.table import Table
from textattack_semparse.validation.attack_log_source import LOG_FILE, is_attack_log
from textattack_semparse.validation.augmentation_source import TEXT2SQL_SUFFIXES, TSV_SUFFIXES

TEST_SET, AUGMENTED, ATTACK_RESULTS = "robustness test set", "augmented training set", "attack results"


@dataclass(frozen=True)
class WrittenSet:
    """A written set's rows, what kind of set it is and the split it makes on the Hub."""

    kind: str
    rows: list[dict[str, Any]]
    split: str


def set_rows(path: str | Path, *, file_format: str | None = None) -> WrittenSet:
    """The rows of the set at ``path``: a test-set or ICL-study directory, an attack's run
    directory or CSV log, or an augmented file (``file_format``: ``text2sql``, ``tsv``, ``csv``,
    ``wtq``; default: a CSV log, else text2sql or tsv by the suffix, as ``validate`` tells its sources).

    Raises:
        DatasetError: ``path`` is none of these, or its files are malformed.
    """
    path = Path(path)
    if path.is_dir():
        if (path / MANIFEST).is_file():
            return WrittenSet(TEST_SET, test_set_rows(path), "test")
        if (path / ICL_TEST_SET_DIR / MANIFEST).is_file():
            return WrittenSet(TEST_SET, test_set_rows(path / ICL_TEST_SET_DIR), "test")
        if (path / LOG_FILE).is_file():
            return WrittenSet(ATTACK_RESULTS, attack_rows(path / LOG_FILE), "test")
        raise DatasetError(
            f"{str(path)!r} is not a set textattack-semparse writes: no {MANIFEST} (robustness test set), "
            f"{ICL_TEST_SET_DIR}/{MANIFEST} (ICL study) or {LOG_FILE} (attack run)."
        )
    if file_format is None and path.suffix.lower() == ".csv" and is_attack_log(path):
        return WrittenSet(ATTACK_RESULTS, attack_rows(path), "test")
    if file_format is None:
        suffix = path.suffix.lower()
        file_format = "text2sql" if suffix in TEXT2SQL_SUFFIXES else "tsv" if suffix in TSV_SUFFIXES else None
    if file_format is None:
        raise DatasetError(
            f"Cannot tell the format of {str(path)!r} from its suffix; name it (text2sql, tsv, csv or wtq, as "
            "augment --format does)."
        )
    return WrittenSet(AUGMENTED, augmented_rows(path, file_format), "train")


def test_set_rows(directory: str | Path) -> list[dict[str, Any]]:
    """Every line of a robustness test set's JSONL files, originals first, each as written; an
    original gets ``"perturbation": "original"`` and a Table QA line its table.

    Raises:
        DatasetError: Not a robustness test set, or a file is malformed.
    """
    folder = Path(directory)
    test_set = RobustnessTestSet.read(folder)  # checks every file, with the test set's own messages
    rows = [{**record, "perturbation": ORIGINAL} for record in _jsonl(folder / ORIGINALS)]
    for name in test_set.perturbations:
        rows.extend(_jsonl(folder / f"{name}.jsonl"))
    return [_with_table(folder, row) for row in rows]


def augmented_rows(path: str | Path, file_format: str) -> list[dict[str, Any]]:
    """The rows of an augmented file in ``file_format``: its examples, or a CSV file's rows.

    Raises:
        DatasetError: An unknown format, or the file is malformed.
    """
    from textattack_semparse.datasets.logical_form import load_logical_forms
    from textattack_semparse.datasets.text2sql import load_text2sql
    from textattack_semparse.datasets.wtq import load_wtq

    path = Path(path)
    if file_format == "csv":
        with path.open(encoding="utf-8", newline="") as handle:
            return [dict(row) for row in csv.DictReader(handle)]
    readers = {
        "text2sql": lambda: load_text2sql(path, split_type="question", splits=None),
        "tsv": lambda: load_logical_forms(path),
        "wtq": lambda: load_wtq(path, root=path.parent),
    }
    if file_format not in readers:
        raise DatasetError(f"Unknown augmented-file format {file_format!r}; expected {', '.join(readers)} or csv.")
    return example_rows(readers[file_format]())


def attack_rows(log: str | Path) -> list[dict[str, Any]]:
    """The result rows of TextAttack's CSV log, as written.

    Raises:
        DatasetError: Not a CSV log (as :func:`~textattack_semparse.metrics.attack_metrics.read_attack_log_content`).
    """
    content = read_attack_log_content(log)
    if isinstance(content, dict):
        raise DatasetError(f"{str(log)!r} is TextAttack's summary JSON; its result rows are in the CSV log.")
    return [dict(row) for row in content]


def example_rows(examples: Iterable[SemparseExample]) -> list[dict[str, Any]]:
    """One row per example: its fields, the table as a record and the placeholder mappings as JSON text.

    Example:
        >>> example_rows([SemparseExample("rivers in texas", "SELECT 1", variables={"s0": "texas"})])[0]["variables"]
        '{"s0": "texas"}'
    """
    return [
        {
            "question": example.question,
            "gold": example.gold,
            "db_id": example.db_id,
            "question_split": example.question_split,
            "query_split": example.query_split,
            "template_question": example.template_question,
            "template_gold": example.template_gold,
            "variables": json.dumps(dict(example.variables), ensure_ascii=False) if example.variables else None,
            "variable_types": (
                json.dumps(dict(example.variable_types), ensure_ascii=False) if example.variable_types else None
            ),
            "table": None if example.table is None else example.table.to_record(),
            "example_id": example.example_id,
            "original_id": example.original_id,
            "perturbation": example.perturbation,
        }
        for example in examples
    ]


def _with_table(folder: Path, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with the table its ``table`` path names (read back by the test set's reader) in its place."""
    if TABLE_FIELD not in row:
        return row
    text = (folder / str(row[TABLE_FIELD])).read_text(encoding="utf-8")
    return {**row, TABLE_FIELD: Table.from_csv(text, name=row.get("db_id")).to_record()}


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
