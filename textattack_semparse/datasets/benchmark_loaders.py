"""Loaders of the built-in benchmarks, registered by the built-in plugin (``plugin.py``).

A loader is called as ``loader(name=..., data_dir=..., **options)`` with the registered name,
the resolved data directory (``None`` when none is configured) and the entry's options, and
returns a :class:`~textattack_semparse.datasets.benchmark.Benchmark`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from textattack_semparse.datasets.benchmark import Benchmark, load_benchmark
from textattack_semparse.datasets.data_dir import DATA_DIR_ENV
from textattack_semparse.datasets.drspider import drspider_release_folder, load_drspider
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.datasets.geoquery_constants import geoquery_constants
from textattack_semparse.datasets.huang2021 import DOMAINS, load_huang2021_release, release_root
from textattack_semparse.datasets.linked_databases import linked_database_root
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.datasets.robut import load_robut_rows, robut_examples, robut_folder
from textattack_semparse.datasets.spider import load_spider
from textattack_semparse.datasets.sqa import load_sqa
from textattack_semparse.datasets.text2sql import load_text2sql
from textattack_semparse.datasets.wikisql_weak import load_wikisql_weak
from textattack_semparse.datasets.wtq import load_wtq
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
from textattack_semparse.scoring.execution_scorer import GOLD_TIMEOUT, ExecutionScorer
from textattack_semparse.scoring.scoring import Scoring
from textattack_semparse.scoring.table_answer_scorer import TableAnswerScorer
from textattack_semparse.tables.table import Table


def load_geo_mini(*, name: str, data_dir: Path | None) -> Benchmark:
    """GeoQuery-style questions on a small US-geography database, embedded in the package."""
    json_path, database = geo_mini_paths()
    examples = tuple(load_text2sql(json_path))
    return Benchmark(
        name=name,
        examples=examples,
        scoring=Scoring(ExecutionScorer(), Databases.at(database)),
        source=f"embedded geo-mini, written by textattack-semparse from public facts ({json_path})",
        source_files=_one_file_for_every_split(examples, json_path),
        source_format="text2sql",
    )


def load_geo(*, name: str, data_dir: Path | None) -> Benchmark:
    """The real GeoQuery (``text2sql/geography.json``) when a data directory is configured,
    otherwise the embedded geo-mini."""
    if data_dir is None:
        return load_geo_mini(name="geo-mini", data_dir=None)
    return load_text2sql_benchmark(name="geoquery", data_dir=data_dir, stem="geography", needs_database=True)


def load_text2sql_benchmark(
    *,
    name: str,
    data_dir: Path | None,
    stem: str,
    needs_database: bool,
    execution_mode: str = "classical",
    gold_timeout: float = GOLD_TIMEOUT,
) -> Benchmark:
    """``<data_dir>/text2sql/<stem>.json`` scored by execution on ``<stem>.sqlite`` (or the MySQL
    dump ``<stem>-db.sql``, converted once), or by exact match when there is neither and
    ``needs_database`` is False; gold queries may run ``gold_timeout`` seconds."""
    folder = _require_data_dir(name, data_dir) / "text2sql"
    json_path = folder / f"{stem}.json"
    examples = tuple(load_text2sql(json_path))
    database = _text2sql_database(folder, stem)
    if database is None and needs_database:
        raise DatasetError(
            f"Benchmark {name!r} needs its database: neither {str(folder / f'{stem}.sqlite')!r} nor the "
            f"MySQL dump {str(folder / f'{stem}-db.sql')!r} exists. Put one of them there."
        )
    scoring = (
        Scoring(ExactMatchScorer())
        if database is None
        else Scoring(ExecutionScorer(mode=execution_mode, gold_timeout=gold_timeout), Databases.at(database))
    )
    return Benchmark(
        name=name,
        examples=examples,
        scoring=scoring,
        source=f"questions {json_path}; database {database}",
        schema_file=schema_file if (schema_file := folder / f"{stem}-schema.csv").is_file() else None,
        source_files=_one_file_for_every_split(examples, json_path),
        source_format="text2sql",
    )


def load_spider_benchmark(*, name: str, data_dir: Path | None, execution_mode: str = "test-suite") -> Benchmark:
    """Spider (Yu et al. 2018) dev set: 1,034 questions over 20 SQLite databases, one per ``db_id``,
    compared as Spider's test-suite evaluator compares them."""
    if data_dir is None:
        raise DatasetError(
            f"Benchmark {name!r} reads the real data, but no data directory is configured. Set {DATA_DIR_ENV} (or "
            "data_dir= in Python, --data-dir where a command takes it) to the folder holding 'spider-dev/' (dev.json and database/), or read the "
            "questions from the Hugging Face Hub with 'spider-hub' (databases still from 'spider-dev/database/')."
        )
    folder = data_dir / "spider-dev"
    json_path = folder / "dev.json"
    examples = tuple(load_spider(json_path, split="dev"))
    root = folder / "database"
    if not root.is_dir():
        raise DatasetError(
            f"Benchmark {name!r} needs its databases under {str(root)!r} (one '<db_id>/<db_id>.sqlite' "
            f"per database), but that folder does not exist. Put Spider's 'database/' folder there."
        )
    return Benchmark(
        name=name,
        examples=examples,
        scoring=Scoring(ExecutionScorer(mode=execution_mode), Databases(root=root)),
        source=f"questions {json_path}; databases {root}",
        source_files={"dev": json_path},
        source_format="spider",
    )


def load_drspider_benchmark(
    *,
    name: str,
    data_dir: Path | None,
    sets: Sequence[str] | None = None,
    drspider_dir: str | None = None,
    execution_mode: str = "test-suite",
) -> Benchmark:
    """Dr.Spider (Chang et al. 2023) sets: each set's Spider dev originals and its perturbed
    questions (:mod:`textattack_semparse.datasets.drspider`), every side on its own databases,
    compared as the test-suite evaluator the paper uses compares them; reported in Dr.Spider's
    leaderboard table.

    Args:
        sets: Set folders (``"NLQ_keyword_synonym"``); ``None``: every set present.
        drspider_dir: The release's folder; default ``$SEMPARSE_DRSPIDER_DIR``, else
            ``<data_dir>/drspider``.
    """
    folder = drspider_release_folder(data_dir, drspider_dir)
    release = load_drspider(folder, sets, data_dir=data_dir)
    root = linked_database_root(release.databases, under="drspider/roots")
    return Benchmark(
        name=name,
        examples=release.examples,
        scoring=Scoring(ExecutionScorer(mode=execution_mode), Databases(root=root)),
        source=f"Dr.Spider {folder}: " + "; ".join(release.sources),
        source_format="spider",
        leaderboard="drspider",
    )


def load_logical_form_benchmark(
    *,
    name: str,
    data_dir: Path | None,
    folder: str,
    files: Mapping[str, str],
    geography_database: str | None = None,
) -> Benchmark:
    """``<data_dir>/lambda/<folder>/<file>`` per split (split -> file), scored by exact match;
    with ``geography_database`` (a path under ``data_dir``), GeoQuery's database values as the
    benchmark's known constants when that file exists."""
    root = _require_data_dir(name, data_dir)
    directory = root / "lambda" / folder
    examples = tuple(
        example for split, file in files.items() for example in load_logical_forms(directory / file, split=split)
    )
    geography = None if geography_database is None else root / geography_database
    return Benchmark(
        name=name,
        examples=examples,
        scoring=Scoring(ExactMatchScorer(logical_form=True)),
        source=f"files {', '.join(str(directory / file) for file in files.values())}",
        source_files={split: directory / file for split, file in files.items()},
        source_format="tsv",
        known_constants=geoquery_constants(geography) if geography is not None and geography.is_file() else (),
    )


def load_huang2021_benchmark(*, name: str, data_dir: Path | None, domain: str, kind: str) -> Benchmark:
    """Huang et al. (2021)'s ``kind`` sets of ``domain`` from ``<data_dir>/huang2021``, each rewrite
    with the gold its original has in the domain's benchmark (:mod:`~textattack_semparse.datasets.huang2021`)
    and scored as that benchmark is; the lines whose original was not found are ``left_out``."""
    root = release_root(data_dir, name)
    base = load_benchmark(DOMAINS[domain], data_dir=data_dir)
    release = load_huang2021_release(root, domain, kind, base.name, base.examples)
    found = ", ".join(f"{count} by {step}" for step, count in release.steps.items()) or "none"
    return Benchmark(
        name=name,
        examples=release.examples,
        scoring=base.scoring,
        source=f"Huang et al. 2021 {kind} sets of {domain} in {root}, golds of {base.name} ({base.source}); "
        f"originals found: {found}; {len(release.unmatched)} release lines left out",
        source_files={**release.files, **{f"{base.name}/{split}": path for split, path in dict(base.source_files).items()}},
        source_format="huang2021",
        leaderboard="huang-2021",  # robustness.leaderboards: Huang et al.'s per-perturbation table
        left_out=release.left_out,
    )


WTQ_RANDOM_SPLITS = (1, 2, 3, 4, 5)


def load_wtq_benchmark(*, name: str, data_dir: Path | None, random_split: int = 1) -> Benchmark:
    """WikiTableQuestions (Pasupat and Liang 2015) from ``<data_dir>/wtq``, scored by denotation:
    train/dev = ``data/random-split-<random_split>-{train,dev}.tsv`` (RobuT's split 1 by
    default), test = ``data/pristine-unseen-tables.tsv``."""
    if random_split not in WTQ_RANDOM_SPLITS:
        raise DatasetError(
            f"WikiTableQuestions has random splits {', '.join(map(str, WTQ_RANDOM_SPLITS))}, not {random_split!r}; "
            "pick one of them (RobuT uses 1)."
        )
    root = _table_qa_folder(name, data_dir, "wtq", "WikiTableQuestions' 'data/' and 'csv/' folders", hub="wtq-hub")
    files = {
        "train": root / "data" / f"random-split-{random_split}-train.tsv",
        "dev": root / "data" / f"random-split-{random_split}-dev.tsv",
        "test": root / "data" / "pristine-unseen-tables.tsv",
    }
    tables: dict[str, Table] = {}
    examples = tuple(
        example for split, path in files.items() for example in load_wtq(path, split=split, root=root, tables=tables)
    )
    return table_qa_benchmark(name, examples, files, "wtq", f"{len(tables)} tables under {root / 'csv'}")


def load_wikisql_weak_benchmark(*, name: str, data_dir: Path | None) -> Benchmark:
    """WikiSQL (Zhong et al. 2017) from ``<data_dir>/wikisql`` as weakly supervised Table QA: each
    question answered by its SQL's denotation, scored by denotation."""
    root = _table_qa_folder(
        name, data_dir, "wikisql", "WikiSQL's '<split>.jsonl' and '<split>.tables.jsonl'", hub="wikisql-weak-hub"
    )
    files = {split: root / f"{split}.jsonl" for split in ("train", "dev", "test")}
    examples = tuple(example for split, path in files.items() for example in load_wikisql_weak(path, split=split))
    return table_qa_benchmark(name, examples, files, "wikisql", f"tables in {root}/<split>.tables.jsonl")


def load_sqa_benchmark(*, name: str, data_dir: Path | None) -> Benchmark:
    """SQA (Iyyer et al. 2017) from ``<data_dir>/sqa`` (``train.tsv``, ``test.tsv``, ``table_csv/``),
    one example per question, scored by denotation."""
    root = _table_qa_folder(name, data_dir, "sqa", "SQA's 'train.tsv', 'test.tsv' and 'table_csv/'")
    files = {split: root / f"{split}.tsv" for split in ("train", "test")}
    tables: dict[str, Table] = {}
    examples = tuple(
        example for split, path in files.items() for example in load_sqa(path, split=split, tables=tables)
    )
    return table_qa_benchmark(name, examples, files, "sqa", f"{len(tables)} tables under {root / 'table_csv'}")


def load_robut_benchmark(*, name: str, data_dir: Path | None, split: str) -> Benchmark:
    """RobuT (Zhao et al. 2023) split ``split`` (``wtq``, ``wikisql``, ``sqa``): local files under
    ``--robut-dir``/``<data_dir>/robut``, else the hub's ``yilunzhao/robut``, read with
    ``datasets.load_dataset`` (:mod:`textattack_semparse.datasets.robut`); scored by WTQ's
    denotation match, reported in RobuT's table."""
    rows, files, source = load_robut_rows(split, robut_folder(data_dir))
    examples = tuple(robut_examples(rows, split, source=f"RobuT {source}"))
    return Benchmark(
        name=name,
        examples=examples,
        scoring=Scoring(TableAnswerScorer()),
        source=f"RobuT split {split!r}: {source}",
        source_files={path.name: path for path in files},
        leaderboard="robut",
    )


def table_qa_benchmark(
    name: str, examples: tuple[SemparseExample, ...], files: Mapping[str, Path], source_format: str | None, tables: str
) -> Benchmark:
    """A Table QA benchmark: no database, WTQ's denotation scorer; ``files`` (split -> file, in
    ``source_format``) empty for one read from the Hugging Face Hub."""
    return Benchmark(
        name=name,
        examples=examples,
        scoring=Scoring(TableAnswerScorer()),
        source=f"questions {', '.join(str(path) for path in files.values()) or 'of the rows'}; {tables}",
        source_files=files,
        source_format=source_format,
    )


def _table_qa_folder(name: str, data_dir: Path | None, folder: str, holds: str, *, hub: str | None = None) -> Path:
    """``<data_dir>/<folder>``, or a :class:`DatasetError` naming ``SEMPARSE_DATA_DIR``, what it must
    hold and the benchmark ``hub`` that reads the same data from the Hugging Face Hub."""
    alternative = "" if hub is None else f", or read it from the Hugging Face Hub with {hub!r}"
    if data_dir is None:
        raise DatasetError(
            f"Benchmark {name!r} reads the real data, but no data directory is configured. Set {DATA_DIR_ENV} "
            f"(or data_dir= in Python, --data-dir where a command takes it) to the folder holding '{folder}/' ({holds}){alternative}."
        )
    root = data_dir / folder
    if not root.is_dir():
        raise DatasetError(
            f"Benchmark {name!r} needs {str(root)!r} ({holds}), which does not exist. Put the data there, or point "
            f"{DATA_DIR_ENV} at a folder that has '{folder}/'{alternative}."
        )
    return root


def _one_file_for_every_split(examples: tuple[SemparseExample, ...], path: Path) -> dict[str, Path]:
    """Every split named by the examples (question or query split) -> ``path``."""
    splits = {
        split for example in examples for split in (example.question_split, example.query_split) if split is not None
    }
    return {split: path for split in sorted(splits)}


def _require_data_dir(name: str, data_dir: Path | None) -> Path:
    if data_dir is None:
        raise DatasetError(
            f"Benchmark {name!r} reads the real data, but no data directory is configured. "
            f"Set {DATA_DIR_ENV} (or data_dir= in Python, --data-dir where a command takes it) to the folder holding 'text2sql/' "
            f"(and 'spider-dev/', 'lambda/'), or use 'geo-mini', which is embedded."
        )
    return data_dir


def _text2sql_database(folder: Path, stem: str) -> Path | None:
    """``<stem>.sqlite`` if present, else ``<stem>-db.sql`` (a MySQL dump) converted, else ``None``."""
    sqlite_path = folder / f"{stem}.sqlite"
    if sqlite_path.is_file():
        return sqlite_path
    dump = folder / f"{stem}-db.sql"
    if dump.is_file():
        from textattack_semparse.sql.mysql_dump import cached_sqlite_from_dump

        return cached_sqlite_from_dump(dump)
    return None
