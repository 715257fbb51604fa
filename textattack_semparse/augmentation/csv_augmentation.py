"""Augment a CSV column without touching anything else.

TextAttack's ``augment`` command writes CSV with ``quotechar="/"`` and then deletes every
``/`` in the file, which corrupts SQL such as ``population / 1000``. The plugin's
augmentation recipes go through :func:`augment_csv` instead: the :mod:`csv` module reads and
writes every cell, and only the input column of the added rows changes."""

from __future__ import annotations

import csv
import random
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from textattack_semparse.augmentation.literal_protection import ReadAhead, keeps_literals, reading_ahead
from textattack_semparse.augmentation.output_files import check_paths, line_ending
from textattack_semparse.augmentation.per_operation import AugmentationItem
from textattack_semparse.errors import DatasetError, RecipeError, closest_match_hint
from textattack_semparse.registry import combines_examples, is_table_qa_augmenter
from textattack_semparse.sql.literals import sql_literals
from textattack_semparse.tables.table import Table


def augment_rows(
    rows: Iterable[dict[str, str]],
    input_column: str,
    augment: Callable[..., list[str]],
    *,
    include_original: bool = True,
    literals: Callable[[dict[str, str]], Sequence[str]] | None = None,
) -> list[dict[str, str]]:
    """Each row (unless excluded), followed by one copy per augmentation of its input column.

    Without ``literals``, ``augment(text)`` is called; with it, ``augment(text,
    literals(row))``, and augmentations that change a literal's words are dropped.
    """
    output = []
    for row in rows:
        if include_original:
            output.append(row)
        text = row[input_column]
        if literals is None:
            augmented_texts = augment(text)
        else:
            protected = literals(row)
            augmented_texts = [new for new in augment(text, protected) if keeps_literals(text, new, protected)]
        for augmented in augmented_texts:
            output.append({**row, input_column: augmented})
    return output

def augment_csv(
    input_csv: str | Path,
    output_csv: str | Path,
    input_column: str,
    augment: Callable[..., list[str]],
    *,
    include_original: bool = True,
    overwrite: bool = False,
    gold_column: str | None = None,
    read_ahead: ReadAhead | None = None,
) -> int:
    """Augment ``input_column`` of ``input_csv`` into ``output_csv``; returns the rows written.

    With ``gold_column`` (a SQL column), ``augment`` is a :data:`LiteralAugment` called with
    the literals of the row's SQL, and augmentations that change them are dropped.
    ``read_ahead`` is given the next questions to augment, a batch at a time
    (:func:`~textattack_semparse.augmentation.literal_protection.reading_ahead`).
    """
    input_csv, output_csv = Path(input_csv), Path(output_csv)
    check_paths(input_csv, output_csv, "Input CSV", overwrite=overwrite)
    fieldnames, rows = _read_rows(input_csv, input_column, gold_column)
    literals = None if gold_column is None else (lambda row: sql_literals(row[gold_column]))
    augment = reading_ahead(augment, [row[input_column] for row in rows], read_ahead)
    output = augment_rows(rows, input_column, augment, include_original=include_original, literals=literals)
    _write_rows(output_csv, fieldnames, output, line_ending(input_csv))
    return len(output)

def augment_table_csv(
    input_csv: str | Path,
    output_csv: str | Path,
    input_column: str,
    augment: Callable[[str, Table, str], list[tuple[str, str, Table]]],
    *,
    table_column: str = "table",
    answer_column: str = "answer",
    include_original: bool = True,
    overwrite: bool = False,
) -> int:
    """Augment Table QA rows: the question in ``input_column``, its table as ``Table.to_json()``
    text in ``table_column``, its answer (WTQ's ``targetValue`` format) in ``answer_column``.
    Each augmentation is a new row with the perturbed question and table (RobuT, Zhao et al. 2023,
    https://arxiv.org/abs/2306.14321); other cells are copied. Returns the rows written."""
    input_csv, output_csv = Path(input_csv), Path(output_csv)
    check_paths(input_csv, output_csv, "Input CSV", overwrite=overwrite)
    fieldnames, rows = _read_rows(input_csv, input_column, None)
    for column in (table_column, answer_column):
        if column not in fieldnames:
            raise DatasetError(
                f"Table QA rows need a {column!r} column; {str(input_csv)!r} has {', '.join(fieldnames)}."
            )
    output = []
    for row in rows:
        if include_original:
            output.append(row)
        table = Table.from_json(row[table_column])
        for _, question, new_table in augment(row[input_column], table, row[answer_column]):
            output.append({**row, input_column: question, table_column: new_table.to_json()})
    _write_rows(output_csv, fieldnames, output, line_ending(input_csv))
    return len(output)


def _write_rows(path: Path, fieldnames: Sequence[str], rows: Iterable[dict[str, str]], ending: str) -> None:
    """A CSV file of ``rows``, lines ended as the input's (``csv`` would end every line with CRLF)."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fieldnames, lineterminator=ending)
        writer.writeheader()
        writer.writerows(rows)


def csv_items(input_csv: str | Path, input_column: str, gold_column: str | None = None) -> list[AugmentationItem]:
    """The rows :func:`augment_csv` would augment (every row), in file order.

    With ``gold_column``, an item's literals are that row's SQL literals and an augmentation
    must keep them; without it, every augmentation is written.
    """
    input_csv = Path(input_csv)
    if not input_csv.is_file():
        raise DatasetError(f"Input CSV {str(input_csv)!r} does not exist; pass an existing file.")
    _, rows = _read_rows(input_csv, input_column, gold_column)
    items = []
    for row in rows:
        question = row[input_column]
        literals = () if gold_column is None else tuple(sql_literals(row[gold_column]))
        items.append(
            AugmentationItem(
                question=question,
                literals=literals,
                accept=partial(keeps_literals, question, literals=literals),
            )
        )
    return items

def _read_rows(input_csv: Path, input_column: str, gold_column: str | None) -> tuple[list[str], list[dict[str, str]]]:
    """The header and rows of ``input_csv``, read strictly: a file that is not UTF-8, a quote left
    open, a row with more or fewer fields than the header and an empty question are refused with
    the row named, before anything is augmented (a merged or shifted row would be rewritten)."""
    name = str(input_csv)
    try:
        with input_csv.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle, strict=True)
            fieldnames = list(reader.fieldnames or [])
            rows = []
            for row in reader:
                if None in row or None in row.values():
                    raise DatasetError(
                        f"{name}: the row ending on line {reader.line_num} has {'more' if None in row else 'fewer'} "
                        f"fields than the header's {len(fieldnames)}; quote a field that holds a comma."
                    )
                rows.append(row)
    except UnicodeDecodeError as error:
        raise DatasetError(
            f"{name} is not UTF-8 (byte {error.object[error.start]:#x} at offset {error.start}); save it as UTF-8."
        ) from None
    except csv.Error as error:
        raise DatasetError(
            f"{name}: a quote opened after line {reader.line_num} is never closed ({error}); close it."
        ) from None
    for column in (input_column, gold_column):
        if column is not None and column not in fieldnames:
            raise DatasetError(
                f"Column {column!r} is not in {name!r}.{closest_match_hint(column, fieldnames)} "
                f"Columns: {', '.join(fieldnames)}."
            )
    empty = next((number for number, row in enumerate(rows, start=2) if not row[input_column].strip()), None)
    if empty is not None:
        raise DatasetError(f"{name}: row {empty} has an empty {input_column!r}; fill it in or delete the row.")
    return fieldnames, rows


def augment_csv_from_args(augmenter_class: Callable[..., Any], args: Any) -> int:
    """Run :func:`augment_csv` with the options of ``textattack augment`` (:func:`augment_table_csv`
    for a Table QA recipe, one whose class sets ``table_qa = True``)."""
    if combines_examples(augmenter_class):
        raise RecipeError(
            f"Recipe {args.recipe!r} combines training examples with their gold outputs, not questions of a CSV; "
            "run `textattack-semparse augment --input FILE.tsv` or `textattack-semparse train --augment` with it."
        )
    random.seed(args.random_seed)
    if is_table_qa_augmenter(augmenter_class):
        written = augment_table_csv(
            args.input_csv,
            args.output_csv,
            args.input_column,
            augmenter_class(seed=args.random_seed).augment,
            include_original=not args.exclude_original,
            overwrite=args.overwrite,
        )
        print(f"Wrote {written} rows to {args.output_csv}.")
        return written
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
