"""Augment a text2sql-data JSON training set into the same format.

The database values of each gold query are protected while its question is augmented, and
every augmented question is turned back into a template of the entry, so each added question
has exactly the gold query of its source."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from textattack_semparse.augmentation.literal_protection import (
    LiteralAugment,
    ReadAhead,
    keeps_literals,
    new_questions,
    reading_ahead,
)
from textattack_semparse.augmentation.output_files import AugmentationCounts, check_paths, line_ending
from textattack_semparse.augmentation.per_operation import AugmentationItem
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.text2sql import (
    bounded_alternatives,
    fill_placeholders,
    placeholder_occurs,
    placeholder_pattern,
    read_text2sql,
    select_split,
)
from textattack_semparse.sql.literals import sql_literals


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
    names = [name for name in values if placeholder_occurs(name, template)]
    if not names:
        return sentence
    filled, starts = _fill_with_positions(template, {name: values[name] for name in names})
    pattern = _value_pattern(frozenset(values[name] for name in names))
    roles: dict[str, list[str | None]] = {}
    for match in pattern.finditer(filled):
        value, name = match.group(1), starts.get(match.start())
        roles.setdefault(value, []).append(name if name is not None and values[name] == value else None)
    found = [(match.start(), match.end(), match.group(1)) for match in pattern.finditer(sentence)]
    counts: dict[str, int] = {}
    for _, _, value in found:
        counts[value] = counts.get(value, 0) + 1
    if counts != {value: len(occurrences) for value, occurrences in roles.items()}:
        return None
    pieces, last = [], 0
    remaining = {value: iter(occurrences) for value, occurrences in roles.items()}
    for start, end, value in found:
        role = next(remaining[value])
        pieces.append(sentence[last:start])
        pieces.append(value if role is None else role)
        last = end
    pieces.append(sentence[last:])
    result = "".join(pieces)
    return result if fill_placeholders(result, values) == sentence else None


@lru_cache(maxsize=4096)
def _value_pattern(values: frozenset[str]) -> re.Pattern[str]:
    """The whole-word occurrences of any of ``values`` (longest first), the value as group 1;
    compiled once per set of values."""
    return re.compile(bounded_alternatives(values, r"\w"))


def _fill_with_positions(template: str, values: Mapping[str, str]) -> tuple[str, dict[int, str]]:
    """The filled template and, for each filled placeholder, its start offset -> name."""
    pieces, starts, length, last = [], {}, 0, 0
    for match in placeholder_pattern(tuple(values)).finditer(template):
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
    read_ahead: ReadAhead | None = None,
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
    and the sentences that are kept are copied unchanged; the file is written one entry per
    line, without indentation (:func:`write_text2sql_entries`).

    Args:
        input_json, output_json (str | Path): The file to read and the file to write.
        augment (LiteralAugment): ``augment(question, literals)`` (see :func:`protecting_literals`).
        include_original (bool, default True): Keep the selected sentences themselves;
            with False an entry left without sentences is dropped.
        overwrite (bool, default False): Replace an existing ``output_json``.
        split_type (str, default "question"), splits (Iterable[str] | str | None, default None):
            Augment only the sentences in these splits (e.g. ``"train"``); ``None`` augments
            every sentence. The other sentences are copied unchanged.
        read_ahead (ReadAhead | None, default None): Given the next questions to augment, a
            batch at a time (:func:`~textattack_semparse.augmentation.literal_protection.reading_ahead`).

    Raises:
        DatasetError: Missing or malformed input (as :func:`load_text2sql`), an unknown
            split, or an existing output without ``overwrite``.
    """
    input_json, output_json = Path(input_json), Path(output_json)
    check_paths(input_json, output_json, "text2sql file", overwrite=overwrite)
    entries, examples = read_text2sql(input_json)
    chosen = select_split(examples, split_type, splits, source=str(input_json))
    selected = {id(example) for example in chosen}
    augment = reading_ahead(augment, [example.question for example in chosen], read_ahead)
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
            literals = _literals(example, sentence)
            for augmented in new_questions(augment(example.question, literals), example.question):
                template = _template(example, sentence, literals, augmented)
                if template is None:
                    rejected += 1
                    continue
                new.append({**sentence, "text": template})
        sentences = kept + new
        written += len(sentences)
        added += len(new)
        if sentences:
            output_entries.append({**entry, "sentences": sentences})
    write_text2sql_entries(output_json, output_entries, newline=line_ending(input_json))
    return AugmentationCounts(written=written, added=added, rejected=rejected)


_ENCODER = json.JSONEncoder(ensure_ascii=False)
"""Made once: ``json.dumps`` with any option makes an encoder per call."""


def write_text2sql_entries(path: Path, entries: list[Any], *, newline: str) -> None:
    r"""Write text2sql-data ``entries`` as the augmented files are written: a JSON list with one
    entry per line, without indentation (json's C encoder writes it, several times faster than an
    indented file; a line per entry keeps diffs and the loader's line numbers useful), non-ASCII
    kept, lines ending in ``newline``.

    Example:
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "train.json"
        >>> write_text2sql_entries(path, [{"sql": ["SELECT 1"]}, {"sql": ["SELECT 2"]}], newline="\n")
        >>> print(path.read_text(encoding="utf-8"), end="")
        [
        {"sql": ["SELECT 1"]},
        {"sql": ["SELECT 2"]}
        ]
    """
    lines = ",\n".join(map(_ENCODER.encode, entries))
    path.write_text(f"[\n{lines}\n]\n" if entries else "[]\n", encoding="utf-8", newline=newline)


def text2sql_items(
    input_json: str | Path, *, split_type: str = "question", splits: Iterable[str] | str | None = None
) -> list[AugmentationItem]:
    """The sentences :func:`augment_text2sql` would augment, in the order it augments them.

    Each item has the filled question, the literals protected while it is augmented, and
    whether an augmented question would be written (it keeps the literals and can be turned back
    into a template of the sentence).

    Example:
        >>> from textattack_semparse.datasets.geo_mini import geo_mini_paths
        >>> items = text2sql_items(geo_mini_paths()[0], splits="train")
        >>> len(items), items[0].accept(items[0].question)
        (70, True)
    """
    input_json = Path(input_json)
    entries, examples = read_text2sql(input_json)
    selected = {id(example) for example in select_split(examples, split_type, splits, source=str(input_json))}
    remaining = iter(examples)
    items = []
    for entry in entries:
        for sentence in entry["sentences"]:
            example = next(remaining)
            if id(example) not in selected:
                continue
            literals = _literals(example, sentence)
            items.append(
                AugmentationItem(
                    question=example.question,
                    literals=tuple(literals),
                    accept=partial(_makes_template, example, sentence, literals),
                )
            )
    return items

def _literals(example: SemparseExample, sentence: Mapping[str, Any]) -> list[str]:
    """The values of the sentence's placeholders, then the literals of its gold SQL."""
    in_text = [value for name, value in example.variables.items() if placeholder_occurs(name, sentence["text"])]
    return list(dict.fromkeys([*in_text, *sql_literals(example.gold)]))

def _makes_template(example: SemparseExample, sentence: Mapping[str, Any], literals: list[str], augmented: str) -> bool:
    """Whether ``augmented`` can be written as a template of ``sentence`` (:func:`_template`)."""
    return _template(example, sentence, literals, augmented) is not None


def _template(example: SemparseExample, sentence: Mapping[str, Any], literals: list[str], augmented: str) -> str | None:
    """``augmented`` as a template of ``sentence``, or ``None`` when it changed a literal or cannot be one."""
    if not keeps_literals(example.question, augmented, literals):
        return None
    return retemplate(augmented, sentence["text"], example.variables)
