"""Augmenting a WikiTableQuestions question file: new rows, and the perturbed tables they ask about.

The output is a WTQ question file (``id utterance context targetValue``) whose contexts are
relative to the output file's folder, as WTQ's are to its root: original tables (also those of
question-only perturbations) are copied to ``<folder>/<context>`` and each perturbed table is
written to
``<folder>/csv/augmented/<id>-<perturbation>.csv`` with the ``.tsv`` beside it (WTQ's layout,
Pasupat and Liang 2015, https://arxiv.org/abs/1508.00305), so
``load_wtq(output, root=output.parent)`` reads the augmented training set back. The
augmentation is RobuT's (Zhao et al. 2023, https://arxiv.org/abs/2306.14321).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textattack_semparse.augmentation.output_files import AugmentationCounts, check_paths, line_ending
from textattack_semparse.datasets.wtq import WTQ_HEADER, wtq_table
from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.table import Table, escape_wtq

AUGMENTED_TABLES = "csv/augmented"

TableAugment = Callable[[str, Table, str], list[tuple[str, str, Table]]]
"""``(question, table, gold) -> [(perturbation, question, table), ...]``."""


def wtq_tsv(table: Table) -> str:
    """``table`` in WTQ's TSV format (header line, tab-separated cells, WTQ escaping)."""
    return "".join("\t".join(escape_wtq(cell) for cell in row) + "\n" for row in (table.header, *table.rows))


def augment_wtq(
    source: Path,
    target: Path,
    augment: TableAugment,
    *,
    root: Path,
    include_original: bool = True,
    limit: int | None = None,
    overwrite: bool = False,
) -> AugmentationCounts:
    """Write ``target``: the rows of the WTQ file ``source`` (the first ``limit``), each followed by
    its augmentations, with the tables they need (see the module docstring).

    Args:
        source: A WTQ question file.
        target: The output question file.
        augment: Gives the augmented (perturbation, question, table) of an example.
        root: The folder ``source``'s contexts are relative to.
        include_original: Also write the original rows.
        limit: Augment only the first ``limit`` rows.
        overwrite: Replace an existing ``target``.

    Raises:
        DatasetError: A missing input, an existing output, a malformed line or a missing table.
    """
    check_paths(source, target, "WikiTableQuestions file", overwrite=overwrite)
    lines = source.read_text(encoding="utf-8").split("\n")  # universal newlines: CRLF reads as "\n"
    if tuple(lines[0].split("\t")) != WTQ_HEADER:
        raise DatasetError(f"{source}:1 is not WTQ's header {chr(9).join(WTQ_HEADER)!r}.")
    folder = target.parent
    out, added = ["\t".join(WTQ_HEADER)], 0
    tables: dict[str, Table] = {}
    rows = [line.split("\t") for line in lines[1:] if line]
    for number, fields in enumerate(rows[:limit], start=2):
        if len(fields) != len(WTQ_HEADER):
            raise DatasetError(f"{source}:{number}: {len(fields)} fields, expected {len(WTQ_HEADER)}.")
        example_id, question, context, gold = fields
        table = wtq_table(root, context, cache=tables)
        if include_original:
            _copy_original(folder, context, table)
            out.append("\t".join(fields))
        for name, new_question, new_table in augment(question, table, gold):
            if new_table == table:  # a question perturbation: the row asks about the original table
                new_context = context
                _copy_original(folder, context, table)
            else:
                new_context = f"{AUGMENTED_TABLES}/{example_id}-{name}.csv"
                _write_table(folder, new_context, new_table)
            out.append("\t".join((f"{example_id}-{name}", new_question, new_context, gold)))
            added += 1
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(out) + "\n", encoding="utf-8", newline=line_ending(source))
    return AugmentationCounts(written=len(out) - 1, added=added, rejected=0)


def _copy_original(folder: Path, context: str, table: Table) -> None:
    """Write an original table beside the output unless it is there (never rewrite WTQ's own files)."""
    if not (folder / context).with_suffix(".tsv").is_file():
        _write_table(folder, context, table)


def _write_table(folder: Path, context: str, table: Table) -> None:
    path = folder / context
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(table.to_csv(), encoding="utf-8")
    path.with_suffix(".tsv").write_text(wtq_tsv(table), encoding="utf-8")
