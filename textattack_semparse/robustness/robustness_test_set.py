"""A meaning-preserving test set: the originals, their perturbed utterances, and its files.

On disk (one directory)::

    manifest.json            what was built, how, what could not be perturbed, and what the
                             meaning judge rejected (per perturbation, with examples)
    originals.jsonl          {"example_id", "question", "gold", "db_id"?} per original example
    <perturbation>.jsonl     one PerturbedUtterance per line (see perturbed_utterance.py)
    tables/original/<example_id>.csv           Table QA only: each original's table
    tables/<perturbation>/<example_id>-<k>.csv its k-th perturbed table (question-only
                                               perturbations point at the original's file)

Records of Table QA examples name their table's CSV file, relative to the directory, under
``"table"``, so a reader can diff an original table against its perturbations (RobuT, Zhao et
al. 2023, https://arxiv.org/abs/2306.14321).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.judges.judgement import JudgeTally
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
from textattack_semparse.runs.run_directory import atomic_write_text
from textattack_semparse.tables.table import Table

FORMAT = "textattack-semparse robustness test set"
VERSION = 1
MANIFEST = "manifest.json"
ORIGINALS = "originals.jsonl"
TABLES = "tables"
TABLE_FIELD = "table"
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_RESERVED = {Path(MANIFEST).stem, Path(ORIGINALS).stem}


def check_perturbation_name(name: str) -> str:
    """``name`` if it can name a JSONL file of the test set, else ``ValueError``."""
    if not isinstance(name, str) or not _FILE_NAME.fullmatch(name) or name in _RESERVED:
        raise ConfigurationError(
            f"Perturbation name {name!r} cannot name a test-set file: use letters, digits, '.', '_' and '-' "
            f"(not starting with '.' or '-'), and not {' or '.join(sorted(_RESERVED))}."
        )
    return name


@dataclass(frozen=True)
class RobustnessTestSet:
    """Original examples and, per perturbation, their meaning-preserving perturbations.

    Original to textattack-semparse; the protocol is that of Huang et al. (2021), "On
    Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/, and Zhuo et al. (2023), "On Robustness of
    Prompt-based Semantic Parsing with Large Pre-trained Language Model", EACL 2023,
    https://arxiv.org/abs/2301.12868.

    Args:
        dataset (str): The registered dataset the originals come from.
        originals (Sequence[SemparseExample]): The split's examples; an example's
            ``example_id`` is its position here.
        utterances (Mapping[str, Sequence[PerturbedUtterance]]): Perturbation name ->
            its perturbed utterances, in example order.
        seed (int | None, default None): Seed the perturbations and the sampler used.
        candidates (int | None, default None): Candidates sampled per example and
            perturbation before ranking (``None``: all), for the perturbations
            ``selection`` does not name.
        keep (int | None, default None): Candidates kept per example and perturbation, the
            most similar by Sentence-BERT (``None``: all sampled), likewise.
        setting (str | None, default None): Name of the selection setting, when a preset.
        skipped (Mapping[str, str], default empty): Perturbations left out -> why.
        left_out (Mapping[str, Mapping[str, int]], default empty): Perturbation -> why it gave
            an example no utterance (a table perturbation's ``skip_reason``, e.g. "question
            asks about position ('first' with 'listed')") -> how many examples.
        selection (Mapping[str, tuple[int | None, int | None]], default empty):
            Perturbation -> its own ``(candidates, keep)`` where it differs from the
            default pair (e.g. the ``huang-2021`` setting ranks all reorderings, keeps one);
            entries equal to the default pair are dropped.
        judge (str | None, default None): The meaning judge that filtered the rewrites
            (:mod:`textattack_semparse.judges`; ``None``: none did).
        judge_identity (str | None, default None): Exactly which judge that was (its reader's
            files by digest: :attr:`~textattack_semparse.judges.meaning_judge.MeaningJudge.identity`).
        judged (Mapping[str, JudgeTally], default empty): Perturbation -> how many distinct
            rewrites it proposed over the examples and which the judge rejected.
    """

    dataset: str
    originals: Sequence[SemparseExample]
    utterances: Mapping[str, Sequence[PerturbedUtterance]]
    seed: int | None = None
    candidates: int | None = None
    keep: int | None = None
    setting: str | None = None
    skipped: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    selection: Mapping[str, tuple[int | None, int | None]] = field(default_factory=lambda: MappingProxyType({}))
    left_out: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: MappingProxyType({}))
    judge: str | None = None
    judge_identity: str | None = None
    judged: Mapping[str, JudgeTally] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "originals", tuple(self.originals))
        utterances = {check_perturbation_name(name): tuple(items) for name, items in self.utterances.items()}
        for name, items in utterances.items():
            for item in items:
                if item.perturbation != name or not 0 <= item.example_id < len(self.originals):
                    raise DatasetError(
                        f"Perturbed utterance {item.perturbed!r} is filed under perturbation {name!r} but says "
                        f"{item.perturbation!r}, or its example_id {item.example_id} is not one of the "
                        f"{len(self.originals)} originals."
                    )
        object.__setattr__(self, "utterances", MappingProxyType(utterances))
        object.__setattr__(self, "skipped", MappingProxyType(dict(self.skipped)))
        object.__setattr__(self, "judged", MappingProxyType(dict(self.judged)))
        object.__setattr__(
            self,
            "left_out",
            MappingProxyType({name: MappingProxyType(dict(counts)) for name, counts in self.left_out.items()}),
        )
        selection = {
            check_perturbation_name(name): _selection_pair(name, pair) for name, pair in self.selection.items()
        }
        default = (self.candidates, self.keep)
        object.__setattr__(
            self, "selection", MappingProxyType({name: pair for name, pair in selection.items() if pair != default})
        )

    @property
    def perturbations(self) -> tuple[str, ...]:
        """The perturbations with a file, in build order."""
        return tuple(self.utterances)

    def selection_of(self, perturbation: str) -> tuple[int | None, int | None]:
        """``(candidates, keep)`` of ``perturbation``: its own selection, else the default pair."""
        return self.selection.get(perturbation, (self.candidates, self.keep))

    def no_candidates(self) -> dict[str, list[int]]:
        """Perturbation -> ids of the examples it produced no utterance for."""
        every = range(len(self.originals))
        return {
            name: sorted(set(every) - {item.example_id for item in items}) for name, items in self.utterances.items()
        }

    def coverage(self) -> dict[str, float | None]:
        """Perturbation -> the share of the originals that got at least one utterance (``None``
        without originals): what a meaning judge costs a perturbation, beside what it rejected."""
        total = len(self.originals)
        return {
            name: len({item.example_id for item in items}) / total if total else None
            for name, items in self.utterances.items()
        }

    def unperturbed_examples(self) -> list[int]:
        """Ids of the examples no perturbation applied to."""
        perturbed = {item.example_id for items in self.utterances.values() for item in items}
        return [index for index in range(len(self.originals)) if index not in perturbed]

    def manifest(self) -> dict[str, Any]:
        """The content of ``manifest.json``."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "dataset": self.dataset,
            "perturbations": list(self.perturbations),
            "skipped": dict(self.skipped),
            "seed": self.seed,
            "setting": self.setting,
            "candidates": self.candidates,
            "keep": self.keep,
            "selection": {
                name: dict(zip(("candidates", "keep"), self.selection_of(name))) for name in self.perturbations
            },
            "examples": len(self.originals),
            "counts": {
                name: {"utterances": len(items), "examples": len({item.example_id for item in items})}
                for name, items in self.utterances.items()
            },
            "no_candidates": self.no_candidates(),
            "left_out": {name: dict(counts) for name, counts in self.left_out.items()},
            "unperturbed_examples": self.unperturbed_examples(),
            "judge": self.judge,
            "judge_identity": self.judge_identity,
            "judged": {name: judged.to_json() for name, judged in self.judged.items()},
        }

    def write(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write the manifest, the originals and one JSONL file per perturbation; return their paths.

        Each file is written atomically (a kill leaves the old file or the new one), the manifest last.
        """
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        originals = []
        for index, example in enumerate(self.originals):
            record = _original_record(index, example)
            if example.table is not None:
                record[TABLE_FIELD] = _write_table(folder, f"{TABLES}/original/{index}.csv", example.table)
            originals.append(record)
        paths = [_write_jsonl(folder / ORIGINALS, originals)]
        for name, items in self.utterances.items():
            records = []
            per_example: dict[int, int] = {}
            for item in items:
                record = item.to_json()
                if item.table is not None:
                    original = self.originals[item.example_id].table
                    if item.table == original:
                        record[TABLE_FIELD] = f"{TABLES}/original/{item.example_id}.csv"
                    else:
                        k = per_example[item.example_id] = per_example.get(item.example_id, -1) + 1
                        record[TABLE_FIELD] = _write_table(
                            folder, f"{TABLES}/{name}/{item.example_id}-{k}.csv", item.table
                        )
                records.append(record)
            paths.append(_write_jsonl(folder / f"{name}.jsonl", records))
        manifest = folder / MANIFEST
        atomic_write_text(manifest, json.dumps(self.manifest(), indent=2) + "\n")
        return [manifest, *paths]

    @classmethod
    def read(cls, directory: str | os.PathLike[str]) -> RobustnessTestSet:
        """Read a test set written by :meth:`write`.

        Raises:
            DatasetError: A file is missing or malformed.
        """
        folder = Path(directory)
        manifest_path = folder / MANIFEST
        if not manifest_path.is_file():
            raise DatasetError(
                f"{str(folder)!r} holds no {MANIFEST}: not a robustness test set. "
                "Build one with `textattack-semparse robustness build --dataset NAME --output-dir DIR`."
            )
        manifest = _read_json(manifest_path)
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise DatasetError(f"{str(manifest_path)!r} is not a {FORMAT} manifest (no matching 'format' field).")
        if manifest.get("version") != VERSION:
            raise DatasetError(
                f"{str(manifest_path)!r} has version {manifest.get('version')!r}; this textattack-semparse reads "
                f"version {VERSION}. Rebuild the test set."
            )
        originals = [
            _original_example(record, index, f"{folder / ORIGINALS}:{line}", folder)
            for index, (line, record) in enumerate(_read_jsonl(folder / ORIGINALS))
        ]
        utterances = {
            name: [
                PerturbedUtterance.from_json(
                    record,
                    source=f"{folder / name}.jsonl:{line}",
                    table=_read_table(folder, record, f"{folder / name}.jsonl:{line}"),
                )
                for line, record in _read_jsonl(folder / f"{check_perturbation_name(name)}.jsonl")
            ]
            for name in manifest.get("perturbations", [])
        }
        return cls(
            dataset=str(manifest.get("dataset")),
            originals=originals,
            utterances=utterances,
            seed=manifest.get("seed"),
            candidates=manifest.get("candidates"),
            keep=manifest.get("keep"),
            setting=manifest.get("setting"),
            skipped=manifest.get("skipped") or {},
            left_out=manifest.get("left_out") or {},
            judge=manifest.get("judge"),
            judge_identity=manifest.get("judge_identity"),
            judged={
                name: JudgeTally.from_json(record, f"{manifest_path}: judged of {name!r}")
                for name, record in (manifest.get("judged") or {}).items()
            },
            selection={
                name: _manifest_selection(record, f"{manifest_path}: selection of {name!r}")
                for name, record in (manifest.get("selection") or {}).items()
            },
        )


OFFLINE_MODEL = "their models are not on this machine, and the hub is offline (download them, or set HF_HUB_OFFLINE=0)"
"""The one reason shared by the perturbations whose hub model could not be loaded."""


def skipped_summary(skipped: Mapping[str, str]) -> str:
    """One line for the perturbations a build skipped, grouped by why (a hub model missing
    offline, no tables, no LLM named); the reason of each is in the manifest.

    Example:
        >>> skipped_summary({"row-shuffle": "table perturbation; geo has no tables",
        ...                  "column-shuffle": "table perturbation; geo has no tables"})
        'Skipped 2 perturbations. Table perturbation; geo has no tables: column-shuffle, row-shuffle.'
    """
    groups: dict[str, list[str]] = {}
    for name, reason in sorted(skipped.items()):
        if "huggingface.co" in reason or "HF_HUB_OFFLINE" in reason:
            why = OFFLINE_MODEL
        elif "needs an LLM" in reason:
            why = "they need an LLM (set SEMPARSE_PERTURBATION_LLM; textattack-semparse list llm-backend)"
        else:
            why = reason
        groups.setdefault(why, []).append(name)
    parts = "; ".join(f"{why}: {', '.join(names)}" for why, names in groups.items())
    return f"Skipped {len(skipped)} perturbation{'s' if len(skipped) != 1 else ''}. {parts[:1].upper()}{parts[1:]}."


def _selection_pair(name: str, pair: Any) -> tuple[int | None, int | None]:
    candidates, keep = pair if isinstance(pair, (tuple, list)) and len(pair) == 2 else (0, 0)
    for value in (candidates, keep):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise DatasetError(
                f"Selection {pair!r} of perturbation {name!r}: candidates and keep must be positive ints or None (all)."
            )
    return candidates, keep


def _manifest_selection(record: Any, source: str) -> tuple[int | None, int | None]:
    if not isinstance(record, dict) or set(record) != {"candidates", "keep"}:
        raise DatasetError(f'{source}: expected {{"candidates": N|null, "keep": K|null}}, got {record!r:.200}.')
    return record["candidates"], record["keep"]


def _original_record(index: int, example: SemparseExample) -> dict[str, Any]:
    record: dict[str, Any] = {"example_id": index, "question": example.question, "gold": example.gold}
    if example.db_id is not None:
        record["db_id"] = example.db_id
    return record


def _original_example(record: Any, index: int, source: str, folder: Path) -> SemparseExample:
    if not isinstance(record, dict) or not {"example_id", "question", "gold"} <= set(record):
        raise DatasetError(f"{source}: expected an object with example_id, question and gold, got {record!r:.200}.")
    if record["example_id"] != index:
        raise DatasetError(f"{source}: example_id {record['example_id']!r} out of order; expected {index}.")
    return SemparseExample(
        question=str(record["question"]),
        gold=str(record["gold"]),
        db_id=record.get("db_id"),
        table=_read_table(folder, record, source),
    )


def _write_table(folder: Path, relative: str, table: Table) -> str:
    """Write ``table`` as CSV at ``folder / relative``; return ``relative`` (the record's path)."""
    atomic_write_text(folder / relative, table.to_csv())
    return relative


def _read_table(folder: Path, record: Any, source: str) -> Table | None:
    """The table whose CSV file ``record`` names (named after its ``db_id``), or ``None``."""
    if not isinstance(record, dict) or TABLE_FIELD not in record:
        return None
    path = folder / str(record[TABLE_FIELD])
    if not path.resolve().is_relative_to((folder / TABLES).resolve()):
        raise DatasetError(
            f"{source}: table file {str(path)!r} is outside {TABLES}/ of the test set. Rebuild the test set."
        )
    if not path.is_file():
        raise DatasetError(f"{source}: table file {str(path)!r} is missing. Rebuild the test set.")
    return Table.from_csv(path.read_text(encoding="utf-8"), name=record.get("db_id"))


def _write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    atomic_write_text(path, "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records))
    return path


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise DatasetError(f"{str(path)!r} is not valid JSON: {error}.") from None


def _read_jsonl(path: Path) -> list[tuple[int, Any]]:
    if not path.is_file():
        raise DatasetError(
            f"Test-set file {str(path)!r} is missing although the manifest lists it. Rebuild the test set."
        )
    records = []
    for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append((line_number, json.loads(line)))
        except json.JSONDecodeError as error:
            raise DatasetError(f"{str(path)}:{line_number} is not valid JSON: {error}.") from None
    return records
