"""The inputs of a report: the plugin's run directories and TextAttack's logs, read into one shape.

A source is one of:

- a robustness run (``robustness run``, or ``robustness build`` + ``evaluate`` into one
  directory; Table QA runs too): ``robustness.json``, and for examples the test set and the
  ``evaluate.jsonl`` journal; or a bare ``robustness evaluate --output-json`` file;
- an attack (``textattack-semparse attack``, or TextAttack's own ``--log-to-csv`` /
  ``--log-summary-to-json`` files);
- a grammatical-error attack (``grammar-attack``: its log and ``summary.json``);
- an in-context-learning grid (``icl``: ``icl.json``).

Figures are never recomputed here: each comes from the module that defines it (the robustness
report, :mod:`~textattack_semparse.metrics.attack_metrics`, the grammar-error analysis, the ICL
study). A robustness run of a test set ``validate import`` wrote carries that validation
(``validation.json``, read by :mod:`~textattack_semparse.validation.validation_report`) and says
so in its title. Original to textattack-semparse.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from textattack_semparse.errors import DatasetError
from textattack_semparse.llm.icl_results import RESULT_FORMAT as ICL_FORMAT
from textattack_semparse.llm.icl_results import ICLStudy
from textattack_semparse.metrics.attack_metrics import (
    AttackMetrics,
    metrics_from_rows,
    metrics_from_summary,
    read_attack_log_content,
)
from textattack_semparse.report.examples import (
    BROKEN,
    FIXED,
    ReportExample,
    describe_table_edit,
    example_from_log_row,
    paired_outcome,
    short_result,
)
from textattack_semparse.robustness.evaluate_test_set import ABOUT_KEY, ORIGINALS_KEY
from textattack_semparse.robustness.robustness_report import FORMAT as ROBUSTNESS_FORMAT
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.robustness_test_set import MANIFEST, RobustnessTestSet
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.provenance import read_invocations
from textattack_semparse.runs.run_directory import RUN_FILE
from textattack_semparse.sql.sqlite_executor import executor_for
from textattack_semparse.tables.table import Table
from textattack_semparse.validation.validation_report import ValidatedCopy, ValidationReport, validated_copy

ROBUSTNESS, ATTACK, GRAMMAR_ATTACK, ICL = "robustness", "attack", "grammar-attack", "icl"
KINDS = {
    ROBUSTNESS: "robustness run",
    ATTACK: "attack",
    GRAMMAR_ATTACK: "grammatical-error attack",
    ICL: "in-context-learning grid",
}
"""Each kind of source and how the report names it."""
ROBUSTNESS_FILE, EVALUATION_JOURNAL = "robustness.json", "evaluate.jsonl"
ATTACK_LOG, ATTACK_SUMMARY = "attack_log.csv", "attack_summary.json"
GRAMMAR_SUMMARY, ICL_FILE = "summary.json", "icl.json"
EVALUATIONS_DIR = "evaluations"
"""The folder of a test set where ``robustness evaluate`` puts its runs unless told otherwise."""
EXECUTED_EXAMPLES = 200
"""At most this many broken or fixed examples of a run get their queries' results (executed
read-only, with the executor's time limit and row cap)."""


@dataclass(frozen=True)
class ReportSource:
    """One input of a report, read.

    Args:
        id (str): A short id for the page (``source-1``, ...).
        path (Path): The directory or file read.
        kind (str): One of :data:`KINDS`.
        victim (str): The victim (model) evaluated or attacked.
        title (str): What the source is, for headings.
        invocations (tuple[Mapping, ...]): The command lines and software versions that wrote
            it (:mod:`~textattack_semparse.runs.provenance`); empty when not recorded.
        configuration (Mapping): The run's recorded configuration (``run.json``), when any.
        robustness (RobustnessReport | None): A robustness run's metrics.
        attack (AttackMetrics | None): An attack's (or grammatical-error attack's) metrics.
        grammar (Mapping | None): A grammatical-error attack's ``summary.json``.
        icl (ICLStudy | None): An in-context-learning grid.
        examples (tuple[ReportExample, ...]): Its examples, in file order.
        has_tables (bool): A robustness run on Table QA (RobuT's table applies).
        test_set_dir (Path | None): The test set a robustness run evaluated, when the report can
            tell (:func:`evaluated_test_set`).
        validated (ValidatedCopy | None): The validation that wrote that test set, when
            ``validate import`` did.
    """

    id: str
    path: Path
    kind: str
    victim: str
    title: str
    invocations: tuple[Mapping[str, Any], ...] = ()
    configuration: Mapping[str, Any] = field(default_factory=dict)
    robustness: RobustnessReport | None = None
    attack: AttackMetrics | None = None
    grammar: Mapping[str, Any] | None = None
    icl: ICLStudy | None = None
    examples: tuple[ReportExample, ...] = ()
    has_tables: bool = False
    test_set_dir: Path | None = None
    validated: ValidatedCopy | None = None


def read_sources(paths: Sequence[str | Path]) -> list[ReportSource]:
    """Every source under ``paths``: a path that is a run (or log file) is one source; a
    directory that is not is searched one level down for runs.

    Raises:
        DatasetError: A path is missing, or neither a run nor a directory of runs.
    """
    found: list[Path] = []
    for path in map(Path, paths):
        if not path.exists():
            raise DatasetError(f"{str(path)!r} does not exist; pass run directories or TextAttack log files.")
        if path.is_file() or source_kind(path) is not None:
            found.append(path)
            continue
        runs = sorted(child for child in path.iterdir() if child.is_dir() and source_kind(child) is not None)
        if not runs:
            raise DatasetError(
                f"{str(path)!r} is not a run directory ({ROBUSTNESS_FILE}, {ATTACK_LOG} or {ATTACK_SUMMARY}, "
                f"{ICL_FILE}) and holds none. Pass the --output-dir of `textattack-semparse robustness run`, "
                "`attack`, `grammar-attack` or `icl`, or TextAttack's --log-to-csv / --log-summary-to-json file."
            )
        found.extend(runs)
    return [read_source(path, f"source-{number}") for number, path in enumerate(found, start=1)]


def source_kind(directory: Path) -> str | None:
    """The kind of run ``directory`` holds, from its files; ``None`` when it holds none."""
    if (directory / ICL_FILE).is_file():
        return ICL
    if (directory / ROBUSTNESS_FILE).is_file():
        return ROBUSTNESS
    if (directory / GRAMMAR_SUMMARY).is_file() and (directory / ATTACK_LOG).is_file():
        return GRAMMAR_ATTACK
    if (directory / ATTACK_LOG).is_file() or (directory / ATTACK_SUMMARY).is_file():
        return ATTACK
    return None


def read_source(path: Path, source_id: str) -> ReportSource:
    """Read one run directory or log file (:func:`source_kind`; a file by its content)."""
    if path.is_file():
        return _read_file(path, source_id)
    kind = source_kind(path)
    configuration = _configuration(path)
    invocations = tuple(read_invocations(path))
    if kind == ROBUSTNESS:
        return _robustness_source(path, source_id, RobustnessReport.read(path / ROBUSTNESS_FILE), invocations)
    if kind == ICL:
        return _icl_source(path, source_id, ICLStudy.read(path / ICL_FILE), invocations)
    if kind == GRAMMAR_ATTACK:
        summary = _read_json(path / GRAMMAR_SUMMARY)
        if not isinstance(summary, dict) or not isinstance(summary.get("error_types"), dict):
            raise DatasetError(
                f"{str(path / GRAMMAR_SUMMARY)!r} is not a grammar-attack summary (no 'error_types'); "
                "run `textattack-semparse grammar-attack ... --output-dir DIR` again."
            )
        rows = read_attack_log_content(path / ATTACK_LOG)
        if isinstance(rows, dict):
            raise DatasetError(
                f"{str(path / ATTACK_LOG)!r} is a JSON summary, not the grammar attack's CSV log; "
                "run `textattack-semparse grammar-attack ... --output-dir DIR` again."
            )
        recipe, victim = str(summary.get("recipe", "nucle")), str(summary.get("model", "victim"))
        return ReportSource(
            id=source_id,
            path=path,
            kind=GRAMMAR_ATTACK,
            victim=victim,
            title=f"{recipe} on {victim}",
            invocations=invocations,
            configuration=configuration,
            attack=metrics_from_rows(rows),
            grammar=summary,
            examples=tuple(example_from_log_row(row, source=source_id, perturbation=recipe) for row in rows),
        )
    log = path / ATTACK_LOG
    content = read_attack_log_content(log if log.is_file() else path / ATTACK_SUMMARY)
    return _attack_source(path, source_id, content, configuration, invocations)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise DatasetError(f"{str(path)!r} is not valid JSON ({error}); the run that wrote it was cut short, run it again.") from None


def _read_file(path: Path, source_id: str) -> ReportSource:
    if path.suffix == ".json":
        data = _read_json(path)
        if isinstance(data, dict) and data.get("format") == ROBUSTNESS_FORMAT:
            return _robustness_source(path, source_id, RobustnessReport.from_json(data, source=repr(str(path))), ())
        if isinstance(data, dict) and data.get("format") == ICL_FORMAT:
            return _icl_source(path, source_id, ICLStudy.read(path), ())
    return _attack_source(path, source_id, read_attack_log_content(path), {}, ())


def _configuration(directory: Path) -> Mapping[str, Any]:
    run_file = directory / RUN_FILE
    if not run_file.is_file():
        return {}
    recorded = _read_json(run_file)
    return recorded.get("configuration", {}) if isinstance(recorded, dict) else {}


def _attack_source(
    path: Path,
    source_id: str,
    content: dict[str, object] | list[dict[str, str]],
    configuration: Mapping[str, Any],
    invocations: tuple[Mapping[str, Any], ...],
) -> ReportSource:
    recipe = str(configuration.get("recipe") or "attack")
    victim = str(configuration.get("model") or "victim")
    examples: tuple[ReportExample, ...]
    if isinstance(content, dict):
        metrics, examples = metrics_from_summary(content), ()
    else:
        metrics = metrics_from_rows(content)
        examples = tuple(example_from_log_row(row, source=source_id, perturbation=recipe) for row in content)
    return ReportSource(
        id=source_id,
        path=path,
        kind=ATTACK,
        victim=victim,
        title=f"{recipe} on {victim}" if configuration else f"TextAttack log {path.name}",
        invocations=invocations,
        configuration=configuration,
        attack=metrics,
        examples=examples,
    )


def _icl_source(path: Path, source_id: str, study: ICLStudy, invocations: tuple[Mapping[str, Any], ...]) -> ReportSource:
    return ReportSource(
        id=source_id,
        path=path,
        kind=ICL,
        victim=study.model_label,
        title=f"in-context learning: {study.model_label} on {study.dataset}",
        invocations=invocations,
        configuration=dict(study.parameters),
        icl=study,
    )


def _robustness_source(
    path: Path, source_id: str, report: RobustnessReport, invocations: tuple[Mapping[str, Any], ...]
) -> ReportSource:
    examples: tuple[ReportExample, ...] = ()
    has_tables = False
    test_set_dir = evaluated_test_set(path) if path.is_dir() else None
    validated = validated_copy(test_set_dir) if test_set_dir is not None else None
    if path.is_dir() and (path / MANIFEST).is_file() and (path / EVALUATION_JOURNAL).is_file():
        test_set = RobustnessTestSet.read(path)
        has_tables = any(example.table is not None for example in test_set.originals)
        examples = tuple(_robustness_examples(test_set, Journal(path / EVALUATION_JOURNAL).records(), source_id))
    return ReportSource(
        id=source_id,
        path=path,
        kind=ROBUSTNESS,
        victim=report.victim,
        title=f"{report.victim} on {report.dataset}{'' if validated is None else ', ' + validated_label(validated.validation)}",
        invocations=invocations,
        configuration=_configuration(path) if path.is_dir() else {},
        robustness=report,
        examples=examples,
        has_tables=has_tables,
        test_set_dir=test_set_dir,
        validated=validated,
    )


def evaluated_test_set(run: Path) -> Path | None:
    """The test set the robustness run ``run`` evaluated: its own directory (``robustness run``, or
    ``evaluate --output-dir`` the test set's) or the test set whose :data:`EVALUATIONS_DIR` holds
    it (``evaluate``'s default); ``None`` elsewhere (a run records only a digest of its test set)."""
    if (run / MANIFEST).is_file():
        return run
    if run.parent.name == EVALUATIONS_DIR and (run.parent.parent / MANIFEST).is_file():
        return run.parent.parent
    return None


def validated_label(validation: ValidationReport) -> str:
    """How the report names a validated test set: ``validated (huang-2021, 3 annotators)``."""
    count = len(validation.annotators)
    return f"validated ({validation.rule}, {count} annotator{'' if count == 1 else 's'})"


def _robustness_examples(test_set: RobustnessTestSet, records: Mapping[str, Any], source_id: str) -> list[ReportExample]:
    """The perturbed utterances the journal has scored, with their originals' predictions; the
    broken and fixed ones (up to :data:`EXECUTED_EXAMPLES`) with their queries' results when the
    run scored by execution on one SQLite database."""
    database = (records.get(ABOUT_KEY) or {}).get("database")
    executor = executor_for(database, timeout=2.0, max_rows=6) if _is_sqlite_file(database) else None
    examples = []
    executed = 0
    for name, utterances in test_set.utterances.items():
        for index, utterance in enumerate(utterances):
            scored = records.get(f"{name}/{index}")
            original = records.get(f"{ORIGINALS_KEY}/{utterance.example_id}")
            if scored is None or original is None:
                continue  # an unfinished run: only what it scored
            outcome = paired_outcome(original["outcome"], scored["outcome"])
            results: dict[str, str | None] = {}
            if executor is not None and outcome in (BROKEN, FIXED) and executed < EXECUTED_EXAMPLES and utterance.db_id is None:
                executed += 1
                results = {
                    "gold_rows": short_result(executor.execute(utterance.gold)),
                    "perturbed_rows": short_result(executor.execute(str(scored["prediction"]))),
                }
            examples.append(
                ReportExample(
                    source=source_id,
                    perturbation=name,
                    outcome=outcome,
                    original=utterance.original,
                    perturbed=utterance.perturbed,
                    gold=utterance.gold,
                    original_prediction=_text(original.get("prediction")),
                    perturbed_prediction=_text(scored.get("prediction")),
                    similarity=utterance.similarity,
                    table_edit=_table_edit(test_set.originals[utterance.example_id].table, utterance.table),
                    **results,
                )
            )
    return examples


def _table_edit(original: Table | None, perturbed: Table | None) -> str | None:
    return None if original is None or perturbed is None else describe_table_edit(original, perturbed)


def _is_sqlite_file(database: object) -> TypeGuard[str]:
    return isinstance(database, str) and database.endswith(".sqlite") and Path(database).is_file()


def _text(value: object) -> str | None:
    return None if value is None else str(value)
