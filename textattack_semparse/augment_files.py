"""Augment training files without touching anything that is not augmented.

TextAttack's ``augment`` command writes CSV with ``quotechar="/"`` and then deletes every
``/`` in the file, which corrupts SQL such as ``population / 1000``. The plugin's
augmentation recipes go through :func:`augment_csv` instead: the :mod:`csv` module
reads and writes every cell, and only the input column of the added rows changes.

:func:`augment_text2sql` and :func:`augment_tsv` write an augmented training set in the
format they read (text2sql-data JSON; Dong & Lapata ``question<TAB>logical form``). The
database values of each gold output are protected while its question is augmented
(:func:`protecting_literals`), and every augmentation that still changed one is dropped, so
each added question has exactly the gold output of its source.
"""

from __future__ import annotations

import csv
import json
import logging
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.logical_form import logical_form_literals, parse_logical_form_line
from textattack_semparse.datasets.text2sql import fill_placeholders, load_text2sql, select_split
from textattack_semparse.errors import DatasetError, closest_match_hint
from textattack_semparse.sql.literals import literal_words, sql_literals

logger = logging.getLogger(__name__)

LiteralAugment = Callable[[str, Sequence[str]], list[str]]
"""``augment(question, literals)``: augmented questions that keep every literal's words."""


@dataclass(frozen=True)
class AugmentationCounts:
    """What an augmentation run wrote.

    Args:
        written (int): Questions (sentences, lines) in the output file.
        added (int): Augmented questions among them.
        rejected (int): Augmentations dropped because they changed a protected literal (or,
            for text2sql, could not be turned back into a template).
    """

    written: int
    added: int
    rejected: int


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
) -> int:
    """Augment ``input_column`` of ``input_csv`` into ``output_csv``; returns the rows written.

    With ``gold_column`` (a SQL column), ``augment`` is a :data:`LiteralAugment` called with
    the literals of the row's SQL, and augmentations that change them are dropped.
    """
    input_csv, output_csv = Path(input_csv), Path(output_csv)
    _check_paths(input_csv, output_csv, "Input CSV", overwrite=overwrite)
    with input_csv.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        fieldnames = list(reader.fieldnames or [])
        rows = list(reader)
    for column in (input_column, gold_column):
        if column is not None and column not in fieldnames:
            raise DatasetError(
                f"Column {column!r} is not in {str(input_csv)!r}.{closest_match_hint(column, fieldnames)} "
                f"Columns: {', '.join(fieldnames)}."
            )
    literals = None if gold_column is None else (lambda row: sql_literals(row[gold_column]))
    output = augment_rows(rows, input_column, augment, include_original=include_original, literals=literals)
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


def _check_paths(source: Path, target: Path, kind: str, *, overwrite: bool) -> None:
    if not source.is_file():
        raise DatasetError(f"{kind} {str(source)!r} does not exist; pass an existing file.")
    if target.exists() and not overwrite:
        raise DatasetError(f"Output file {str(target)!r} exists; pass --overwrite to replace it.")
    if target.resolve() == source.resolve():
        raise DatasetError(f"Output file {str(target)!r} is the input file; write the augmented file elsewhere.")


def protecting_literals(augmenter: Any) -> LiteralAugment:
    """``augment(text, literals)``: ``augmenter.augment(text)`` with ``literals`` protected.

    For the duration of the call, ``literals`` are added to the ``literals`` of every
    :class:`~textattack_semparse.constraints.preserve_literals.PreserveLiterals` among the
    augmenter's constraints (the plugin's augmentation recipes have one), so no
    transformation proposes to modify their words. An augmenter without that constraint
    is used as is, with a warning; the file functions then drop what changed a literal.
    Outputs equal to ``text`` (TextAttack returns the input when nothing applies) and
    duplicates are left out.
    """
    from textattack_semparse.constraints.preserve_literals import PreserveLiterals

    candidates = [*getattr(augmenter, "pre_transformation_constraints", []), *getattr(augmenter, "constraints", [])]
    constraints = [constraint for constraint in candidates if isinstance(constraint, PreserveLiterals)]
    if not constraints:
        logger.warning(
            "%s has no PreserveLiterals constraint: augmentations that change a database value will be dropped.",
            type(augmenter).__name__,
        )

    def augment(text: str, literals: Sequence[str]) -> list[str]:
        saved = [constraint.literals for constraint in constraints]
        try:
            for constraint, own in zip(constraints, saved):
                constraint.literals = tuple(dict.fromkeys([*(own or ()), *literals]))
            outputs = augmenter.augment(text)
        finally:
            for constraint, own in zip(constraints, saved):
                constraint.literals = own
        return _new_questions(outputs, text)

    return augment


def keeps_literals(original: str, augmented: str, literals: Iterable[str]) -> bool:
    """Whether every literal occurs as often in ``augmented`` as in ``original`` (whole words).

    Example:
        >>> keeps_literals("rivers in new york", "the rivers of new york", ["new york"])
        True
        >>> keeps_literals("rivers in new york", "rivers in york", ["new york"])
        False
    """
    before, after = literal_words(original), literal_words(augmented)
    return all(
        _count_phrase(before, phrase) == _count_phrase(after, phrase)
        for phrase in (literal_words(literal) for literal in literals)
        if phrase
    )


def _count_phrase(words: list[str], phrase: list[str]) -> int:
    return sum(words[start : start + len(phrase)] == phrase for start in range(len(words) - len(phrase) + 1))


_TOKEN = "A-Za-z0-9_"


def _new_questions(outputs: Iterable[str], question: str) -> list[str]:
    """``outputs`` without duplicates and without ``question`` itself."""
    return [output for output in dict.fromkeys(outputs) if output != question]


def _occurs(name: str, text: str) -> bool:
    """Whether placeholder ``name`` occurs in ``text`` as a whole token (as the loader fills it)."""
    return re.search(rf"(?<![{_TOKEN}]){re.escape(name)}(?![{_TOKEN}])", text) is not None


def retemplate(sentence: str, template: str, values: Mapping[str, str]) -> str | None:
    """``sentence`` (a filled question) with the values of ``template``'s placeholders put back.

    The occurrences of each value in ``sentence`` take, in order, the roles the value's
    occurrences have in the filled ``template`` (a placeholder, or plain text where the
    template itself spells the value). ``None`` when the sentence does not contain each
    value as often as the filled template does, or does not fill back to itself.

    Example:
        >>> retemplate("which rivers flow in new york", "what rivers are in state_name0",
        ...            {"state_name0": "new york"})
        'which rivers flow in state_name0'
        >>> retemplate("which rivers flow in york", "what rivers are in state_name0",
        ...            {"state_name0": "new york"}) is None
        True
    """
    names = [name for name in values if _occurs(name, template)]
    if not names:
        return sentence
    filled, starts = _fill_with_positions(template, {name: values[name] for name in names})
    distinct = sorted({values[name] for name in names}, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, distinct)) + r")(?!\w)")
    roles: dict[str, list[str | None]] = {value: [] for value in distinct}
    for match in pattern.finditer(filled):
        name = starts.get(match.start())
        roles[match.group(1)].append(name if name is not None and values[name] == match.group(1) else None)
    found = list(pattern.finditer(sentence))
    for value in distinct:
        if sum(match.group(1) == value for match in found) != len(roles[value]):
            return None
    pieces, last = [], 0
    used = {value: 0 for value in distinct}
    for match in found:
        value = match.group(1)
        role = roles[value][used[value]]
        used[value] += 1
        pieces.append(sentence[last : match.start()])
        pieces.append(value if role is None else role)
        last = match.end()
    pieces.append(sentence[last:])
    result = "".join(pieces)
    return result if fill_placeholders(result, values) == sentence else None


def _fill_with_positions(template: str, values: Mapping[str, str]) -> tuple[str, dict[int, str]]:
    """The filled template and, for each filled placeholder, its start offset -> name."""
    alternatives = "|".join(re.escape(name) for name in sorted(values, key=len, reverse=True))
    pattern = re.compile(rf"(?<![{_TOKEN}])({alternatives})(?![{_TOKEN}])")
    pieces, starts, length, last = [], {}, 0, 0
    for match in pattern.finditer(template):
        text = template[last : match.start()]
        pieces.append(text)
        length += len(text)
        starts[length] = match.group(1)
        pieces.append(values[match.group(1)])
        length += len(values[match.group(1)])
        last = match.end()
    pieces.append(template[last:])
    return "".join(pieces), starts


def augment_text2sql(
    input_json: str | Path,
    output_json: str | Path,
    augment: LiteralAugment,
    *,
    include_original: bool = True,
    overwrite: bool = False,
    split_type: str = "question",
    splits: Iterable[str] | str | None = None,
) -> AugmentationCounts:
    """Augment the questions of a text2sql-data JSON file into a file of the same format.

    Each selected sentence's *filled* question is augmented with the values of its
    placeholders and the literals of its gold SQL protected. Each new question (repeats and
    copies of the source are left out) is turned back into a template (:func:`retemplate`)
    and added to the same entry as a copy of the source sentence (same ``variables``,
    ``question-split`` and other keys) with the new ``text``, after the entry's own
    sentences. The placeholders therefore fill to the same values and the entry's SQL fills
    to the source's gold query. Augmentations that changed a literal or cannot be
    re-templated are dropped (counted in ``rejected``). Entries, SQL, variable definitions
    and the sentences that are kept are copied unchanged; the file is written with 4-space
    indentation (the text2sql-data layout).

    Args:
        input_json, output_json (str | Path): The file to read and the file to write.
        augment (LiteralAugment): ``augment(question, literals)`` (see :func:`protecting_literals`).
        include_original (bool, default True): Keep the selected sentences themselves;
            with False an entry left without sentences is dropped.
        overwrite (bool, default False): Replace an existing ``output_json``.
        split_type (str, default "question"), splits (Iterable[str] | str | None, default None):
            Augment only the sentences in these splits (e.g. ``"train"``); ``None`` augments
            every sentence. The other sentences are copied unchanged.

    Raises:
        DatasetError: Missing or malformed input (as :func:`load_text2sql`), an unknown
            split, or an existing output without ``overwrite``.
    """
    input_json, output_json = Path(input_json), Path(output_json)
    _check_paths(input_json, output_json, "text2sql file", overwrite=overwrite)
    examples = load_text2sql(input_json)
    selected = {id(example) for example in select_split(examples, split_type, splits, source=str(input_json))}
    entries = json.loads(input_json.read_text(encoding="utf-8"))
    remaining = iter(examples)
    output_entries, written, added, rejected = [], 0, 0, 0
    for entry in entries:
        kept, new = [], []
        for sentence in entry["sentences"]:
            example = next(remaining)
            if id(example) not in selected or include_original:
                kept.append(sentence)
            if id(example) not in selected:
                continue
            in_text = [value for name, value in example.variables.items() if _occurs(name, sentence["text"])]
            literals = list(dict.fromkeys([*in_text, *sql_literals(example.gold)]))
            for augmented in _new_questions(augment(example.question, literals), example.question):
                template = retemplate(augmented, sentence["text"], example.variables)
                if template is None or not keeps_literals(example.question, augmented, literals):
                    rejected += 1
                    continue
                new.append({**sentence, "text": template})
        sentences = kept + new
        written += len(sentences)
        added += len(new)
        if sentences:
            output_entries.append({**entry, "sentences": sentences})
    output_json.write_text(json.dumps(output_entries, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")
    return AugmentationCounts(written=written, added=added, rejected=rejected)


def augment_tsv(
    input_tsv: str | Path,
    output_tsv: str | Path,
    augment: LiteralAugment,
    *,
    include_original: bool = True,
    overwrite: bool = False,
) -> AugmentationCounts:
    """Augment the questions of a ``question<TAB>logical form`` file into a file of the same format.

    Each line (unless excluded) is followed by one line per new question (repeats and
    copies of the source are left out) augmented from its question,
    with the logical-form field copied byte for byte. The constants of the logical form
    that the question spells out (:func:`~textattack_semparse.datasets.logical_form.
    logical_form_literals`) are protected, and augmentations that changed one are dropped.
    Kept lines are copied unchanged with their line endings (a last line without one gets
    ``\\n``); empty lines are dropped.

    Raises:
        DatasetError: Missing input, a malformed line (naming the file and line), or an
            existing output without ``overwrite``.
    """
    input_tsv, output_tsv = Path(input_tsv), Path(output_tsv)
    _check_paths(input_tsv, output_tsv, "TSV file", overwrite=overwrite)
    try:
        lines = input_tsv.read_bytes().decode("utf-8").splitlines(keepends=True)  # keeps \r\n endings
    except UnicodeDecodeError as error:
        raise DatasetError(f"TSV file {str(input_tsv)!r} is not UTF-8 text: {error}.") from error
    output, added, rejected = [], 0, 0
    for number, line in enumerate(lines, start=1):
        body = line.rstrip("\r\n")
        if not body.strip():
            continue
        question, logical_form = parse_logical_form_line(body, where=f"{input_tsv}: line {number}")
        ending = line[len(body) :] or "\n"
        if include_original:
            output.append(body + ending)
        literals = logical_form_literals(question, logical_form)
        raw_logical_form = body.split("\t", 1)[1]
        for augmented in _new_questions(augment(question, literals), question):
            if "\t" in augmented or "\n" in augmented or not keeps_literals(question, augmented, literals):
                rejected += 1
                continue
            output.append(f"{augmented}\t{raw_logical_form}{ending}")
            added += 1
    with output_tsv.open("w", encoding="utf-8", newline="") as handle:
        handle.writelines(output)
    return AugmentationCounts(written=len(output), added=added, rejected=rejected)
