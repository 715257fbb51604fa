"""Rewrites of an augmented training file (``textattack-semparse augment``): each augmented
question with the question of the original file it was made from.

The augmented file alone does not say which questions are new, so the file that was augmented
(``--input``, or the benchmark file of ``--dataset``) is read beside it:

* text2sql-data JSON: an augmented sentence is added to its source's entry as a copy of the
  source sentence with a new ``text``; the entry is matched to the original's by its SQL and
  variables, a sentence of it that is not one of the original entry's is augmented, and its
  source is the original sentence with the same other fields (split, variable values) whose
  question is closest.
* ``question<TAB>logical form`` TSV: each augmented line follows its source line (or, written
  without the originals, the source's other augmentations); a line that is not the next original
  line is an augmentation of the last original line with its logical form, else of the closest
  later one.

The copy without the dropped rewrites is the augmented file without those questions (the rest
byte for byte as ``augment`` writes it), under the same name: ``train --augment`` takes it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.augmentation.output_files import line_ending
from textattack_semparse.augmentation.text2sql_augmentation import write_text2sql_entries
from textattack_semparse.datasets.logical_form import parse_logical_form_line
from textattack_semparse.datasets.text2sql import load_text2sql
from textattack_semparse.errors import DatasetError
from textattack_semparse.validation.rewrite_source import Location, Rewrite, RewriteSource

AUGMENTATION = "augmentation"
TEXT2SQL_SUFFIXES, TSV_SUFFIXES = (".json",), (".tsv", ".txt")


class AugmentationSource(RewriteSource):
    """The augmented file ``path`` of the file ``original`` (the same format: text2sql-data JSON
    by a ``.json`` suffix, else ``question<TAB>logical form`` TSV).

    A rewrite's location is ``(entry, sentence)`` (positions in the JSON file) or ``(line,)``
    (1-based, TSV); its perturbation is the augmented file's name (``augment --sample`` writes
    one file per operation: ``<stem>.<operation>.json``).
    """

    kind = AUGMENTATION

    def __init__(self, path: Path, original: Path) -> None:
        self.path = path
        self.original = original
        self.text2sql = path.suffix.lower() in TEXT2SQL_SUFFIXES
        if not original.is_file():
            raise DatasetError(
                f"The original file {str(original)!r} of the augmentation {str(path)!r} does not exist; pass the "
                "file that was augmented (augment --input) or its registered dataset (augment --dataset) to --original."
            )
        if original.resolve() == path.resolve():
            raise DatasetError(
                f"--original {str(original)!r} is the augmented file itself; pass the file that was augmented."
            )

    @property
    def details(self) -> dict[str, str]:
        return {"original": str(self.original.resolve())}

    def files(self) -> list[Path]:
        return [self.path, self.original]

    def rewrites(self) -> list[Rewrite]:
        return self._text2sql_rewrites() if self.text2sql else self._tsv_rewrites()

    def write_without(self, dropped: Collection[Location], output: Path) -> Path:
        gone = {tuple(location) for location in dropped}
        target = output / self.path.name
        output.mkdir(parents=True, exist_ok=True)
        if self.text2sql:
            entries = _json_entries(self.path)
            kept = []
            for entry_index, entry in enumerate(entries):
                sentences = [
                    sentence
                    for sentence_index, sentence in enumerate(entry["sentences"])
                    if (entry_index, sentence_index) not in gone
                ]
                if sentences:
                    kept.append({**entry, "sentences": sentences})
            write_text2sql_entries(target, kept, newline=line_ending(self.path))
        else:
            lines = _lines(self.path)
            target.write_bytes(
                "".join(line for number, line in enumerate(lines, start=1) if (number,) not in gone).encode("utf-8")
            )
        return target

    def _text2sql_rewrites(self) -> list[Rewrite]:
        augmented_examples = iter(load_text2sql(self.path))
        original_examples = load_text2sql(self.original)
        originals, augmented = _json_entries(self.original), _json_entries(self.path)
        first_example, position = [], 0
        for entry in originals:
            first_example.append(position)
            position += len(entry["sentences"])
        rewrites, pointer = [], 0
        for entry_index, entry in enumerate(augmented):
            match = next(
                (
                    index
                    for index in range(pointer, len(originals))
                    if originals[index]["sql"] == entry["sql"] and originals[index].get("variables") == entry.get("variables")
                ),
                None,
            )
            if match is None:
                raise DatasetError(
                    f"Entry {entry_index} of {str(self.path)!r} (SQL {entry['sql'][0][:80]!r}) is not an entry of "
                    f"{str(self.original)!r} after entry {pointer}: was the file augmented from another one? Pass the file "
                    "that was augmented to --original."
                )
            pointer = match + 1
            sources = originals[match]["sentences"]
            unmatched = list(range(len(sources)))
            for sentence_index, sentence in enumerate(entry["sentences"]):
                example = next(augmented_examples)
                same = next((index for index in unmatched if sources[index] == sentence), None)
                if same is not None:
                    unmatched.remove(same)
                    continue
                alike = [index for index, source in enumerate(sources) if _without_text(source) == _without_text(sentence)]
                if not alike:
                    raise DatasetError(
                        f"{self.path}: sentence {sentence_index} of entry {entry_index} ({sentence.get('text')!r}) has no "
                        f"source in entry {match} of {str(self.original)!r} (no sentence with the same split and variable "
                        "values): was the file augmented from another one?"
                    )
                candidates = [original_examples[first_example[match] + index] for index in alike]
                source_index, source = max(
                    zip(alike, candidates), key=lambda pair: _similarity(pair[1].question, example.question)
                )
                rewrites.append(
                    Rewrite(
                        original=source.question,
                        rewrite=example.question,
                        gold=example.gold,
                        perturbation=self.path.name,
                        location=(entry_index, sentence_index),
                        group=f"{match}/{source_index}",
                    )
                )
        return rewrites

    def _tsv_rewrites(self) -> list[Rewrite]:
        originals = [
            (number, *parse_logical_form_line(line.rstrip("\r\n"), where=f"{self.original}: line {number}"))
            for number, line in enumerate(_lines(self.original), start=1)
            if line.strip()
        ]
        rewrites, pointer, current = [], 0, None
        for number, line in enumerate(_lines(self.path), start=1):
            if not line.strip():
                continue
            question, logical_form = parse_logical_form_line(line.rstrip("\r\n"), where=f"{self.path}: line {number}")
            if pointer < len(originals) and originals[pointer][1:] == (question, logical_form):
                current, pointer = pointer, pointer + 1
                continue
            if current is None or originals[current][2] != logical_form:
                later = [index for index in range(pointer, len(originals)) if originals[index][2] == logical_form]
                if not later:
                    raise DatasetError(
                        f"{self.path}: line {number} ({question!r}) has a logical form no line of {str(self.original)!r} "
                        "has from there on: was the file augmented from another one? Pass the file that was augmented "
                        "to --original."
                    )
                current = max(later, key=lambda index: (_similarity(originals[index][1], question), -index))
                pointer = current + 1
            source_line, source_question, _ = originals[current]
            if question == source_question:
                continue
            rewrites.append(
                Rewrite(source_question, question, logical_form, self.path.name, (number,), f"line/{source_line}")
            )
        return rewrites


def _json_entries(path: Path) -> list[Any]:
    """The entries of a text2sql-data file (already checked by ``load_text2sql``)."""
    entries = json.loads(path.read_text(encoding="utf-8"))
    return entries if isinstance(entries, list) else []


def _without_text(sentence: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in sentence.items() if key != "text"}


def _similarity(first: str, second: str) -> float:
    return difflib.SequenceMatcher(a=first.split(), b=second.split(), autojunk=False).ratio()


def _lines(path: Path) -> Sequence[str]:
    try:
        return path.read_bytes().decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError as error:
        raise DatasetError(f"{str(path)!r} is not UTF-8 text: {error}.") from None
