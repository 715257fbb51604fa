"""Which kind of source a path is, told from its files, and the source opened.

=========================  ====================================================================
kind                       what it is
=========================  ====================================================================
``robustness-test-set``    a directory with ``manifest.json`` (``robustness build``, ``robustness run``)
``icl-run``                a directory with ``test_set/manifest.json`` (``icl``)
``attack-run``             a directory with ``attack_log.csv`` (``attack``, ``grammar-attack``)
``attack-log``             a CSV file with TextAttack's log columns (``textattack attack --log-to-csv``)
``augmentation``           a text2sql-data ``.json`` or ``question<TAB>logical form`` ``.tsv`` file
                           written by ``augment``, read with the file that was augmented
=========================  ====================================================================
"""

from __future__ import annotations

import os
from pathlib import Path

from textattack_semparse.errors import DatasetError
from textattack_semparse.llm.icl_results import ICL_TEST_SET_DIR
from textattack_semparse.robustness.robustness_test_set import MANIFEST
from textattack_semparse.validation.attack_log_source import (
    ATTACK_LOG,
    ATTACK_RUN,
    LOG_FILE,
    AttackLogSource,
    is_attack_log,
)
from textattack_semparse.validation.augmentation_source import (
    AUGMENTATION,
    TEXT2SQL_SUFFIXES,
    TSV_SUFFIXES,
    AugmentationSource,
)
from textattack_semparse.validation.rewrite_source import RewriteSource
from textattack_semparse.validation.robustness_source import ICL_RUN, TEST_SET, RobustnessSource

KINDS = {
    TEST_SET: "a robustness test set (the --output-dir of robustness build or run: manifest.json)",
    ICL_RUN: "an ICL study (the --output-dir of icl: test_set/)",
    ATTACK_RUN: "an attack run (the --output-dir of attack or grammar-attack: attack_log.csv)",
    ATTACK_LOG: "a TextAttack CSV log (textattack attack --log-to-csv FILE)",
    AUGMENTATION: "an augmented training file of augment (text2sql .json or .tsv), with --original",
}
"""Each kind of source and how messages describe it."""


def source_kind(path: Path) -> str | None:
    """The kind of source ``path`` is, from its files; ``None`` when it is none."""
    if path.is_dir():
        if (path / MANIFEST).is_file():
            return TEST_SET
        if (path / ICL_TEST_SET_DIR / MANIFEST).is_file():
            return ICL_RUN
        if (path / LOG_FILE).is_file():
            return ATTACK_RUN
        return None
    if not path.is_file():
        return None
    suffix = path.suffix.lower()
    if suffix == ".csv" and is_attack_log(path):
        return ATTACK_LOG
    if suffix in TEXT2SQL_SUFFIXES + TSV_SUFFIXES:
        return AUGMENTATION
    return None


def open_source(path: str | os.PathLike[str], *, original: str | os.PathLike[str] | None = None) -> RewriteSource:
    """The source at ``path``; ``original`` is the file an augmentation was made from.

    Raises:
        DatasetError: ``path`` does not exist or is none of :data:`KINDS` (the message names
            them), or an augmentation without its original.
    """
    path = Path(path)
    if not path.exists():
        raise DatasetError(f"Source {str(path)!r} does not exist; pass {_accepted()}.")
    kind = source_kind(path)
    if kind in (TEST_SET, ICL_RUN):
        return RobustnessSource(path, kind=kind)
    if kind in (ATTACK_RUN, ATTACK_LOG):
        return AttackLogSource(path)
    if kind == AUGMENTATION:
        if original is None:
            raise DatasetError(
                f"{str(path)!r} is an augmented training file; name the file that was augmented with --original FILE "
                "(augment --input), or its registered dataset (augment --dataset, e.g. --original "
                "geo-mini-question-train), so the new questions can be told from the originals."
            )
        return AugmentationSource(path, original_file(original))
    raise DatasetError(f"{str(path)!r} is no source of rewrites to validate; pass {_accepted()}.")


def original_file(original: str | os.PathLike[str]) -> Path:
    """The file an augmentation was made from: ``original`` itself when it is a file, else the
    benchmark file of the registered dataset it names (as ``augment --dataset`` reads it).

    Raises:
        DatasetError: Neither a file nor a registered dataset.
    """
    from textattack_semparse.augmentation.dataset_files import dataset_file
    from textattack_semparse.registry import get_registry

    path = Path(original)
    if path.is_file() or ("dataset", str(original)) not in get_registry():
        return path
    found = dataset_file(str(original))
    if found.file_format not in ("text2sql", "tsv"):
        raise DatasetError(f"Dataset {str(original)!r} is in {found.file_format} format; augmentation sources are text2sql or tsv.")
    return found.path


def _accepted() -> str:
    return "; or ".join(KINDS.values())
