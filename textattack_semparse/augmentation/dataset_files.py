"""The training file behind a registered dataset name, for ``textattack-semparse augment --dataset``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import DatasetError

WRITABLE_FORMATS = ("text2sql", "tsv", "wtq")
"""Benchmark file formats ``augment`` writes augmented copies of."""


@dataclass(frozen=True)
class DatasetFile:
    """Where a registered dataset's examples are written, and which of them it is.

    Args:
        path (Path): The benchmark file (a text2sql-data JSON file, a logical-form TSV file or a
            WikiTableQuestions question file).
        file_format (str): ``"text2sql"``, ``"tsv"`` or ``"wtq"``.
        split_type (str): ``"question"`` or ``"query"``.
        splits (tuple[str, ...] | None): The splits of a text2sql file that are the dataset
            (``("train",)``); ``None`` for a file that is one split.
    """

    path: Path
    file_format: str
    split_type: str
    splits: tuple[str, ...] | None


def dataset_file(name: str, *, data_dir: str | Path | None = None) -> DatasetFile:
    """The file and split of the registered dataset ``name`` (``textattack-semparse list dataset``).

    The benchmark behind the dataset says which file holds the split
    (:meth:`~textattack_semparse.datasets.benchmark.Benchmark.source_file`):
    ``geo-question-train`` is the question-split training set of the real GeoQuery
    (``<data dir>/text2sql/geography.json``) when a data directory is configured, otherwise of
    the embedded geo-mini, as ``load_benchmark("geo")``; ``geo-lambda-train`` is
    ``<data dir>/lambda/geo/geo_lambda_calculus_train.tsv``.

    Example:
        >>> found = dataset_file("geo-mini-question-train")
        >>> found.path.name, found.file_format, found.split_type, found.splits
        ('geo-mini.json', 'text2sql', 'question', ('train',))

    Raises:
        RegistryError: Unknown dataset (with the closest name).
        DatasetError: A dataset that is not a split of a text2sql-data or logical-form
            benchmark (pass its file to ``--input``), or a real-data benchmark without a data
            directory (as :func:`~textattack_semparse.datasets.benchmark.load_benchmark`).
    """
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.registry import BENCHMARK_DATASET, get_registry

    entry = get_registry().get("dataset", name)
    options = dict(entry.options)
    if entry.target != BENCHMARK_DATASET or "benchmark" not in options:
        raise DatasetError(f"Dataset {name!r} is not a split of a registered benchmark; pass its file to --input.")
    benchmark = load_benchmark(options["benchmark"], data_dir=data_dir)
    split_type, split = options.get("split_type", "question"), options.get("split", "test")
    path = benchmark.source_file(split)
    if path is None or benchmark.source_format not in WRITABLE_FORMATS:
        raise DatasetError(
            f"Dataset {name!r} comes from benchmark {benchmark.name!r} ({benchmark.source_format or 'no file'} "
            "format), which 'augment' does not write; pass the file to --input (text2sql JSON, "
            "question<TAB>logical form TSV, or CSV)."
        )
    one_file_per_split = benchmark.source_format in ("tsv", "wtq")
    return DatasetFile(path, benchmark.source_format, split_type, None if one_file_per_split else (split,))
