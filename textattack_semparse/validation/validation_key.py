"""The private key of an export (``key.json``): which items were exported, in which task, and
where each rewrite came from, so that people's judgments can be mapped back to the sources.

Keep it from the annotators (it names the perturbations); ``validate import`` reads it. The
sources are recorded with a digest of their files: a source rebuilt after the export is refused
rather than filtered by the wrong positions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse.errors import DatasetError
from textattack_semparse.runs.run_directory import atomic_write_text
from textattack_semparse.validation.validation_items import TASKS, ValidationItem

FORMAT = "textattack-semparse validation export"
VERSION = 1
KEY_FILE = "key.json"
ITEMS_JSONL, ITEMS_CSV, PAGE, PAIRS_JSONL = "items.jsonl", "items.csv", "annotate.html", "pairs.jsonl"
"""The files of an export: the items (blind), for a platform, the annotation page, and the
input of ``validate judge`` (private, like the key)."""


@dataclass(frozen=True)
class SourceRecord:
    """An exported source: its kind, absolute path, the digest of its files and what else
    reopening it needs (an augmentation's ``original``)."""

    kind: str
    path: str
    digest: str
    details: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "path": self.path, "digest": self.digest, **dict(self.details)}


@dataclass(frozen=True)
class ValidationKey:
    """What an export holds.

    Args:
        task (str): ``same-meaning`` or ``best-of-k``.
        seed (int): The seed of the shuffle (and sample).
        sample (int | None): Items sampled (``None``: all).
        per_perturbation (bool): ``sample`` items of each perturbation, not in all.
        item_set (str): The digest of the items in order; the annotation page stores judgments under it.
        rewrites (int): Rewrites the sources held (before deduplication and sampling).
        sources (tuple[SourceRecord, ...]): The sources, in the order given.
        items (tuple[ValidationItem, ...]): The items, in the order shown.
    """

    task: str
    seed: int
    sample: int | None
    item_set: str
    rewrites: int
    sources: tuple[SourceRecord, ...]
    items: tuple[ValidationItem, ...]
    per_perturbation: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "task": self.task,
            "seed": self.seed,
            "sample": self.sample,
            "per_perturbation": self.per_perturbation,
            "item_set": self.item_set,
            "rewrites": self.rewrites,
            "sources": [source.to_json() for source in self.sources],
            "items": [item.to_json() for item in self.items],
        }

    def write(self, directory: Path) -> Path:
        path = directory / KEY_FILE
        atomic_write_text(path, json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n")
        return path

    @classmethod
    def read(cls, directory: str | os.PathLike[str]) -> ValidationKey:
        """The key of the export in ``directory``.

        Raises:
            DatasetError: No key there, or not one this version reads.
        """
        path = Path(directory) / KEY_FILE
        if not path.is_file():
            raise DatasetError(
                f"{str(directory)!r} holds no {KEY_FILE}: not an export. Pass the --output-dir of "
                "`textattack-semparse validate export` (the directory with items.jsonl and key.json)."
            )
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise DatasetError(f"{str(path)!r} is not valid JSON ({error}); export again.") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
            raise DatasetError(
                f"{str(path)!r} is not a version-{VERSION} key of `textattack-semparse validate export`; export again."
            )
        try:
            task = str(data["task"])
            if task not in TASKS:
                raise ValueError(f"task {task!r}")
            return cls(
                task=task,
                seed=int(data["seed"]),
                sample=data.get("sample"),
                item_set=str(data["item_set"]),
                rewrites=int(data["rewrites"]),
                sources=tuple(
                    SourceRecord(
                        str(record["kind"]),
                        str(record["path"]),
                        str(record["digest"]),
                        MappingProxyType({key: str(value) for key, value in record.items() if key not in ("kind", "path", "digest")}),
                    )
                    for record in data["sources"]
                ),
                items=tuple(ValidationItem.from_json(record) for record in data["items"]),
                per_perturbation=bool(data.get("per_perturbation", False)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DatasetError(f"{str(path)!r} is damaged ({type(error).__name__}: {error}); export again.") from None
