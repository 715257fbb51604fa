"""Benchmark splits read from the 🤗 Hugging Face Hub instead of local files.

Each loader reads a Hub dataset with ``datasets.load_dataset`` in that dataset's own schema and
turns its rows into the same :class:`~textattack_semparse.datasets.example.SemparseExample`\\ s
the local loader makes from the released files (the per-row functions are shared), with the Hub's
``validation`` split named ``dev`` as locally:

=====================  ==================================  =============================================
benchmark              Hub dataset                         schema (one row)
=====================  ==================================  =============================================
``spider-hub``         ``xlangai/spider`` (parquet)        ``db_id``, ``query``, ``question`` (+ tokens);
                                                           databases still from
                                                           ``SEMPARSE_DATA_DIR/spider-dev/database/``
``wtq-hub``            ``stanfordnlp/wikitablequestions``  ``id``, ``question``, ``answers`` (the
                       (its parquet export, one folder     ``targetValue`` split at ``|``), ``table``
                       per random split)                   (``header``, ``rows``, ``name``: the TSV file)
``wikisql-weak-hub``   ``Salesforce/wikisql`` (its         ``phase``, ``question``, ``table`` (``id``,
                       parquet export)                     ``header``, ``types``, ``rows``, ...), ``sql``
                                                           (``sel``, ``agg``, ``conds`` with
                                                           ``column_index``, ``operator_index``,
                                                           ``condition``)
=====================  ==================================  =============================================

WikiTableQuestions and WikiSQL are script datasets on the Hub, which ``datasets`` 4 and later
no longer run; their parquet export (revision ``refs/convert/parquet``) holds the same rows. A
loader's ``hub_dataset`` may also be a local folder in the Hub dataset's layout (what
``load_dataset`` reads from the cache or the Hub, read from disk): the tests build one. Nothing is
downloaded when ``HF_HUB_OFFLINE`` is set; a dataset that is neither cached nor reachable is a
:class:`DatasetError` naming both ways out (go online once, or the local benchmark and its files).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.benchmark import Benchmark
from textattack_semparse.datasets.benchmark_loaders import table_qa_benchmark
from textattack_semparse.datasets.data_dir import DATA_DIR_ENV
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.spider import spider_example
from textattack_semparse.datasets.wikisql_weak import wikisql_weak_example
from textattack_semparse.datasets.wtq import wtq_example
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.scoring.execution_scorer import ExecutionScorer
from textattack_semparse.scoring.scoring import Scoring
from textattack_semparse.tables.table import Table, TableError, unescape_wtq

SPIDER_HUB = "xlangai/spider"
WTQ_HUB = "stanfordnlp/wikitablequestions"
WIKISQL_HUB = "Salesforce/wikisql"
PARQUET_EXPORT = "refs/convert/parquet"
"""The Hub revision holding the parquet files the Hub's converter made of a script dataset."""
SPLIT_NAMES = {"train": "train", "validation": "dev", "test": "test"}
"""Hub split -> the split name of the local benchmarks."""


def hub_splits(
    benchmark: str,
    hub_dataset: str,
    *,
    local: str,
    files: str,
    revision: str | None = None,
    data_dir: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The rows of every split of ``hub_dataset`` (by local split name), read with ``datasets``.

    Args:
        benchmark: The benchmark being loaded, for the error message.
        hub_dataset: A Hub dataset id, or a local folder in its layout.
        local: The benchmark that reads the released files instead, and ``files`` what it needs
            under ``SEMPARSE_DATA_DIR``: both are named when the Hub cannot be read.
        revision, data_dir: As ``datasets.load_dataset`` takes them.

    Raises:
        DatasetError: The dataset is neither in the local cache nor reachable (offline, or no
            such dataset), in one line naming both ways out.
    """
    import datasets

    try:
        loaded = datasets.load_dataset(hub_dataset, revision=revision, data_dir=data_dir)
    except OSError as error:  # ConnectionError offline, DatasetNotFoundError (a FileNotFoundError)
        reason = " ".join(str(error).split())
        raise DatasetError(
            f"Benchmark {benchmark!r} reads {hub_dataset!r} from the Hugging Face Hub, which is not in the local "
            f"cache and cannot be fetched ({reason}): go online once (HF_HUB_OFFLINE unset) so `datasets` caches it, "
            f"or use the benchmark {local!r} with {files} under {DATA_DIR_ENV}."
        ) from None
    return {SPLIT_NAMES.get(split, split): list(rows) for split, rows in loaded.items()}


def load_spider_hub_benchmark(
    *, name: str, data_dir: Path | None, hub_dataset: str = SPIDER_HUB, execution_mode: str = "test-suite"
) -> Benchmark:
    """Spider's questions from the Hub (``train`` and ``dev``), executed on Spider's databases from
    ``<data_dir>/spider-dev/database/`` as the local ``spider`` benchmark is.

    Raises:
        DatasetError: No data directory or no database folder (the questions alone cannot be
            scored), or the Hub dataset cannot be read.
    """
    root = None if data_dir is None else data_dir / "spider-dev" / "database"
    if root is None or not root.is_dir():
        raise DatasetError(
            f"Benchmark {name!r} reads Spider's questions from the Hugging Face Hub but runs them on Spider's "
            f"databases, which it finds under {DATA_DIR_ENV}/spider-dev/database/ ('<db_id>/<db_id>.sqlite' each)"
            + (f"; {str(root)!r} does not exist." if root is not None else f"; set {DATA_DIR_ENV}.")
        )
    splits = hub_splits(name, hub_dataset, local="spider", files="spider-dev/dev.json")
    examples = tuple(
        spider_example(row, where=f"{hub_dataset} {split} row {index}", split=split)
        for split, rows in splits.items()
        for index, row in enumerate(rows)
    )
    return Benchmark(
        name=name,
        examples=examples,
        scoring=Scoring(ExecutionScorer(mode=execution_mode), Databases(root=root)),
        source=f"questions {hub_dataset} (Hugging Face Hub); databases {root}",
    )


def load_wtq_hub_benchmark(
    *,
    name: str,
    data_dir: Path | None,
    hub_dataset: str = WTQ_HUB,
    revision: str | None = PARQUET_EXPORT,
    random_split: int = 1,
) -> Benchmark:
    """WikiTableQuestions from the Hub: train/dev = ``random-split-<random_split>`` (RobuT's 1 by
    default), test = the pristine unseen tables, as the local ``wtq`` benchmark, scored by
    denotation. Tables come with the rows; no local file is read.

    The Hub's table cells are the ``.tsv`` cells stripped of surrounding spaces; they are
    unescaped (``\\n``, ``\\p``, ``\\\\``) as locally, and the table's ``name`` (``csv/204-csv/590.tsv``)
    gives back WTQ's context (``csv/204-csv/590.csv``), the ``db_id``.
    """
    splits = hub_splits(
        name, hub_dataset, local="wtq", files="wtq/data/ and wtq/csv/", revision=revision,
        data_dir=f"random-split-{random_split}",
    )
    tables: dict[str, Table] = {}
    examples = tuple(
        _wtq_hub_example(row, tables, where=f"{hub_dataset} {split} row {index}", split=split)
        for split, rows in splits.items()
        for index, row in enumerate(rows)
    )
    return table_qa_benchmark(
        name, examples, {}, None, f"{len(tables)} tables from {hub_dataset} (Hugging Face Hub)"
    )


def load_wikisql_weak_hub_benchmark(
    *,
    name: str,
    data_dir: Path | None,
    hub_dataset: str = WIKISQL_HUB,
    revision: str | None = PARQUET_EXPORT,
    hub_data_dir: str | None = "default",
) -> Benchmark:
    """WikiSQL from the Hub as weakly supervised Table QA, as the local ``wikisql-weak``: each
    question answered by its SQL's denotation on its table, scored by denotation."""
    splits = hub_splits(
        name, hub_dataset, local="wikisql-weak", files="wikisql/<split>.jsonl and <split>.tables.jsonl",
        revision=revision, data_dir=hub_data_dir,
    )
    examples = tuple(
        _wikisql_hub_example(row, where=f"{hub_dataset} {split} row {index}", split=split)
        for split, rows in splits.items()
        for index, row in enumerate(rows)
    )
    return table_qa_benchmark(name, examples, {}, None, f"tables in the rows of {hub_dataset} (Hugging Face Hub)")


def _wtq_hub_example(row: Mapping[str, Any], tables: dict[str, Table], *, where: str, split: str) -> SemparseExample:
    """One row of ``stanfordnlp/wikitablequestions`` as :func:`~textattack_semparse.datasets.wtq.load_wtq` reads it."""
    try:
        record = row["table"]
        context = str(record["name"]).removesuffix(".tsv") + ".csv"
        table = tables.get(context)
        if table is None:
            table = tables[context] = Table(
                tuple(unescape_wtq(cell) for cell in record["header"]),
                tuple(tuple(unescape_wtq(cell) for cell in cells) for cells in record["rows"]),
                name=context,
            )
        return wtq_example(row["question"], context, "|".join(row["answers"]), table, split=split)
    except (KeyError, TypeError, TableError) as error:
        raise DatasetError(
            f"{where}: not a WikiTableQuestions row with 'question', 'answers' and 'table' (header, rows, name): "
            f"{type(error).__name__}: {error}."
        ) from None


def _wikisql_hub_example(row: Mapping[str, Any], *, where: str, split: str) -> SemparseExample:
    """One row of ``Salesforce/wikisql`` as :func:`~textattack_semparse.datasets.wikisql_weak.load_wikisql_weak`
    reads a question and its table (each condition's value is text on the Hub, read as locally)."""
    try:
        record, sql = row["table"], row["sql"]
        table = Table(record["header"], record["rows"], name=record["id"])
        conditions = [list(condition) for condition in _conditions(sql["conds"])]
        query = {"sel": sql["sel"], "agg": sql["agg"], "conds": conditions}
        return wikisql_weak_example(row["question"], table, record["types"], query, where=where, split=split)
    except (KeyError, TypeError, TableError) as error:
        raise DatasetError(
            f"{where}: not a WikiSQL row with 'question', 'table' (id, header, types, rows) and 'sql' (sel, agg, "
            f"conds): {type(error).__name__}: {error}."
        ) from None


def _conditions(conds: Any) -> Iterator[tuple[int, int, str]]:
    """``(column, operator, value)`` of each condition: Arrow gives the Hub's sequence of
    condition structs as one struct of lists; a list of structs is read too."""
    if isinstance(conds, Mapping):
        yield from zip(conds["column_index"], conds["operator_index"], conds["condition"], strict=True)
    else:
        for condition in conds:
            yield condition["column_index"], condition["operator_index"], condition["condition"]
