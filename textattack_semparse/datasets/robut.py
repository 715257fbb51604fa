"""Loader for RobuT, a released robustness benchmark of Table QA, through ``datasets.load_dataset``.

Zhao, Zhao, Nan, Qi, Zhang, Tang, Mi and Radev (2023), "RobuT: A Systematic Study of Table QA
Robustness Against Human-Annotated Adversarial Perturbations", ACL 2023,
https://aclanthology.org/2023.acl-long.334/ ; data and code https://github.com/yilunzhao/RobuT.

The release is the Hugging Face dataset ``yilunzhao/robut`` with one split per benchmark
(``wtq``, ``wikisql``, ``sqa``), loaded with ``load_dataset("yilunzhao/robut", split="wtq")``.
Each row carries, as the authors' evaluation code (``utils/eval_utils.py``,
``main/run_tapex_omnitab.py``) reads them:

* ``question``: the question (SQA: a string holding a Python list of the sequence's questions);
* ``table``: ``{"header": [column names], "rows": [[cell strings], ...]}``, the row's own table,
  so the header and content perturbations are in the data;
* ``answers``: a list of answer strings (SQA: one string-encoded list per question);
* ``perturbation_type``: one of :data:`PERTURBATION_TYPES` (``original`` for the unperturbed rows);
* ``original_id``: the id of the unperturbed row the row derives from (an original names itself).

Only these fields are read (an ``id`` field, when present, names a rewrite; the hub card was
not checked, see ``docs/benchmarks.md``). Local files in the same schema (Parquet, JSON or JSON
lines) are read through the same ``load_dataset`` (``"parquet"``/``"json"`` with ``data_files``):
``<folder>/<split>.parquet`` (``.json``, ``.jsonl``) or the hub's layout
``<folder>/data/<split>-*.parquet``, the folder being ``--robut-dir`` (``SEMPARSE_ROBUT_DIR``) or
``<SEMPARSE_DATA_DIR>/robut``. Without local files the hub is asked, unless ``HF_HUB_OFFLINE`` or
``HF_DATASETS_OFFLINE`` is set.

Each WTQ or WikiSQL row becomes one example; its gold is the answers in WTQ's ``targetValue``
format, scored by WTQ's denotation match. An SQA row becomes one example per turn: the turn's
question is the sequence's questions up to it, joined by spaces (how the authors' TAPEX and
OmniTab runs read a turn), its ``sequence_id`` the row, so each turn is scored alone and the
turns of a sequence are averaged, RobuT's per-turn scoring (``calculate_sqa_final_scores``).
"""

from __future__ import annotations

import ast
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.example import ORIGINAL, SemparseExample
from textattack_semparse.errors import DatasetError, closest_match_hint
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table

ROBUT_HUB = "yilunzhao/robut"
"""The release on the Hugging Face hub."""

ROBUT_SPLITS = ("wtq", "wikisql", "sqa")
"""The hub's splits: RobuT-WTQ, RobuT-WikiSQL (WikiSQL-Weak) and RobuT-SQA."""

PERTURBATION_TYPES = (
    ORIGINAL,
    "synonym",
    "abbreviation",
    "row",
    "column",
    "extend",
    "masked",
    "add",
    "word",
    "sentence",
    "combined",
)
"""``perturbation_type`` values, in the order of the authors' score table: the originals; the
header perturbations (synonym, abbreviation); the content perturbations (row and column shuffling,
column extension, masking, adding columns); the question perturbations (word-level,
sentence-level, combined)."""

FIELDS = ("question", "table", "answers", "perturbation_type", "original_id")
"""The fields every row needs."""

ROBUT_DIR_ENV = "SEMPARSE_ROBUT_DIR"
"""A folder of local RobuT files (``--robut-dir``), instead of ``<SEMPARSE_DATA_DIR>/robut``."""

_OFFLINE = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")
_SUFFIXES = {".parquet": "parquet", ".json": "json", ".jsonl": "json"}


def robut_folder(data_dir: Path | None) -> Path | None:
    """Where local RobuT files are looked for: ``$SEMPARSE_ROBUT_DIR``, else ``<data_dir>/robut``
    when that folder exists, else ``None`` (the hub).

    Raises:
        DatasetError: ``SEMPARSE_ROBUT_DIR`` names no folder.
    """
    configured = os.environ.get(ROBUT_DIR_ENV, "")
    if configured:
        folder = Path(configured).expanduser()
        if not folder.is_dir():
            raise DatasetError(
                f"RobuT folder {configured!r} (--robut-dir or {ROBUT_DIR_ENV}) does not exist; point it at the "
                "folder holding '<split>.parquet' (or .json/.jsonl) files of RobuT's release."
            )
        return folder
    if data_dir is not None and (data_dir / "robut").is_dir():
        return data_dir / "robut"
    return None


def robut_files(folder: Path, split: str) -> list[Path]:
    """The local files of ``split`` in ``folder``: ``<split>.parquet``/``.json``/``.jsonl``, else
    the hub's ``data/<split>-*.parquet`` shards (sorted); empty when there are none.

    Raises:
        DatasetError: Files of two formats for one split.
    """
    files = [folder / f"{split}{suffix}" for suffix in _SUFFIXES if (folder / f"{split}{suffix}").is_file()]
    if not files:
        files = sorted((folder / "data").glob(f"{split}-*.parquet"))
    if len({_SUFFIXES[path.suffix] for path in files}) > 1:
        raise DatasetError(
            f"RobuT split {split!r} has files of two formats in {str(folder)!r} ({', '.join(p.name for p in files)}); "
            "keep one of them."
        )
    return files


def load_robut_rows(split: str, folder: Path | None) -> tuple[Any, list[Path], str]:
    """The rows of ``split`` as a ``datasets.Dataset``, the files they were read from, and where
    they came from (for reports): local files when ``folder`` has them, else the hub.

    Raises:
        DatasetError: ``split`` is not one of :data:`ROBUT_SPLITS`; no local files and the hub
            is off (``HF_HUB_OFFLINE``/``HF_DATASETS_OFFLINE``) or cannot be reached; a file
            cannot be read.
    """
    if split not in ROBUT_SPLITS:
        raise DatasetError(
            f"RobuT has the splits {', '.join(ROBUT_SPLITS)}, not {split!r}.{closest_match_hint(split, ROBUT_SPLITS)}"
        )
    import datasets
    import datasets.exceptions

    # What the hub and the readers raise: missing or unreachable files and repositories (OSError),
    # unreadable files (pyarrow's ArrowInvalid is a ValueError), failed builds (DatasetsError).
    load_errors = (OSError, ValueError, datasets.exceptions.DatasetsError)
    files = [] if folder is None else robut_files(folder, split)
    if files:
        from textattack_semparse.cache import cache_dir

        builder = _SUFFIXES[files[0].suffix]
        try:
            rows = datasets.load_dataset(
                builder,
                data_files=[str(path) for path in files],
                split="train",
                cache_dir=str(cache_dir() / "robut-datasets"),
            )
        except load_errors as error:
            raise DatasetError(
                f"RobuT files {', '.join(map(str, files))} cannot be read as {builder} ({type(error).__name__}: "
                f"{str(error)[:200]}); replace them with the release's files of split {split!r}."
            ) from None
        return rows, files, f"{', '.join(map(str, files))} (datasets.load_dataset({builder!r}))"
    where = (
        f"'{folder}/{split}.parquet'" if folder is not None else f"'<SEMPARSE_DATA_DIR>/robut/{split}.parquet'"
    )
    if any(os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on") for name in _OFFLINE):
        raise DatasetError(
            f"RobuT split {split!r} has no local file and the hub is off (HF_HUB_OFFLINE): put the release's file at "
            f"{where} (or .json/.jsonl; --robut-dir DIR or {ROBUT_DIR_ENV} names another folder), or unset "
            f"HF_HUB_OFFLINE to load {ROBUT_HUB!r} from the hub."
        )
    try:
        rows = datasets.load_dataset(ROBUT_HUB, split=split)
    except load_errors as error:
        raise DatasetError(
            f"RobuT split {split!r} could not be loaded from the hub ({ROBUT_HUB!r}: {type(error).__name__}: "
            f"{str(error)[:200]}); download the release and put the file at {where}."
        ) from None
    cached = [Path(entry["filename"]) for entry in rows.cache_files]
    return rows, cached, f"datasets.load_dataset({ROBUT_HUB!r}, split={split!r})"


def robut_examples(rows: Iterable[Mapping[str, Any]], split: str, *, source: str = "RobuT") -> list[SemparseExample]:
    """One example per WTQ/WikiSQL row, one per turn of an SQA row (see the module docstring).

    Originals get ``example_id`` = their ``original_id`` (SQA turns: ``<original_id>/<turn>``,
    turns counted from 1); a rewrite gets its ``id`` when the row has one, else
    ``<original_id>/<perturbation_type>/<k>`` (its k-th of that type, from 0), and names its
    original in ``original_id``. Tables are named after the original they derive from.

    Raises:
        DatasetError: A row lacks a field or holds a value of the wrong type, or an unknown
            perturbation type; the message names the row and the fix.

    Example:
        >>> rows = [{"question": "who won in 2004?", "answers": ["Ann"], "perturbation_type": "original",
        ...          "original_id": "nt-1", "table": {"header": ["Year", "Winner"], "rows": [["2004", "Ann"]]}},
        ...         {"question": "who was the winner in 2004?", "answers": ["Ann"], "perturbation_type": "word",
        ...          "original_id": "nt-1", "table": {"header": ["Year", "Winner"], "rows": [["2004", "Ann"]]}}]
        >>> [(e.example_id, e.original_id, e.perturbation, e.gold) for e in robut_examples(rows, "wtq")]
        [('nt-1', None, 'original', 'Ann'), ('nt-1/word/0', 'nt-1', 'word', 'Ann')]
    """
    examples: list[SemparseExample] = []
    seen: Counter[tuple[str, str]] = Counter()
    for number, row in enumerate(rows):
        where = f"{source}, split {split!r}, row {number}"
        perturbation, original_id = _perturbation(row, where), _text_field(row, "original_id", where)
        table = _table(row, where, name=original_id)
        if perturbation == ORIGINAL:
            example_id, derived_from = original_id, None
        else:
            own = row.get("id")
            example_id = str(own) if own is not None else f"{original_id}/{perturbation}/{seen[original_id, perturbation]}"
            seen[original_id, perturbation] += 1
            derived_from = original_id
        if split != "sqa":
            examples.append(
                SemparseExample(
                    question=_question(row, where),
                    gold=format_answer(_strings(row.get("answers"), "answers", where)),
                    db_id=table.name,
                    table=table,
                    question_split=perturbation,
                    example_id=example_id,
                    original_id=derived_from,
                    perturbation=perturbation,
                )
            )
            continue
        questions, answers = _sqa_turns(row, where)
        for turn, answer in enumerate(answers, start=1):
            examples.append(
                SemparseExample(
                    question=" ".join(questions[:turn]),
                    gold=format_answer(answer),
                    db_id=table.name,
                    table=table,
                    question_split=perturbation,
                    example_id=f"{example_id}/{turn}",
                    original_id=None if derived_from is None else f"{derived_from}/{turn}",
                    perturbation=perturbation,
                    sequence_id=example_id,
                )
            )
    return examples


def _malformed(where: str, problem: str) -> DatasetError:
    return DatasetError(
        f"{where}: {problem}. RobuT rows have {', '.join(FIELDS)} (as the authors' evaluation code reads them); "
        f"replace the file with the release's ({ROBUT_HUB!r} on the hub, or robut_data.zip of "
        "https://github.com/yilunzhao/RobuT)."
    )


def _field(row: Mapping[str, Any], name: str, where: str) -> Any:
    if name not in row or row[name] is None:
        raise _malformed(where, f"no {name!r} field")
    return row[name]


def _text_field(row: Mapping[str, Any], name: str, where: str) -> str:
    value = _field(row, name, where)
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise _malformed(where, f"{name!r} must be a non-empty string, got {value!r:.80}")
    return str(value)


def _question(row: Mapping[str, Any], where: str) -> str:
    question = _field(row, "question", where)
    if not isinstance(question, str) or not question.strip():
        raise _malformed(where, f"'question' must be a non-empty string, got {question!r:.80}")
    return question.strip()


def _perturbation(row: Mapping[str, Any], where: str) -> str:
    value = _field(row, "perturbation_type", where)
    if value not in PERTURBATION_TYPES:
        raise _malformed(
            where,
            f"perturbation_type {value!r} is not one of {', '.join(PERTURBATION_TYPES)}"
            f"{closest_match_hint(str(value), PERTURBATION_TYPES)}",
        )
    return str(value)


def _strings(value: Any, name: str, where: str) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise _malformed(where, f"{name!r} must be a list of strings, got {value!r:.80}")
    return list(value)


def _table(row: Mapping[str, Any], where: str, *, name: str) -> Table:
    table = _field(row, "table", where)
    if not isinstance(table, Mapping) or "header" not in table or "rows" not in table:
        raise _malformed(where, "'table' must be an object with 'header' (column names) and 'rows' (lists of cells)")
    header = _strings(table["header"], "table.header", where)
    cells = table["rows"]
    if isinstance(cells, str) or not isinstance(cells, Sequence) or any(
        isinstance(cells_row, str) or not isinstance(cells_row, Sequence) for cells_row in cells
    ):
        raise _malformed(where, f"'table.rows' must be a list of lists of cells, got {cells!r:.80}")
    try:
        return Table(tuple(header), tuple(tuple("" if cell is None else str(cell) for cell in r) for r in cells), name)
    except DatasetError as error:
        raise _malformed(where, str(error).rstrip(".")) from None


def _sqa_turns(row: Mapping[str, Any], where: str) -> tuple[list[str], list[list[str]]]:
    """An SQA row's questions and per-turn answers, decoded from their Python-literal strings."""
    questions = _literal_strings(_field(row, "question", where), "question", where)
    encoded = _strings(row.get("answers"), "answers", where)
    answers = [_literal_strings(answer, f"answers[{turn}]", where) for turn, answer in enumerate(encoded)]
    if len(answers) != len(questions) or not questions:
        raise _malformed(
            where, f"an SQA row needs one answer list per question, got {len(questions)} questions and {len(answers)} answers"
        )
    return [question.strip() for question in questions], answers


def _literal_strings(text: Any, name: str, where: str) -> list[str]:
    try:
        value = ast.literal_eval(text) if isinstance(text, str) else None
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise _malformed(where, f"SQA's {name!r} must be a string holding a Python list of strings, got {text!r:.80}")
    return value
