"""The items people judge, made from the rewrites of one or more sources: blind (no perturbation,
no source, no gold), deduplicated, shuffled with a seed, optionally a sample.

Two tasks:

* ``same-meaning`` (Huang et al. 2021): an item is an original question and one rewrite, to be
  called the same meaning, a different meaning, or not sure. A rewrite several sources (or
  perturbations) produced is one item.
* ``best-of-k`` (Zhuo et al. 2023, whose experts chose among the candidates Sentence-BERT kept):
  an item is an original question and the k candidate rewrites of one example under one
  perturbation, to choose the best of or to say that none keeps the meaning. Candidates are shown
  in a shuffled order and numbered from 1.

An item's id is a digest of what it shows, so exporting the same rewrites again gives the same
ids, and judgments stay valid.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.validation.rewrite_source import Location, Rewrite

SAME_MEANING, BEST_OF_K = "same-meaning", "best-of-k"
TASKS = (SAME_MEANING, BEST_OF_K)
NONE_OF_THEM = "none"
"""The best-of-k label for "none of the candidates keeps the meaning"."""


@dataclass(frozen=True)
class Occurrence:
    """Where a rewrite was found: the source (its position in the export), its location there,
    the perturbation that made it and its original's gold output."""

    source: int
    location: Location
    perturbation: str
    gold: str | None

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "location": list(self.location), "perturbation": self.perturbation, "gold": self.gold}

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> Occurrence:
        return cls(int(record["source"]), tuple(record["location"]), str(record["perturbation"]), record.get("gold"))


@dataclass(frozen=True)
class Candidate:
    """One rewrite shown in an item, with its id there (``1``, ``2``, ...) and where it was found."""

    candidate_id: str
    rewrite: str
    occurrences: tuple[Occurrence, ...]

    @property
    def perturbations(self) -> tuple[str, ...]:
        """The perturbations that made this rewrite, sorted."""
        return tuple(sorted({occurrence.perturbation for occurrence in self.occurrences}))


@dataclass(frozen=True)
class ValidationItem:
    """An original question and the rewrite (``same-meaning``: one candidate) or the candidate
    rewrites (``best-of-k``) people see."""

    item_id: str
    original: str
    candidates: tuple[Candidate, ...]

    @property
    def perturbations(self) -> tuple[str, ...]:
        """The perturbations of its candidates, sorted."""
        return tuple(sorted({name for candidate in self.candidates for name in candidate.perturbations}))

    def candidate(self, candidate_id: str) -> Candidate:
        return next(candidate for candidate in self.candidates if candidate.candidate_id == candidate_id)

    def shown(self, task: str) -> dict[str, Any]:
        """What an annotator sees (a line of ``items.jsonl``)."""
        if task == SAME_MEANING:
            return {"item_id": self.item_id, "original": self.original, "rewrite": self.candidates[0].rewrite}
        return {
            "item_id": self.item_id,
            "original": self.original,
            "candidates": [
                {"candidate_id": candidate.candidate_id, "rewrite": candidate.rewrite} for candidate in self.candidates
            ],
        }

    def to_json(self) -> dict[str, Any]:
        """The item in the export's private key: with the occurrences of each candidate."""
        return {
            "item_id": self.item_id,
            "original": self.original,
            "candidates": [
                {
                    "candidate_id": candidate.candidate_id,
                    "rewrite": candidate.rewrite,
                    "occurrences": [occurrence.to_json() for occurrence in candidate.occurrences],
                }
                for candidate in self.candidates
            ],
        }

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> ValidationItem:
        return cls(
            str(record["item_id"]),
            str(record["original"]),
            tuple(
                Candidate(
                    str(candidate["candidate_id"]),
                    str(candidate["rewrite"]),
                    tuple(Occurrence.from_json(occurrence) for occurrence in candidate["occurrences"]),
                )
                for candidate in record["candidates"]
            ),
        )


def check_task(task: str) -> str:
    """``task`` if it is one of :data:`TASKS`."""
    if task not in TASKS:
        raise ConfigurationError(f"--task must be one of {', '.join(TASKS)}, got {task!r}.")
    return task


def build_items(
    rewrites: Sequence[Sequence[Rewrite]],
    task: str,
    *,
    seed: int,
    sample: int | None = None,
    per_perturbation: bool = False,
) -> list[ValidationItem]:
    """The items of the rewrites of each source (``rewrites[i]``: source ``i``'s), deduplicated,
    shuffled with ``seed`` and, with ``sample``, the first ``sample`` of them (a random sample);
    with ``per_perturbation`` too, the first ``sample`` of each perturbation (a stratified sample,
    so that each perturbation's acceptance can be read, as Huang et al. 2021 report what their
    crowd kept per perturbation; an item several perturbations made counts for each).

    Example:
        >>> from textattack_semparse.validation.rewrite_source import Rewrite
        >>> found = [Rewrite("rivers in texas", "the rivers in texas", None, "insertion", (0,), "a"),
        ...          Rewrite("rivers in texas", "the rivers in texas", None, "typo", (1,), "b")]
        >>> [len(item.candidates[0].occurrences) for item in build_items([found], "same-meaning", seed=0)]
        [2]
    """
    check_task(task)
    if sample is not None and (isinstance(sample, bool) or not isinstance(sample, int) or sample < 1):
        raise ConfigurationError(f"--sample must be a positive number of items, got {sample!r}.")
    found = [
        (rewrite, Occurrence(index, rewrite.location, rewrite.perturbation, rewrite.gold))
        for index, source in enumerate(rewrites)
        for rewrite in source
    ]
    items = _same_meaning_items(found) if task == SAME_MEANING else _best_of_k_items(found, seed)
    items.sort(key=lambda item: item.item_id)
    random.Random(seed).shuffle(items)
    if sample is None:
        return items
    if not per_perturbation:
        return items[:sample]
    taken: dict[str, int] = {}
    stratified = []
    for item in items:
        made_by = {occurrence.perturbation for candidate in item.candidates for occurrence in candidate.occurrences}
        if any(taken.get(name, 0) < sample for name in made_by):
            stratified.append(item)
            for name in made_by:
                taken[name] = taken.get(name, 0) + 1
    return stratified


def _same_meaning_items(found: Iterable[tuple[Rewrite, Occurrence]]) -> list[ValidationItem]:
    pairs: dict[tuple[str, str], list[Occurrence]] = {}
    for rewrite, occurrence in found:
        pairs.setdefault((rewrite.original, rewrite.rewrite), []).append(occurrence)
    return [
        ValidationItem(_item_id(SAME_MEANING, original, [text]), original, (Candidate("1", text, tuple(occurrences)),))
        for (original, text), occurrences in pairs.items()
    ]


def _best_of_k_items(found: Iterable[tuple[Rewrite, Occurrence]], seed: int) -> list[ValidationItem]:
    groups: dict[tuple[int, str], tuple[str, dict[str, list[Occurrence]]]] = {}
    for rewrite, occurrence in found:
        _, in_group = groups.setdefault((occurrence.source, rewrite.group), (rewrite.original, {}))
        in_group.setdefault(rewrite.rewrite, []).append(occurrence)
    merged: dict[tuple[str, tuple[str, ...]], dict[str, list[Occurrence]]] = {}
    for original, in_group in groups.values():
        into = merged.setdefault((original, tuple(sorted(in_group))), {})
        for text, occurrences in in_group.items():
            into.setdefault(text, []).extend(occurrences)
    items = []
    for (original, texts), where in merged.items():
        item_id = _item_id(BEST_OF_K, original, texts)
        order = list(texts)
        random.Random(f"{seed}/{item_id}").shuffle(order)
        candidates = tuple(Candidate(str(number), text, tuple(where[text])) for number, text in enumerate(order, start=1))
        items.append(ValidationItem(item_id, original, candidates))
    return items


def _item_id(task: str, original: str, rewrites: Iterable[str]) -> str:
    """A short digest of what an item shows."""
    text = "\0".join([task, original, *sorted(rewrites)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def items_jsonl(items: Sequence[ValidationItem], task: str) -> str:
    """``items.jsonl``: what each item shows, one JSON line each, in the order shown."""
    return "".join(json.dumps(item.shown(task), ensure_ascii=False) + "\n" for item in items)


def item_set_id(items: Sequence[ValidationItem], task: str) -> str:
    """A digest of the items in order (the annotation page keeps its judgments under it)."""
    return hashlib.sha256(items_jsonl(items, task).encode("utf-8")).hexdigest()[:16]


def items_csv(items: Sequence[ValidationItem], task: str) -> str:
    """``items.csv`` for a crowdsourcing platform's batch upload: a header row, then one row per
    item (``item_id,original,rewrite``; best-of-k: ``item_id,original,candidate_1,...``, empty
    where an item has fewer candidates)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    if task == SAME_MEANING:
        writer.writerow(["item_id", "original", "rewrite"])
        writer.writerows([item.item_id, item.original, item.candidates[0].rewrite] for item in items)
    else:
        width = max((len(item.candidates) for item in items), default=1)
        writer.writerow(["item_id", "original", *(f"candidate_{number}" for number in range(1, width + 1))])
        for item in items:
            rewrites = [candidate.rewrite for candidate in item.candidates]
            writer.writerow([item.item_id, item.original, *rewrites, *[""] * (width - len(rewrites))])
    return buffer.getvalue()


def pairs_jsonl(items: Sequence[ValidationItem], task: str) -> str:
    """``pairs.jsonl``: each rewrite with its item id (best-of-k: and candidate id), gold output
    and perturbations, the input of ``validate judge`` (not for annotators: it names the
    perturbations)."""
    lines = []
    for item in items:
        for candidate in item.candidates:
            record: dict[str, Any] = {"item_id": item.item_id}
            if task == BEST_OF_K:
                record["candidate_id"] = candidate.candidate_id
            record.update(
                original=item.original,
                rewrite=candidate.rewrite,
                gold=next((occurrence.gold for occurrence in candidate.occurrences if occurrence.gold), None),
                perturbation="+".join(candidate.perturbations),
            )
            lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines)

