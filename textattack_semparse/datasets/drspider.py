"""Loader of Dr.Spider's released perturbation test sets.

Chang, Wang, Dong, Pan, Zhu, Li, Lan, Zhang, Jiang, Lilien et al. (2023): "Dr.Spider: A
Diagnostic Evaluation Benchmark towards Text-to-SQL Robustness", ICLR 2023.
https://arxiv.org/abs/2301.08881 ; release https://github.com/awslabs/diagnostic-robustness-text-to-sql

The release's ``data.tar.gz`` unpacks (``tar -xf data.tar.gz -C data``) into one folder per test
set, ``DB_<set>`` (3 database perturbations), ``NLQ_<set>`` (9 question perturbations) and
``SQL_<set>`` (5 perturbations of the SQL asked for), plus ``Spider-dev/`` (``questions.json``,
``tables.json``, ``databases/``). Every set holds two parallel Spider-format files:
``questions_post_perturbation.json`` (the perturbed questions, each with its own ``query`` and
``db_id``) and ``questions_pre_perturbation.json`` (row ``i`` is the Spider dev question row
``i`` of the post file perturbs); both carry ``q_id_spider_dev``, the question's index in Spider
dev. A ``DB_`` set also ships its perturbed databases, ``database_post_perturbation/<db_id>/<db_id>.sqlite``
whose ``db_id`` is suffixed (``concert_singer_0``), and ``tables_post_perturbation.json``. The
release's ``data_preprocess.py`` copies Spider dev's databases into every set
(``databases_pre_perturbation/`` for a ``DB_`` set, ``databases/`` otherwise).

What is read, and where each side runs (first found):

* post questions: ``<set>/questions_post_perturbation.json`` (required);
* pre questions: ``<set>/questions_pre_perturbation.json``; without it, Spider dev itself, row
  ``q_id_spider_dev`` of ``Spider-dev/questions.json`` or of ``$SEMPARSE_DATA_DIR/spider-dev/dev.json``;
* pre databases: ``<set>/databases_pre_perturbation/`` (``DB_``) or ``<set>/databases/``, then
  ``Spider-dev/databases/``, then ``$SEMPARSE_DATA_DIR/spider-dev/database/``;
* post databases: a ``DB_`` set's own ``database_post_perturbation/`` (also accepted:
  ``databases_post_perturbation/``), never Spider dev's; other sets as their pre side.

The two sides of a set, and the sets among themselves, reuse ``db_id`` for different databases
(``concert_singer_0`` is another database in each ``DB_`` set), so every example's ``db_id`` is
the database key ``<set>.<side>.<db_id>`` (:func:`drspider_database_key`), each key linked to
its own file.

This module does not import TextAttack.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse.datasets.data_dir import DATA_DIR_ENV
from textattack_semparse.datasets.example import ORIGINAL, SemparseExample
from textattack_semparse.datasets.spider import read_spider_entries, spider_example
from textattack_semparse.errors import DatasetError, closest_match_hint

DRSPIDER_CATEGORIES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "DB": ("schema_synonym", "schema_abbreviation", "DBcontent_equivalence"),
        "NLQ": (
            "keyword_synonym",
            "keyword_carrier",
            "column_synonym",
            "column_carrier",
            "column_attribute",
            "column_value",
            "value_synonym",
            "multitype",
            "others",
        ),
        "SQL": ("comparison", "sort_order", "NonDB_number", "DB_text", "DB_number"),
    }
)
"""Category -> its test sets, in the order of the release's ``data_preprocess.py``."""

DRSPIDER_SETS: tuple[str, ...] = tuple(f"{category}_{name}" for category, names in DRSPIDER_CATEGORIES.items() for name in names)
"""The 17 set folders of the release (``DB_schema_synonym``, ``NLQ_keyword_synonym``, ``SQL_comparison``, ...)."""

PRE, POST = "pre", "post"
"""The two sides of a set (in database keys and example ids)."""

RELEASE_FOLDER = "drspider"
"""Folder of ``$SEMPARSE_DATA_DIR`` that holds the release (its ``data/`` folder, or the sets themselves)."""

DRSPIDER_DIR_ENV = "SEMPARSE_DRSPIDER_DIR"
"""Environment variable naming the release's folder, when it is not ``$SEMPARSE_DATA_DIR/drspider``."""

POST_QUESTIONS = "questions_post_perturbation.json"
PRE_QUESTIONS = "questions_pre_perturbation.json"
SPIDER_DEV = "Spider-dev"
_PRE_DATABASES = {"DB": ("databases_pre_perturbation",), "NLQ": ("databases",), "SQL": ("databases",)}
_POST_DATABASES = ("database_post_perturbation", "databases_post_perturbation")
_QUESTION_ID = "q_id_spider_dev"
_FIX = (
    "Get the release from https://github.com/awslabs/diagnostic-robustness-text-to-sql (git lfs pull), unpack it "
    "with 'tar -xf data.tar.gz -C data' and put that data/ folder at $SEMPARSE_DATA_DIR/drspider (or point "
    "$SEMPARSE_DRSPIDER_DIR at it)"
)


def drspider_category(set_name: str) -> str:
    """The category (``DB``, ``NLQ``, ``SQL``) of a set folder name.

    Example:
        >>> drspider_category("SQL_DB_text")
        'SQL'
    """
    return set_name.split("_", 1)[0]


def drspider_split(set_name: str) -> str:
    """The question (and query) split of a set's examples, ``<category>-<set>`` with the category in
    lower case, so that its registered dataset is ``drspider-<category>-<set>``.

    Example:
        >>> drspider_split("SQL_NonDB_number")
        'sql-NonDB_number'
    """
    category, _, name = set_name.partition("_")
    return f"{category.lower()}-{name}"


def drspider_database_key(set_name: str, side: str, db_id: str) -> str:
    """The ``db_id`` an example of ``set_name``'s ``side`` carries: its database, told apart from
    the databases of the other side and of the other sets that share the name.

    Example:
        >>> drspider_database_key("DB_schema_synonym", "post", "concert_singer_0")
        'DB_schema_synonym.post.concert_singer_0'
    """
    return f"{set_name}.{side}.{db_id}"


@dataclass(frozen=True)
class DrSpiderRelease:
    """Dr.Spider sets as examples, and the SQLite file of every database key they name.

    Args:
        folder (Path): The folder holding the set folders.
        sets (tuple[str, ...]): The sets read, in :data:`DRSPIDER_SETS` order.
        examples (tuple[SemparseExample, ...]): Per set, its originals (``perturbation`` =
            :data:`~textattack_semparse.datasets.example.ORIGINAL`, ``example_id``
            ``<set>/pre/<q_id_spider_dev>``), then its perturbed questions (``perturbation`` = the
            set, ``example_id`` ``<set>/post/<row>``, ``original_id`` the original's); a set's
            examples are its question (and query) split, :func:`drspider_split`.
        databases (Mapping[str, Path]): Database key (an example's ``db_id``) -> SQLite file.
        sources (tuple[str, ...]): Where each set's questions and databases came from, for reports.
    """

    folder: Path
    sets: tuple[str, ...]
    examples: tuple[SemparseExample, ...]
    databases: Mapping[str, Path]
    sources: tuple[str, ...]


def drspider_release_folder(data_dir: Path | None, drspider_dir: str | Path | None = None) -> Path:
    """The folder holding the set folders: ``drspider_dir`` when given, else
    ``$SEMPARSE_DRSPIDER_DIR`` when set, else ``<data_dir>/drspider``; in each, its ``data/``
    subfolder when that holds the sets (the release unpacked beside its scripts).

    Raises:
        DatasetError: No folder is given or configured, or it does not exist.
    """
    if drspider_dir is not None:
        root, origin = Path(drspider_dir).expanduser(), "drspider_dir"
    elif os.environ.get(DRSPIDER_DIR_ENV):
        root, origin = Path(os.environ[DRSPIDER_DIR_ENV]).expanduser(), DRSPIDER_DIR_ENV
    elif data_dir is not None:
        root, origin = data_dir / RELEASE_FOLDER, DATA_DIR_ENV
    else:
        raise DatasetError(
            f"Dr.Spider reads its release, but no folder is configured. Set {DRSPIDER_DIR_ENV} to the release's "
            f"folder, or {DATA_DIR_ENV} (data_dir= in Python, --data-dir where a command takes it) to the folder holding '{RELEASE_FOLDER}/'. {_FIX}."
        )
    if not root.is_dir():
        raise DatasetError(f"Dr.Spider folder {str(root)!r} (from {origin}) does not exist. {_FIX}.")
    nested = root / "data"
    if not _holds_sets(root) and _holds_sets(nested):
        return nested
    return root


def use_drspider_dir(folder: str | Path) -> None:
    """Make ``folder`` the Dr.Spider release of this process and of the workers it starts
    (``--drspider-dir``): sets :data:`DRSPIDER_DIR_ENV` to its absolute path and forgets loaded
    benchmarks.

    Raises:
        DatasetError: ``folder`` does not exist.
    """
    from textattack_semparse.datasets.benchmark import clear_benchmark_cache

    path = Path(folder).expanduser().resolve()
    if not path.is_dir():
        raise DatasetError(f"Dr.Spider folder {str(folder)!r} (from --drspider-dir) does not exist. {_FIX}.")
    os.environ[DRSPIDER_DIR_ENV] = str(path)
    clear_benchmark_cache()


def present_drspider_sets(folder: Path) -> tuple[str, ...]:
    """The sets of :data:`DRSPIDER_SETS` that have a folder in ``folder``, in that order."""
    return tuple(name for name in DRSPIDER_SETS if (folder / name).is_dir())


def load_drspider(
    folder: str | Path, sets: Sequence[str] | None = None, *, data_dir: Path | None = None
) -> DrSpiderRelease:
    """Read Dr.Spider sets from ``folder`` (see the module docstring for what is read where).

    Args:
        folder (str | Path): The folder holding the set folders (:func:`drspider_release_folder`).
        sets (Sequence[str] | None, default None): Set folder names (:data:`DRSPIDER_SETS`);
            ``None``: every set present.
        data_dir (Path | None, default None): The real-data folder, whose ``spider-dev/`` is the
            pre side when the release leaves it out.

    Raises:
        DatasetError: An unknown set name, a set folder or post-question file that is missing,
            a malformed file, pre and post files that are not parallel, or a database found
            nowhere; each message names the file and the fix.
    """
    folder = Path(folder)
    if sets is None:
        chosen = present_drspider_sets(folder)
        if not chosen:
            raise DatasetError(
                f"{str(folder)!r} holds none of Dr.Spider's set folders ({', '.join(DRSPIDER_SETS[:3])}, ...). {_FIX}."
            )
    else:
        for name in sets:
            if name not in DRSPIDER_SETS:
                raise DatasetError(
                    f"Unknown Dr.Spider set {name!r}.{closest_match_hint(name, DRSPIDER_SETS)} "
                    f"The sets: {', '.join(DRSPIDER_SETS)}."
                )
        chosen = tuple(name for name in DRSPIDER_SETS if name in sets)
    spider_dev = _SpiderDev(folder, data_dir)
    examples: list[SemparseExample] = []
    databases: dict[str, Path] = {}
    sources: list[str] = []
    for name in chosen:
        set_examples, set_databases, source = _load_set(folder, name, spider_dev)
        examples.extend(set_examples)
        databases.update(set_databases)
        sources.append(source)
    return DrSpiderRelease(folder, chosen, tuple(examples), MappingProxyType(databases), tuple(sources))


def _holds_sets(folder: Path) -> bool:
    return folder.is_dir() and any((folder / name).is_dir() for name in (*DRSPIDER_SETS, SPIDER_DEV))


class _SpiderDev:
    """Spider dev as the release ships it (``Spider-dev/``), else ``$SEMPARSE_DATA_DIR/spider-dev``:
    its questions (read on first use) and its database folders."""

    def __init__(self, folder: Path, data_dir: Path | None) -> None:
        shipped = folder / SPIDER_DEV
        real = None if data_dir is None else data_dir / "spider-dev"
        self.question_files = tuple(
            path for path in (shipped / "questions.json", None if real is None else real / "dev.json") if path is not None
        )
        self.database_folders = tuple(
            path for path in (shipped / "databases", None if real is None else real / "database") if path is not None
        )
        self._read: tuple[list[Any], Path] | None = None

    def entry(self, q_id: int, *, needed_by: Path) -> tuple[Any, Path]:
        """Row ``q_id`` of Spider dev's questions, and the file it came from."""
        if self._read is None:
            path = next((path for path in self.question_files if path.is_file()), None)
            if path is None:
                raise DatasetError(
                    f"{str(needed_by)!r} has no {PRE_QUESTIONS} beside it, so its pre-perturbation side is Spider dev, "
                    f"but neither {' nor '.join(repr(str(path)) for path in self.question_files)} exists. Put the "
                    f"release's {SPIDER_DEV}/ folder beside the sets, or set {DATA_DIR_ENV} to a folder holding "
                    "'spider-dev/dev.json'."
                )
            self._read = (read_spider_entries(path), path)
        entries, path = self._read
        if not 0 <= q_id < len(entries):
            raise DatasetError(
                f"{str(needed_by)!r}: {_QUESTION_ID} {q_id} is not a row of {str(path)!r} "
                f"({len(entries)} questions); the release and the Spider dev file do not match."
            )
        return entries[q_id], path


def _load_set(
    folder: Path, name: str, spider_dev: _SpiderDev
) -> tuple[list[SemparseExample], dict[str, Path], str]:
    """One set's originals then rewrites, its database keys -> files, and a line for reports."""
    set_folder = folder / name
    if not set_folder.is_dir():
        present = present_drspider_sets(folder)
        raise DatasetError(
            f"Dr.Spider set {name!r} has no folder {str(set_folder)!r} "
            f"(present: {', '.join(present) if present else 'none'}). {_FIX}."
        )
    post_path = set_folder / POST_QUESTIONS
    if not post_path.is_file():
        raise DatasetError(f"Dr.Spider set {name!r} has no {POST_QUESTIONS} in {str(set_folder)!r}. {_FIX}.")
    post_entries = read_spider_entries(post_path)
    pre_path = set_folder / PRE_QUESTIONS
    pre_entries = read_spider_entries(pre_path) if pre_path.is_file() else None
    if pre_entries is not None and len(pre_entries) != len(post_entries):
        raise DatasetError(
            f"{str(pre_path)!r} has {len(pre_entries)} questions and {str(post_path)!r} {len(post_entries)}; Dr.Spider's "
            "pre- and post-perturbation files are parallel (row i of one is row i of the other). Restore both "
            "from the release."
        )
    category, split = drspider_category(name), drspider_split(name)
    resolver = _DatabaseResolver(name, set_folder, category, spider_dev)
    originals: dict[tuple[int, str, str, str], SemparseExample] = {}
    question_ids: set[int] = set()
    rewrites: list[SemparseExample] = []
    for row, post_entry in enumerate(post_entries):
        q_id = _question_id(post_entry, post_path, row)
        post = spider_example(post_entry, where=f"{post_path}: entry {row}", split=split)
        if pre_entries is None:
            pre_entry, pre_file = spider_dev.entry(q_id, needed_by=post_path)
            pre = spider_example(pre_entry, where=f"{pre_file}: entry {q_id}", split=split)
        else:
            pre_entry, pre_file = pre_entries[row], pre_path
            pre = spider_example(pre_entry, where=f"{pre_file}: entry {row}", split=split)
            if isinstance(pre_entry, Mapping) and _QUESTION_ID in pre_entry and _question_id(pre_entry, pre_path, row) != q_id:
                raise DatasetError(
                    f"Row {row} of {str(pre_path)!r} is Spider dev question {pre_entry[_QUESTION_ID]} but row {row} of "
                    f"{str(post_path)!r} perturbs question {q_id}; the two files are not parallel. Restore both from "
                    "the release."
                )
        identity = (q_id, pre.question, pre.gold, str(pre.db_id))
        original = originals.get(identity)
        if original is None:
            # A question perturbed several ways has one original; a pre row that differs from it
            # (not seen in the release) is an original of its own.
            example_id = f"{name}/{PRE}/{q_id}" if q_id not in question_ids else f"{name}/{PRE}/{q_id}-{row}"
            question_ids.add(q_id)
            original = originals[identity] = dataclasses.replace(
                pre,
                db_id=resolver.key(PRE, str(pre.db_id), pre_file),
                example_id=example_id,
                perturbation=ORIGINAL,
            )
        rewrites.append(
            dataclasses.replace(
                post,
                db_id=resolver.key(POST, str(post.db_id), post_path),
                example_id=f"{name}/{POST}/{row}",
                original_id=original.example_id,
                perturbation=name,
            )
        )
    pre_source = str(pre_path) if pre_entries is not None else "Spider dev"
    source = f"{name}: {len(rewrites)} questions {post_path} (pre: {pre_source}); databases {resolver.describe()}"
    return [*originals.values(), *rewrites], resolver.files, source


def _question_id(entry: Any, path: Path, row: int) -> int:
    value = entry.get(_QUESTION_ID) if isinstance(entry, Mapping) else None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DatasetError(
            f"{path}: entry {row} has no {_QUESTION_ID!r} (got {value!r}); every Dr.Spider question names the Spider "
            "dev question it derives from by its index. Restore the file from the release."
        )
    return value


class _DatabaseResolver:
    """The database file of each (side, ``db_id``) of one set, found in the folders that side
    may use (module docstring), keyed by :func:`drspider_database_key`."""

    def __init__(self, name: str, set_folder: Path, category: str, spider_dev: _SpiderDev) -> None:
        self.name = name
        pre = (*(set_folder / folder for folder in _PRE_DATABASES[category]), *spider_dev.database_folders)
        post = tuple(set_folder / folder for folder in _POST_DATABASES) if category == "DB" else pre
        self.folders: dict[str, tuple[Path, ...]] = {PRE: pre, POST: post}
        self.files: dict[str, Path] = {}
        self.used: dict[str, set[Path]] = {PRE: set(), POST: set()}

    def key(self, side: str, db_id: str, questions: Path) -> str:
        key = drspider_database_key(self.name, side, db_id)
        if key not in self.files:
            folders = self.folders[side]
            found = next((folder for folder in folders if (folder / db_id / f"{db_id}.sqlite").is_file()), None)
            if found is None:
                raise DatasetError(
                    f"Database {db_id!r} of {str(questions)!r} ({side}-perturbation side of Dr.Spider set {self.name!r}) "
                    f"is in none of {_listing(folder / db_id / f'{db_id}.sqlite' for folder in folders)}. "
                    + (
                        "A DB_ set's perturbed databases ship in its database_post_perturbation/ folder; restore it "
                        "from the release."
                        if side == POST and self.name.startswith("DB_")
                        else f"Run the release's data_preprocess.py, or set {DATA_DIR_ENV} to a folder holding "
                        "'spider-dev/database/'."
                    )
                )
            self.files[key] = found / db_id / f"{db_id}.sqlite"
            self.used[side].add(found)
        return key

    def describe(self) -> str:
        return "; ".join(f"{side} {_listing(sorted(folders))}" for side, folders in self.used.items() if folders)


def _listing(paths: Iterable[Path]) -> str:
    return ", ".join(repr(str(path)) for path in paths)
