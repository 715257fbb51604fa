"""A released robustness benchmark (RobuT, Dr.Spider, Huang et al.'s sets) as a robustness test set.

A released benchmark's examples are its originals (``perturbation == ORIGINAL``, ``example_id``
set) and its rewrites (``perturbation`` the perturbation type, set or operation,
``original_id`` the ``example_id`` of the original it derives from), each rewrite with its own
gold, ``db_id`` and table (:class:`~textattack_semparse.datasets.example.SemparseExample`).
:func:`released_test_set` groups them into a
:class:`~textattack_semparse.robustness.robustness_test_set.RobustnessTestSet` (the originals,
one file per perturbation), so a victim is evaluated on it exactly as on a test set built by
``robustness build``; :func:`materialise_released_test_set` writes it once per release.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from textattack_semparse.cache import file_version
from textattack_semparse.datasets.benchmark import Benchmark
from textattack_semparse.datasets.example import ORIGINAL, SemparseExample
from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
from textattack_semparse.registry import get_registry
from textattack_semparse.robustness.build_test_set import dataset_examples
from textattack_semparse.robustness.robustness_test_set import (
    MANIFEST,
    VERSION,
    RobustnessTestSet,
    check_perturbation_name,
)

MISSING_ORIGINAL = "its original (original_id) is not in the release"
"""The reason :attr:`RobustnessTestSet.left_out` gives for a rewrite whose original is absent."""

RELEASE_STAMP = "release.json"
"""The file of a materialised test set naming the release files it was made from."""


def released_benchmark(dataset: str) -> Benchmark:
    """The released robustness benchmark the registered ``dataset`` is drawn from.

    Raises:
        RegistryError: ``dataset`` is not a registered dataset.
        DatasetError: ``dataset`` is not drawn from a released robustness benchmark (its
            benchmark names no ``leaderboard``); the message names ``robustness build`` and ``run``.
    """
    from textattack_semparse.victims.resolution import dataset_benchmark

    get_registry().get("dataset", dataset)  # an unknown name fails with the registered names
    benchmark = dataset_benchmark(dataset)
    if benchmark is None or benchmark.leaderboard is None:
        raise DatasetError(
            f"Dataset {dataset!r} is not a released robustness benchmark (RobuT, Dr.Spider, Huang et al.); build a "
            f"test set from it with 'textattack-semparse robustness build --dataset {dataset} --output-dir DIR' and "
            "evaluate with 'robustness evaluate --input-dir DIR', or do both with 'robustness run'."
        )
    return benchmark


def released_test_set(dataset: str, *, limit: int | None = None) -> RobustnessTestSet:
    """The originals and rewrites of the released-benchmark dataset ``dataset`` as a test set.

    The originals are those of ``dataset`` and those its rewrites derive from (looked up in the
    whole benchmark, so a dataset of one perturbation type brings its originals along), in the
    order the dataset first names them; each perturbation gets the rewrites that carry its name,
    in dataset order, each with its own gold, ``db_id`` and table; a rewrite that is a turn of a
    question sequence (``sequence_id``) carries how many turns of its sequence the perturbation
    has (each weighs one over that in the metrics). A rewrite whose original is not
    in the benchmark is counted in :attr:`RobustnessTestSet.left_out` (reason
    :data:`MISSING_ORIGINAL`), not silently dropped, and so are the release lines the benchmark's
    loader could not turn into examples (:attr:`Benchmark.left_out`), for every perturbation when
    ``dataset`` is the whole benchmark, else for the perturbation its split names.

    Args:
        dataset (str): A registered dataset of a released robustness benchmark (``robut-wtq``).
        limit (int | None, default None): The first ``limit`` originals only, and their rewrites.

    Raises:
        DatasetError: ``dataset`` is not drawn from a released benchmark; an example is neither an
            original with an ``example_id`` nor a rewrite; two originals share an ``example_id``;
            a perturbation name cannot name a test-set file.
    """
    benchmark = released_benchmark(dataset)
    examples = dataset_examples(dataset)
    originals = _originals_by_id(benchmark.examples, benchmark.name)
    order: dict[str, int] = {}
    for example in examples:
        wanted = example.example_id if example.perturbation == ORIGINAL else example.original_id
        if wanted is not None and wanted in originals and wanted not in order:
            if limit is not None and len(order) >= limit:
                continue
            order[wanted] = len(order)
    rewrites: dict[str, list[tuple[int, SemparseExample]]] = {}
    left_out: dict[str, dict[str, int]] = {}
    for example in examples:
        if example.perturbation == ORIGINAL:
            continue
        name = _perturbation_name(example, dataset)
        rewrites.setdefault(name, [])
        if example.original_id is None or example.original_id not in originals:
            counts = left_out.setdefault(name, {})
            counts[MISSING_ORIGINAL] = counts.get(MISSING_ORIGINAL, 0) + 1
            continue
        position = order.get(example.original_id)
        if position is not None:  # else beyond ``limit``
            rewrites[name].append((position, example))
    turns = Counter((name, example.sequence_id) for name, items in rewrites.items() for _, example in items)
    utterances = {
        name: [
            PerturbedUtterance(
                example_id=position,
                original=originals[str(example.original_id)].question,
                perturbed=example.question,
                gold=example.gold,
                perturbation=name,
                db_id=example.db_id,
                table=example.table,
                turns=None if example.sequence_id is None else turns[name, example.sequence_id],
            )
            for position, example in items
        ]
        for name, items in rewrites.items()
    }
    split = get_registry().get("dataset", dataset).options.get("split")
    for name, reasons in dict(benchmark.left_out).items():
        if split is None or split == name:
            counts = left_out.setdefault(name, {})
            for reason, count in dict(reasons).items():
                counts[reason] = counts.get(reason, 0) + count
    return RobustnessTestSet(
        dataset=dataset,
        originals=[originals[example_id] for example_id in order],
        utterances=utterances,
        left_out=left_out,
    )


def materialise_released_test_set(
    dataset: str, root: str | os.PathLike[str], *, limit: int | None = None
) -> tuple[RobustnessTestSet, Path]:
    """:func:`released_test_set` written under ``root`` once per release, and where.

    The directory is ``<root>/<dataset>[-first<limit>]-<fingerprint>``, the fingerprint a digest of
    the release's files (path, size, modification time; the examples themselves for a benchmark
    without files) and of the test-set format: the same release is read back from there, a changed
    one is written to a new directory. The directory is written whole and then renamed into place,
    so a killed run leaves no half-written test set.

    Raises:
        DatasetError: As :func:`released_test_set`.
    """
    benchmark = released_benchmark(dataset)
    fingerprint = release_fingerprint(benchmark, dataset, limit)
    suffix = "" if limit is None else f"-first{limit}"
    directory = Path(root) / f"{dataset}{suffix}-{fingerprint[:12]}"
    if (directory / MANIFEST).is_file() and _stamp(directory) == fingerprint:
        return RobustnessTestSet.read(directory), directory
    test_set = released_test_set(dataset, limit=limit)
    staging = directory.with_name(f".{directory.name}.{os.getpid()}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    test_set.write(staging)
    stamp = {"dataset": dataset, "benchmark": benchmark.name, "limit": limit, "fingerprint": fingerprint}
    (staging / RELEASE_STAMP).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    shutil.rmtree(directory, ignore_errors=True)
    staging.replace(directory)
    return test_set, directory


def release_fingerprint(benchmark: Benchmark, dataset: str, limit: int | None) -> str:
    """SHA-256 of what a materialised test set of ``dataset`` depends on (see
    :func:`materialise_released_test_set`)."""
    digest = hashlib.sha256(json.dumps([dataset, limit, VERSION, benchmark.source]).encode("utf-8"))
    files = list(dict(benchmark.source_files).values())
    if files:
        for path in files:
            size, modified = file_version(path)
            digest.update(f"\0{path}\0{size}\0{modified}".encode())
    else:
        for example in benchmark.examples:
            digest.update(repr(example).encode("utf-8"))
    return digest.hexdigest()


def _stamp(directory: Path) -> str | None:
    try:
        return json.loads((directory / RELEASE_STAMP).read_text(encoding="utf-8")).get("fingerprint")
    except (OSError, ValueError, AttributeError):
        return None


def _originals_by_id(examples: Sequence[SemparseExample], benchmark: str) -> dict[str, SemparseExample]:
    originals: dict[str, SemparseExample] = {}
    for example in examples:
        if example.perturbation != ORIGINAL:
            continue
        if example.example_id is None:
            raise DatasetError(
                f"An original of benchmark {benchmark!r} ({example.question[:60]!r}) has no example_id; its loader "
                "must give every original the id its rewrites name as original_id."
            )
        if example.example_id in originals:
            raise DatasetError(
                f"Two originals of benchmark {benchmark!r} share the example_id {example.example_id!r}; the release "
                "is malformed (each original needs its own id)."
            )
        originals[example.example_id] = example
    return originals


def _perturbation_name(example: SemparseExample, dataset: str) -> str:
    if example.perturbation is None:
        raise DatasetError(
            f"Example {example.example_id or example.question[:60]!r} of dataset {dataset!r} has no perturbation; "
            f"a released benchmark's examples are originals (perturbation {ORIGINAL!r}) or rewrites."
        )
    try:
        return check_perturbation_name(example.perturbation)
    except ConfigurationError as error:
        raise DatasetError(f"Dataset {dataset!r}: {error}") from None
