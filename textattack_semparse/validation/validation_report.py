"""What an import decided, as ``validation.json``: acceptance overall and per perturbation, how
much the annotators agreed (Fleiss' kappa), the items they disagreed on, who judged and which
rule decided; read back, with the validated copy it belongs to, by the report."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError
from textattack_semparse.metrics.accuracy import percent
from textattack_semparse.validation.decision_rules import HUANG_2021, HUANG_2021_ANNOTATORS, RULES, Decision
from textattack_semparse.validation.kappa import fleiss_kappa
from textattack_semparse.validation.validation_items import SAME_MEANING, ValidationItem

FORMAT = "textattack-semparse validation"
BEST_OF_K_VOTES = "; best-of-k: a vote is the choice of a candidate, and only the most chosen one can be kept"
REPORT_FILE = "validation.json"


@dataclass(frozen=True)
class Acceptance:
    """Judged items, the items kept among them, and the share kept (percent; ``None`` when none
    was judged)."""

    judged: int
    kept: int
    acceptance: float | None


@dataclass(frozen=True)
class ValidationReport:
    """The outcome of ``validate import`` (rates in percent).

    Args:
        task, rule: The export's task and the rule that decided (with ``rule_description``).
        annotators: Everyone who judged, sorted; ``judgment_files`` the files read.
        items: Items exported; ``overall`` and ``perturbations`` the judged and kept items (an
            item counts under each perturbation that made one of its rewrites).
        fleiss_kappa: Agreement of the annotators beyond chance (:func:`~textattack_semparse.
            validation.kappa.fleiss_kappa`; ``None`` when undefined).
        unjudged: Items no one judged (nothing of them is kept).
        irregular: ``huang-2021`` only: items without three judgments -> how many they had.
        disputed: The items the annotators did not all label alike, with every label and the outcome.
        rewrites_kept, rewrites_dropped: Rewrites the validated sources keep and leave out
            (a rewrite in several places counts in each; unsampled ones are dropped).
        sources: Each source (kind, path) and its validated copy (``output``).
    """

    task: str
    rule: str
    rule_description: str
    annotators: tuple[str, ...]
    judgment_files: tuple[str, ...]
    judgments: int
    items: int
    overall: Acceptance
    perturbations: Mapping[str, Acceptance]
    fleiss_kappa: float | None
    unjudged: tuple[str, ...]
    irregular: Mapping[str, int]
    disputed: tuple[Mapping[str, Any], ...]
    rewrites_kept: int
    rewrites_dropped: int
    sources: tuple[Mapping[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["irregular"] = {
            "expected": HUANG_2021_ANNOTATORS if self.rule == HUANG_2021 else None,
            "items": dict(self.irregular),
        }
        return {"format": FORMAT, **data}

    @classmethod
    def from_json(cls, data: Any, *, source: str = "validation report") -> ValidationReport:
        """Read what :meth:`to_json` wrote.

        Raises:
            DatasetError: ``data`` is no validation report, or a damaged one.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise DatasetError(
                f"{source} is not a validation report (no 'format': {FORMAT!r}); "
                "`textattack-semparse validate import` writes one."
            )
        try:
            return cls(
                task=data["task"],
                rule=data["rule"],
                rule_description=data["rule_description"],
                annotators=tuple(data["annotators"]),
                judgment_files=tuple(data["judgment_files"]),
                judgments=data["judgments"],
                items=data["items"],
                overall=Acceptance(**data["overall"]),
                perturbations={name: Acceptance(**counts) for name, counts in data["perturbations"].items()},
                fleiss_kappa=data["fleiss_kappa"],
                unjudged=tuple(data["unjudged"]),
                irregular=dict(data["irregular"]["items"]),
                disputed=tuple(data["disputed"]),
                rewrites_kept=data["rewrites_kept"],
                rewrites_dropped=data["rewrites_dropped"],
                sources=tuple(data["sources"]),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise DatasetError(f"{source} is a damaged validation report: {type(error).__name__}: {error}.") from None

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> ValidationReport:
        """Read a ``validation.json`` file."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError, UnicodeDecodeError) as error:
            raise DatasetError(
                f"{str(path)!r} is no readable validation report ({error}); run `validate import` again."
            ) from None
        return cls.from_json(data, source=repr(str(path)))


@dataclass(frozen=True)
class ValidatedCopy:
    """A directory ``validate import`` wrote: the validation that decided it and the source it is
    a copy of (the path the export recorded, absolute)."""

    validation: ValidationReport
    source: Path


def validated_copy(directory: Path) -> ValidatedCopy | None:
    """What validated ``directory``, when ``validate import`` wrote it; else ``None``.

    The import writes the copy of its one source as ``OUT`` itself, and those of several sources
    as ``OUT/<name>``, with ``OUT/validation.json`` beside them (the record of each source names
    its copy under ``output``).
    """
    for folder, single in ((directory, True), (directory.parent, False)):
        path = folder / REPORT_FILE
        if not path.is_file():
            continue
        report = ValidationReport.read(path)
        if single and len(report.sources) == 1:
            return ValidatedCopy(report, Path(report.sources[0]["path"]))
        if not single and len(report.sources) > 1:
            for record in report.sources:
                if Path(record["output"]).name == directory.name:
                    return ValidatedCopy(report, Path(record["path"]))
    return None


def validation_report(
    *,
    task: str,
    rule: str,
    items: Sequence[ValidationItem],
    decisions: Mapping[str, Decision],
    irregular: Mapping[str, int],
    judgment_files: Sequence[str],
    rewrites_kept: int,
    rewrites_dropped: int,
    sources: Sequence[Mapping[str, str]],
) -> ValidationReport:
    """The report of the ``decisions`` (item id -> decision; an item without one was not judged)."""
    per_perturbation: dict[str, list[int]] = {}
    for item in items:
        decision = decisions.get(item.item_id)
        if decision is None:
            continue
        kept_names = item.candidate(decision.kept).perturbations if decision.kept is not None else ()
        for name in item.perturbations:
            counts = per_perturbation.setdefault(name, [0, 0])
            counts[0] += 1
            counts[1] += name in kept_names
    judged = list(decisions.values())
    kept = sum(decision.kept is not None for decision in judged)
    return ValidationReport(
        task=task,
        rule=rule,
        rule_description=RULES[rule] + ("" if task == SAME_MEANING else BEST_OF_K_VOTES),
        annotators=tuple(sorted({annotator for decision in judged for annotator in decision.labels})),
        judgment_files=tuple(judgment_files),
        judgments=sum(len(decision.labels) for decision in judged),
        items=len(items),
        overall=Acceptance(len(judged), kept, percent(kept, len(judged))),
        perturbations={
            name: Acceptance(counts[0], counts[1], percent(counts[1], counts[0]))
            for name, counts in sorted(per_perturbation.items())
        },
        fleiss_kappa=fleiss_kappa([list(decision.labels.values()) for decision in judged]),
        unjudged=tuple(item.item_id for item in items if item.item_id not in decisions),
        irregular=dict(irregular),
        disputed=tuple(
            _disputed(item, decisions[item.item_id], task)
            for item in items
            if item.item_id in decisions and not decisions[item.item_id].unanimous
        ),
        rewrites_kept=rewrites_kept,
        rewrites_dropped=rewrites_dropped,
        sources=tuple(dict(source) for source in sources),
    )


def _disputed(item: ValidationItem, decision: Decision, task: str) -> dict[str, Any]:
    shown = item.shown(task)
    return {
        **shown,
        "perturbations": list(item.perturbations),
        "labels": dict(sorted(decision.labels.items())),
        "kept": decision.kept is not None if task == SAME_MEANING else decision.kept,
    }
