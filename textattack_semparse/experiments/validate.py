"""The papers' human step: rewrites exported for people to judge, their judgments imported and the
source filtered to the rewrites they kept, and automatic judges measured against them
(docs/validation.md).

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/: three crowd workers judged each substitution (nf),
back-translation and reordering rewrite (same meaning / different meaning / not sure; the
function-word rewrites were not checked), and a rewrite was kept when at least two called it the
same. Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model", https://arxiv.org/abs/2301.12868: Sentence-BERT kept the 10 most similar of 20
candidates and experts picked the best one.

* :func:`export`: the rewrites of robustness test sets, attack runs and logs, augmented files and
  ICL studies (:mod:`~textattack_semparse.validation.sources`) as blind, shuffled items:
  ``items.jsonl``, ``items.csv`` (a platform's batch upload), ``annotate.html`` (an offline
  annotation page), and, private, ``key.json`` and ``pairs.jsonl`` (the input of :func:`judge`).
* :func:`import_judgments`: people's judgment files decided by a rule
  (:mod:`~textattack_semparse.validation.decision_rules`) into a copy of each source in its own
  format with only the kept rewrites, and ``validation.json``. Nothing is written unless all of
  it can be: a mistake leaves no output directory behind.
* :func:`judge`: meaning judges (:mod:`textattack_semparse.judges`) on a JSONL file of pairs.
* :func:`agreement`: a judge's verdicts against people's judgments.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.judges.judgement import Verdict
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.run_directory import atomic_write_text
from textattack_semparse.runs.seeding import DEFAULT_SEED
from textattack_semparse.validation.decision_rules import HUANG_2021, check_rule
from textattack_semparse.validation.judge_agreement import Agreement, judge_agreement
from textattack_semparse.validation.judgments import parse_columns
from textattack_semparse.validation.validation_items import SAME_MEANING, check_task
from textattack_semparse.validation.validation_key import ValidationKey
from textattack_semparse.validation.validation_report import ValidationReport

if TYPE_CHECKING:
    from textattack_semparse.validation.decision_rules import Decision
    from textattack_semparse.validation.rewrite_source import Location, RewriteSource
    from textattack_semparse.validation.validation_key import SourceRecord

PEOPLE_JSONL_SUFFIXES = (".jsonl", ".json")
"""People's labels in a JSONL file of labelled pairs, not a judgments CSV, by the suffix."""


@dataclass(frozen=True)
class ExportConfig:
    """What an export holds.

    Args:
        sources: Robustness test sets, attack runs or logs, augmented files, ICL studies.
        output_dir: Where the items, the page and the key go.
        task: ``same-meaning`` (judge each rewrite) or ``best-of-k`` (choose among each original's candidates).
        seed: Seed of the shuffle and the sample.
        sample: Export this many items, drawn at random (``None``: all).
        per_perturbation: ``sample`` items of each perturbation (a stratified sample).
        original: The file an augmented source was made from (or its registered dataset).
        overwrite: Replace an earlier export in ``output_dir`` (its judgments no longer apply).
    """

    sources: Sequence[str | os.PathLike[str]]
    output_dir: str | os.PathLike[str]
    task: str = SAME_MEANING
    seed: int = DEFAULT_SEED
    sample: int | None = None
    per_perturbation: bool = False
    original: str | os.PathLike[str] | None = None
    overwrite: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "sources", tuple(self.sources))
        if not self.sources:
            raise ConfigurationError("Name at least one source of rewrites to export.")
        check_task(self.task)
        if self.sample is not None and (isinstance(self.sample, bool) or not isinstance(self.sample, int) or self.sample < 1):
            raise ConfigurationError(f"--sample must be a positive number of items, got {self.sample!r}.")
        if self.per_perturbation and self.sample is None:
            raise ConfigurationError("--per-perturbation samples each perturbation: give --sample N too.")


@dataclass(frozen=True)
class ExportResult:
    """An export: its key, and the files written (by name: ``items.jsonl``, ``key.json``, ...)."""

    key: ValidationKey
    directory: Path
    files: Mapping[str, Path]


@dataclass(frozen=True)
class ImportConfig:
    """How judgments are read and decided.

    Args:
        export_dir: The ``output_dir`` of the export the annotators judged.
        judgments: Their CSV files (the page's downloads, or a platform's results).
        output_dir: Where the validated copies and ``validation.json`` go (a new directory).
        rule: ``huang-2021``, ``unanimous`` or ``majority``.
        columns: ``FIELD=COLUMN,...``: the columns of a platform's results (``None``: ``item_id,annotator,label``).
        overwrite: Replace an existing ``output_dir``.
    """

    export_dir: str | os.PathLike[str]
    judgments: Sequence[str | os.PathLike[str]]
    output_dir: str | os.PathLike[str]
    rule: str = HUANG_2021
    columns: str | None = None
    overwrite: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "judgments", tuple(self.judgments))
        if not self.judgments:
            raise ConfigurationError("Name at least one judgments file (the CSV files the annotators sent back).")
        check_rule(self.rule)
        parse_columns(self.columns)


@dataclass(frozen=True)
class ImportResult:
    """What an import decided and wrote: the report (``validation.json``), the validated copy of
    each source, and notes for the user (items with an unexpected number of judgments, ...)."""

    report: ValidationReport
    directory: Path
    outputs: tuple[Path, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class JudgeConfig:
    """``judges`` (registered names; several must all say ``same``) on the pairs of ``input``,
    written with their verdicts to ``output``."""

    judges: Sequence[str]
    input: str | os.PathLike[str]
    output: str | os.PathLike[str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "judges", tuple(self.judges))
        if not self.judges:
            raise ConfigurationError("Name at least one judge with --judge (textattack-semparse list judge).")


@dataclass(frozen=True)
class JudgeResult:
    """The judge's name, the verdicts counted, and the file written."""

    judge: str
    verdicts: Mapping[str, int]
    output: Path


@dataclass(frozen=True)
class AgreementConfig:
    """A judge's ``verdicts`` (``validate judge`` output) against people: judgment CSV files (joined
    by ``item_id``) or JSONL files of labelled pairs (joined by ``item_id``, else by original and
    rewrite); with neither, the verdict lines' own ``label``. ``rule`` decides several people's
    labels of a rewrite; ``columns`` maps a platform's CSV columns."""

    verdicts: str | os.PathLike[str]
    people: Sequence[str | os.PathLike[str]] = ()
    rule: str = HUANG_2021
    columns: str | None = None
    output_json: str | os.PathLike[str] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "people", tuple(self.people))
        check_rule(self.rule)
        parse_columns(self.columns)


@dataclass(frozen=True)
class AgreementResult:
    """The agreement overall (first row) and per class and perturbation, and the JSON written."""

    rows: tuple[Agreement, ...]
    output_json: Path | None


def export(config: ExportConfig, context: RunContext | None = None) -> ExportResult:
    """Export the rewrites of the sources of ``config`` as items for people to judge."""
    from textattack_semparse.validation.annotation_page import annotation_page
    from textattack_semparse.validation.sources import open_source
    from textattack_semparse.validation.validation_items import (
        build_items,
        item_set_id,
        items_csv,
        items_jsonl,
        pairs_jsonl,
    )
    from textattack_semparse.validation.validation_key import (
        ITEMS_CSV,
        ITEMS_JSONL,
        KEY_FILE,
        PAGE,
        PAIRS_JSONL,
        SourceRecord,
    )

    context = context or RunContext()
    directory = Path(config.output_dir)
    if (directory / KEY_FILE).exists() and not config.overwrite:
        raise DatasetError(
            f"{str(directory)!r} holds an export already; a new one would no longer match the judgments made on it. "
            "Choose another --output-dir, or add --overwrite to replace it."
        )
    sources = [open_source(path, original=config.original) for path in config.sources]
    if config.original is not None and not any(source.details for source in sources):
        raise ConfigurationError("--original names the file an augmented file was made from; no source is an augmented file.")
    rewrites = [source.rewrites() for source in sources]
    for source, found in zip(sources, rewrites, strict=True):
        context.say(f"{source.path}: {len(found)} rewrites ({source.kind})")
    if not any(rewrites):
        raise DatasetError(
            "The sources hold no rewrites to judge (an attack without a successful example, or only table "
            "perturbations?); pass sources with rewritten questions."
        )
    items = build_items(
        rewrites, config.task, seed=config.seed, sample=config.sample, per_perturbation=config.per_perturbation
    )
    key = ValidationKey(
        task=config.task,
        seed=config.seed,
        sample=config.sample,
        item_set=item_set_id(items, config.task),
        rewrites=sum(map(len, rewrites)),
        sources=tuple(
            SourceRecord(source.kind, str(source.path.resolve()), source.digest(), dict(source.details)) for source in sources
        ),
        items=tuple(items),
        per_perturbation=config.per_perturbation,
    )
    texts = {
        ITEMS_JSONL: items_jsonl(items, config.task),
        ITEMS_CSV: items_csv(items, config.task),
        PAGE: annotation_page(items, config.task, key.item_set),
        PAIRS_JSONL: pairs_jsonl(items, config.task),
    }
    files = {}
    for name, text in texts.items():
        atomic_write_text(directory / name, text)
        files[name] = directory / name
    files[KEY_FILE] = key.write(directory)
    return ExportResult(key, directory, files)


def import_judgments(config: ImportConfig, context: RunContext | None = None) -> ImportResult:
    """Decide the judgments of ``config`` and write each source without the rewrites not kept."""
    from textattack_semparse.validation.decision_rules import decide, irregular_items, item_labels
    from textattack_semparse.validation.judgments import read_judgments
    from textattack_semparse.validation.validation_report import REPORT_FILE, validation_report

    output = Path(config.output_dir)
    if output.exists() and (not output.is_dir() or any(output.iterdir())) and not config.overwrite:
        raise DatasetError(
            f"{str(output)!r} exists and is not empty; choose another --output-dir, or add --overwrite to replace it."
        )
    key = ValidationKey.read(config.export_dir)
    judgments = read_judgments(config.judgments, parse_columns(config.columns))
    if not judgments:
        raise DatasetError(
            f"The judgments files ({', '.join(map(str, config.judgments))}) hold no judgments, only a header; "
            "pass the files the annotators sent back."
        )
    labels = item_labels(judgments, key.items, key.task)
    decisions = {
        item.item_id: decide(item, labels[item.item_id], key.task, config.rule)
        for item in key.items
        if item.item_id in labels
    }
    sources = [_reopened(record) for record in key.sources]
    originals = [Path(source.details["original"]) for source in sources if "original" in source.details]
    for read in [Path(config.export_dir), *(source.path for source in sources), *originals]:
        if read.resolve().is_relative_to(output.resolve()):
            raise ConfigurationError(
                f"--output-dir {str(output)!r} holds {str(read)!r}, which the import reads; write the validated "
                "copy to a new directory."
            )
    kept_locations: list[set[Location]] = [set() for _ in sources]
    for item in key.items:
        decision = decisions.get(item.item_id)
        if decision is not None and decision.kept is not None:
            for occurrence in item.candidate(decision.kept).occurrences:
                kept_locations[occurrence.source].add(occurrence.location)
    irregular = irregular_items(labels, config.rule)
    notes = _notes(key, decisions, irregular)
    output.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=output.parent, prefix=f".{output.name}.", suffix=".tmp"))
    try:
        outputs, records, kept_count, dropped_count = [], [], 0, 0
        names: set[str] = set()
        for source, kept in zip(sources, kept_locations, strict=True):
            locations = [rewrite.location for rewrite in source.rewrites()]
            dropped = [location for location in locations if location not in kept]
            kept_count += len(locations) - len(dropped)
            dropped_count += len(dropped)
            folder = staging if len(sources) == 1 or not source.path.is_dir() else staging / _unique(source.name, names)
            written = source.write_without(dropped, folder)
            final = output / written.relative_to(staging)
            outputs.append(final)
            records.append({"kind": source.kind, "path": str(source.path), "output": str(final)})
        report = validation_report(
            task=key.task,
            rule=config.rule,
            items=key.items,
            decisions=decisions,
            irregular=irregular,
            judgment_files=[str(path) for path in config.judgments],
            rewrites_kept=kept_count,
            rewrites_dropped=dropped_count,
            sources=records,
        )
        atomic_write_text(staging / REPORT_FILE, json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
        if output.exists():
            shutil.rmtree(output) if output.is_dir() else output.unlink()
        os.replace(staging, output)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    for note in notes:
        (context or RunContext()).say(note)
    return ImportResult(report, output, tuple(outputs), tuple(notes))


def _reopened(record: SourceRecord) -> RewriteSource:
    """The source an export's key records, checked to be unchanged since the export."""
    from textattack_semparse.validation.sources import open_source

    for path in (record.path, record.details.get("original")):
        if path is not None and not Path(path).exists():
            raise DatasetError(
                f"{path!r}, a source of this export, no longer exists; restore it where it was exported from."
            )
    source = open_source(record.path, original=record.details.get("original"))
    if source.kind != record.kind or source.digest() != record.digest:
        raise DatasetError(
            f"Source {record.path!r} changed since the export (its files differ), so the judgments no longer point at "
            "its rewrites. Restore it, or export it again and have the new items judged."
        )
    return source


def _unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``, ... when taken; recorded as taken."""
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        candidate = f"{name}-{number}"
    taken.add(candidate)
    return candidate


def _notes(key: ValidationKey, decisions: Mapping[str, Decision], irregular: Mapping[str, int]) -> list[str]:
    """What the user should know about the judgments besides the figures."""
    notes = []
    unjudged = len(key.items) - len(decisions)
    if unjudged:
        notes.append(f"{unjudged} of {len(key.items)} items have no judgment: none of their rewrites is kept.")
    if irregular:
        counts = Counter(irregular.values())
        shown = ", ".join(f"{items} with {count}" for count, items in sorted(counts.items()))
        notes.append(
            f"huang-2021 expects 3 judgments per item; {len(irregular)} items have another number ({shown}). The rule "
            "still keeps a rewrite at least two annotators call the same (so never one judged once)."
        )
    return notes


def judge(config: JudgeConfig, context: RunContext | None = None) -> JudgeResult:
    """Judge the pairs of ``config.input`` and write them with ``verdict`` and ``reason``."""
    from textattack_semparse.judges.meaning_judge import judges_from_names
    from textattack_semparse.validation.pair_files import pairs_text, read_pairs, rewrite_pair

    records = read_pairs(config.input)
    meaning_judge = judges_from_names(config.judges)
    judgements = meaning_judge.judge([rewrite_pair(record) for record in records])
    judged = [
        {**record, "verdict": judgement.verdict.value, "reason": judgement.reason, "layer": judgement.layer}
        for record, judgement in zip(records, judgements, strict=True)
    ]
    output = Path(config.output)
    atomic_write_text(output, pairs_text(judged))
    return JudgeResult(meaning_judge.name, dict(Counter(record["verdict"] for record in judged)), output)


def agreement(config: AgreementConfig, context: RunContext | None = None) -> AgreementResult:
    """The agreement of the verdicts of ``config`` with people's judgments, overall and per
    ``class`` and ``perturbation`` (when the verdict lines have them)."""
    from textattack_semparse.validation.pair_files import read_pairs

    verdicts = read_pairs(config.verdicts, required=("original", "rewrite", "verdict"))
    accepted = {verdict.value for verdict in Verdict}
    for number, record in enumerate(verdicts, start=1):
        if record["verdict"] not in accepted:
            raise DatasetError(
                f"{config.verdicts}: pair {number} has verdict {record['verdict']!r}, none of {', '.join(sorted(accepted))}; "
                "pass the output of `textattack-semparse validate judge`."
            )
    people = _people_keep(config, verdicts)
    compared = [(record, people[index]) for index, record in enumerate(verdicts) if index in people]
    if not compared:
        raise DatasetError(
            f"No pair of {str(config.verdicts)!r} has people's labels: judgments join on item_id (judge the export's "
            "pairs.jsonl), labelled pairs on item_id or on original and rewrite."
        )
    rows = [_agreement_row(compared, "all")]
    for field in ("class", "perturbation"):
        values = sorted({str(record[field]) for record, _ in compared if field in record})
        rows += [
            _agreement_row([pair for pair in compared if str(pair[0].get(field)) == value], f"{field}: {value}")
            for value in values
        ]
    path = Path(config.output_json) if config.output_json is not None else None
    if path is not None:
        data = {"verdicts": str(config.verdicts), "people": [str(file) for file in config.people], "rule": config.rule}
        atomic_write_text(path, json.dumps({**data, "agreement": [row.to_json() for row in rows]}, indent=2) + "\n")
    return AgreementResult(tuple(rows), path)


def _agreement_row(compared: Sequence[tuple[Mapping[str, Any], bool]], group: str) -> Agreement:
    """The agreement on ``compared`` (verdict line, whether people keep it) pairs."""
    judge_keeps = [record["verdict"] == Verdict.SAME.value for record, _ in compared]
    return judge_agreement(judge_keeps, [keep for _, keep in compared], group=group)


def _people_keep(config: AgreementConfig, verdicts: Sequence[Mapping[str, Any]]) -> dict[int, bool]:
    """Verdict line index -> whether people keep that rewrite (see :class:`AgreementConfig`)."""
    from textattack_semparse.validation.decision_rules import rule_keeps
    from textattack_semparse.validation.judgments import Judgment, read_judgments, same_meaning_label
    from textattack_semparse.validation.pair_files import read_pairs

    by_item = {str(record["item_id"]): index for index, record in enumerate(verdicts) if "item_id" in record}
    by_pair = {(record["original"], record["rewrite"]): index for index, record in enumerate(verdicts)}
    labels: dict[int, list[str]] = {}

    def add(index: int | None, label: str, where: str) -> None:
        normalised = same_meaning_label(label)
        if normalised is None:
            raise DatasetError(f"{where}: label {label!r} is none of same, different, unsure (or 'not sure').")
        if index is not None:
            labels.setdefault(index, []).append(normalised)

    csv_files = [path for path in config.people if Path(path).suffix.lower() not in PEOPLE_JSONL_SUFFIXES]
    if csv_files and not by_item:
        raise DatasetError(
            f"Judgments files join on item_id, and the lines of {str(config.verdicts)!r} have none; judge the pairs.jsonl "
            "of the export the annotators judged."
        )
    judgments: list[Judgment] = read_judgments(csv_files, parse_columns(config.columns)) if csv_files else []
    for judgment in judgments:
        add(by_item.get(judgment.item_id), judgment.label, judgment.where)
    for path in config.people:
        if Path(path).suffix.lower() not in PEOPLE_JSONL_SUFFIXES:
            continue
        for number, labelled in enumerate(read_pairs(path, required=("original", "rewrite", "label")), start=1):
            if "item_id" in labelled and by_item:
                index = by_item.get(str(labelled["item_id"]))
            else:
                index = by_pair.get((labelled["original"], labelled["rewrite"]))
            add(index, labelled["label"], f"{path}: pair {number}")
    if not config.people:
        for position, verdict in enumerate(verdicts):
            if isinstance(verdict.get("label"), str):
                add(position, verdict["label"], f"{config.verdicts}: pair {position + 1}")
    return {
        index: (found[0] == "same") if len(found) == 1 else rule_keeps(config.rule, found.count("same"), len(found))
        for index, found in labels.items()
    }


@dataclass(frozen=True)
class AblateConfig:
    """The default judge's layers and rules, each left out in turn, on the labelled pairs of
    ``input`` (JSONL lines with ``original``, ``rewrite``, ``label``: same, different or unsure;
    ``gold`` and ``schema`` when known); ``reader`` as for ``cross-encoder:`` (``None``: the packaged one)."""

    input: str | os.PathLike[str]
    reader: str | None = None
    output_json: str | os.PathLike[str] | None = None


@dataclass(frozen=True)
class VetoFiring:
    """How often one veto fired on the labelled pairs, and on how many of them people kept the rewrite."""

    veto: str
    fired: int
    people_kept: int

    def to_json(self) -> dict[str, Any]:
        return {"veto": self.veto, "fired": self.fired, "people_kept": self.people_kept}


@dataclass(frozen=True)
class AblateResult:
    """Agreement per variant (``group`` names it), what each veto fired on, the reader's threshold."""

    rows: tuple[Agreement, ...]
    vetoes: tuple[VetoFiring, ...]
    threshold: float
    output_json: Path | None


def ablate(config: AblateConfig, context: RunContext | None = None) -> AblateResult:
    """What each veto and the reader change: the judge's agreement with the labels whole, with
    each veto left out, with the vetoes alone and with the reader alone."""
    from textattack_semparse.judges.grounded_judge import VETO_LAYER, GroundedJudge
    from textattack_semparse.judges.reader import PairReader
    from textattack_semparse.judges.vetoes import VETOES
    from textattack_semparse.validation.pair_files import read_pairs, rewrite_pair

    records = read_pairs(config.input, required=("original", "rewrite", "label"))
    pairs = [rewrite_pair(record) for record in records]
    people = [record["label"] == Verdict.SAME.value for record in records]
    reader = PairReader(config.reader, persistent=True)  # each pair is read once, whatever the variant
    variants: list[tuple[str, GroundedJudge]] = [("vetoes + reader", GroundedJudge(reader))]
    variants += [
        (f"without the {veto.name} veto", GroundedJudge(reader, vetoes=[other for other in VETOES if other is not veto]))
        for veto in VETOES
    ]
    variants += [
        ("vetoes alone", GroundedJudge(reader, use_reader=False)),
        ("reader alone", GroundedJudge(reader, vetoes=())),
    ]
    rows = tuple(
        judge_agreement([judgement.keeps_meaning for judgement in judge.judge(pairs)], people, group=name)
        for name, judge in variants
    )
    # What each veto fires on: the first layer with that veto alone.
    firings = []
    for veto in VETOES:
        alone = GroundedJudge(reader, vetoes=[veto], use_reader=False).judge(pairs)
        fired = [judgement.layer == f"{VETO_LAYER}:{veto.name}" for judgement in alone]
        firings.append(VetoFiring(veto.name, sum(fired), sum(f and kept for f, kept in zip(fired, people, strict=True))))
    reader.forget()
    path = Path(config.output_json) if config.output_json is not None else None
    if path is not None:
        data = {
            "input": str(config.input), "reader": reader.identity, "threshold": reader.threshold,
            "variants": [row.to_json() for row in rows], "vetoes": [firing.to_json() for firing in firings],
        }  # fmt: skip
        atomic_write_text(path, json.dumps(data, indent=2) + "\n")
    return AblateResult(rows, tuple(firings), reader.threshold, path)
