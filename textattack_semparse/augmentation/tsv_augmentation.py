"""Augment a Dong & Lapata ``question<TAB>logical form`` training file into the same format."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

from textattack_semparse.augmentation.literal_protection import (
    LiteralAugment,
    ReadAhead,
    keeps_literals,
    new_questions,
    reading_ahead,
)
from textattack_semparse.augmentation.output_files import AugmentationCounts, check_paths
from textattack_semparse.augmentation.per_operation import AugmentationItem
from textattack_semparse.datasets.logical_form import logical_form_literals, parse_logical_form_line
from textattack_semparse.errors import DatasetError


def augment_tsv(
    input_tsv: str | Path,
    output_tsv: str | Path,
    augment: LiteralAugment,
    *,
    include_original: bool = True,
    overwrite: bool = False,
    read_ahead: ReadAhead | None = None,
) -> AugmentationCounts:
    """Augment the questions of a ``question<TAB>logical form`` file into a file of the same format.

    Each line (unless excluded) is followed by one line per new question (repeats and
    copies of the source are left out) augmented from its question,
    with the logical-form field copied byte for byte. The constants of the logical form
    that the question spells out (:func:`~textattack_semparse.datasets.logical_form.
    logical_form_literals`) are protected, and augmentations that changed one are dropped.
    Kept lines are copied unchanged with their line endings (a last line without one gets
    ``\\n``); empty lines are dropped. ``read_ahead`` is given the next questions to augment, a
    batch at a time (:func:`~textattack_semparse.augmentation.literal_protection.reading_ahead`).

    Raises:
        DatasetError: Missing input, a malformed line (naming the file and line), or an
            existing output without ``overwrite``.
    """
    input_tsv, output_tsv = Path(input_tsv), Path(output_tsv)
    check_paths(input_tsv, output_tsv, "TSV file", overwrite=overwrite)
    examples = []
    for number, line in enumerate(_read_lines(input_tsv), start=1):
        body = line.rstrip("\r\n")
        if body.strip():
            examples.append((line, body, *parse_logical_form_line(body, where=f"{input_tsv}: line {number}")))
    augment = reading_ahead(augment, [question for _, _, question, _ in examples], read_ahead)
    output, added, rejected = [], 0, 0
    for line, body, question, logical_form in examples:
        ending = line[len(body) :] or "\n"
        if include_original:
            output.append(body + ending)
        literals = logical_form_literals(question, logical_form)
        raw_logical_form = body.split("\t", 1)[1]
        for augmented in new_questions(augment(question, literals), question):
            if not _acceptable(question, augmented, literals):
                rejected += 1
                continue
            output.append(f"{augmented}\t{raw_logical_form}{ending}")
            added += 1
    with output_tsv.open("w", encoding="utf-8", newline="") as handle:
        handle.writelines(output)
    return AugmentationCounts(written=len(output), added=added, rejected=rejected)


def tsv_items(input_tsv: str | Path) -> list[AugmentationItem]:
    """The lines :func:`augment_tsv` would augment (every non-empty line), in file order.

    Raises:
        DatasetError: Missing input or a malformed line (as :func:`augment_tsv`).
    """
    input_tsv = Path(input_tsv)
    if not input_tsv.is_file():
        raise DatasetError(f"TSV file {str(input_tsv)!r} does not exist; pass an existing file.")
    items = []
    for number, line in enumerate(_read_lines(input_tsv), start=1):
        body = line.rstrip("\r\n")
        if not body.strip():
            continue
        question, logical_form = parse_logical_form_line(body, where=f"{input_tsv}: line {number}")
        literals = tuple(logical_form_literals(question, logical_form))
        items.append(
            AugmentationItem(
                question=question,
                literals=literals,
                accept=partial(_acceptable, question, literals=literals),
            )
        )
    return items

def _read_lines(input_tsv: Path) -> list[str]:
    try:
        return input_tsv.read_bytes().decode("utf-8").splitlines(keepends=True)  # keeps \r\n endings
    except UnicodeDecodeError as error:
        raise DatasetError(f"TSV file {str(input_tsv)!r} is not UTF-8 text: {error}.") from error

def _acceptable(question: str, augmented: str, literals: Sequence[str]) -> bool:
    """An augmented question fits on the line and keeps every literal."""
    return "\t" not in augmented and "\n" not in augmented and keeps_literals(question, augmented, literals)
