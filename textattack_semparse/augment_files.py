"""Augment tabular files without touching the columns that are not augmented.

TextAttack's ``augment`` command writes CSV with ``quotechar="/"`` and then deletes every
``/`` in the file, which corrupts SQL such as ``population / 1000``. The plugin's
augmentation recipes go through :func:`augment_csv` instead: the :mod:`csv` module
reads and writes every cell, and only the input column of the added rows changes.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError, closest_match_hint


def augment_rows(
    rows: Iterable[dict[str, str]],
    input_column: str,
    augment: Callable[[str], list[str]],
    *,
    include_original: bool = True,
) -> list[dict[str, str]]:
    """Each row (unless excluded), followed by one copy per augmentation of its input column."""
    output = []
    for row in rows:
        if include_original:
            output.append(row)
        for augmented in augment(row[input_column]):
            output.append({**row, input_column: augmented})
    return output


def augment_csv(
    input_csv: str | Path,
    output_csv: str | Path,
    input_column: str,
    augment: Callable[[str], list[str]],
    *,
    include_original: bool = True,
    overwrite: bool = False,
) -> int:
    """Augment ``input_column`` of ``input_csv`` into ``output_csv``; returns the rows written."""
    input_csv, output_csv = Path(input_csv), Path(output_csv)
    if not input_csv.is_file():
        raise DatasetError(f"Input CSV {str(input_csv)!r} does not exist; pass --input-csv with an existing file.")
    if output_csv.exists() and not overwrite:
        raise DatasetError(f"Output CSV {str(output_csv)!r} exists; pass --overwrite to replace it.")
    with input_csv.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        fieldnames = list(reader.fieldnames or [])
        rows = list(reader)
    if input_column not in fieldnames:
        raise DatasetError(
            f"Column {input_column!r} is not in {str(input_csv)!r}.{closest_match_hint(input_column, fieldnames)} "
            f"Columns: {', '.join(fieldnames)}."
        )
    output = augment_rows(rows, input_column, augment, include_original=include_original)
    with output_csv.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fieldnames)
        writer.writeheader()
        writer.writerows(output)
    return len(output)


def augment_csv_from_args(augmenter_class: Callable[..., Any], args: Any) -> int:
    """Run :func:`augment_csv` with the options of ``textattack augment``."""
    random.seed(args.random_seed)
    augmenter = augmenter_class(
        pct_words_to_swap=args.pct_words_to_swap,
        transformations_per_example=args.transformations_per_example,
        high_yield=args.high_yield,
        fast_augment=args.fast_augment,
        enable_advanced_metrics=args.enable_advanced_metrics,
    )
    written = augment_csv(
        args.input_csv,
        args.output_csv,
        args.input_column,
        augmenter.augment,
        include_original=not args.exclude_original,
        overwrite=args.overwrite,
    )
    print(f"Wrote {written} rows to {args.output_csv}.")
    return written
