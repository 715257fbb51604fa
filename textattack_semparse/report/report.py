"""A report of several runs: summary tables in the papers' terms, plots, and the worst examples.

Tables name the figures as the papers do: standard, perturbation and robust accuracy and the
success rate of black-box attack (Huang et al. 2021, https://aclanthology.org/2021.eacl-main.292/),
RobuT's pre-attack, post-attack and robust accuracy for Table QA (Zhao et al. 2023,
https://arxiv.org/abs/2306.14321), attack success rate and modified words (Yin et al.
2020, https://aclanthology.org/2020.acl-main.310/), and per-cell accuracies of the in-context
learning grid (Zhuo et al. 2023, https://arxiv.org/abs/2301.12868). Where several runs share a
table, each later run gets its difference to the first (in percentage points), as
``robustness compare`` gives a defence against its baseline. An evaluation of a test set people
validated (``validate import``) beside one of the test set it came from, of the same victim, gets
a table of the two side by side with the validation's acceptance. Original to textattack-semparse.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.llm.icl_figure import icl_study_figure
from textattack_semparse.llm.icl_results import ICLStudy
from textattack_semparse.metrics.grammar_error_analysis import success_vs_budget_figure
from textattack_semparse.report.examples import OUTCOMES, ReportExample, worst_first
from textattack_semparse.report.figures import accuracy_by_perturbation_figure, error_type_figure, svg_data_uri
from textattack_semparse.report.formatting import format_value
from textattack_semparse.report.sources import (
    ATTACK,
    GRAMMAR_ATTACK,
    ICL,
    ROBUSTNESS,
    ReportSource,
    read_sources,
)
from textattack_semparse.robustness.combined_table import combined_table
from textattack_semparse.robustness.comparison import METRIC_TITLES, compare_reports
from textattack_semparse.robustness.robustness_metrics import ROBUT_RATES, RobustnessMetrics
from textattack_semparse.robustness.robustness_report import MICRO, ROBUT_TABLE_COLUMNS, RobustnessReport
from textattack_semparse.runs.provenance import COMMAND_LINE, PROGRAM, software_versions
from textattack_semparse.validation.validation_report import Acceptance, ValidatedCopy

MAX_EXAMPLES = 5000
"""Examples a report lists by default, worst first; the rest are counted, not shown."""
ROBUSTNESS_METRICS = ("standard_accuracy", "perturbation_accuracy", "robust_accuracy", "black_box_success_rate")
VALIDATION_METRICS = ("perturbation_accuracy", "robust_accuracy")
"""The figures the validated and unvalidated runs are compared on, per perturbation."""
ATTACK_METRICS = ("standard_accuracy", "accuracy_under_attack", "robust_accuracy", "attack_success_rate")
_DELTA_NOTE = " Δ: the run minus the first, in percentage points."
HEADINGS = {
    **METRIC_TITLES,
    "accuracy_under_attack": "accuracy under attack",
    "attack_success_rate": "attack success rate",
    "examples": "examples",
    "succeeded": "succeeded",
    "failed": "failed",
    "skipped": "skipped",
    "left_out": "left out",
    "words_perturbed_percent": "words changed (%)",
    "queries_per_example": "queries per example",
    "dataset": "dataset",
}


@dataclass(frozen=True)
class Column:
    """A table column: the metric (``data-metric`` on the page), its heading, and the source
    whose values it holds when each run has a column (``data-source``)."""

    metric: str
    heading: str
    source: str | None = None


@dataclass(frozen=True)
class Row:
    """A table row: the source it belongs to (``None`` for averages), its label, one value per column."""

    source: str | None
    label: str
    values: tuple[Any, ...]
    kind: str = "run"


@dataclass(frozen=True)
class Table:
    """A table of the page; ``summary`` tables open it, the others follow the plots as details."""

    id: str
    title: str
    caption: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    summary: bool = False


@dataclass(frozen=True)
class Plot:
    id: str
    title: str
    caption: str
    uri: str


@dataclass(frozen=True)
class Report:
    """Everything the templates show."""

    sources: tuple[ReportSource, ...]
    labels: dict[str, str]
    tables: tuple[Table, ...]
    plots: tuple[Plot, ...]
    examples: tuple[ReportExample, ...]
    examples_total: int
    outcomes: tuple[str, ...]
    perturbations: tuple[str, ...]
    command: str | None
    versions: dict[str, str]

    @property
    def examples_left_out(self) -> int:
        return self.examples_total - len(self.examples)

    def source(self, source_id: str) -> ReportSource:
        return next(source for source in self.sources if source.id == source_id)


def build_report(paths: Sequence[str | Path], *, max_examples: int = MAX_EXAMPLES) -> Report:
    """Read every run under ``paths`` (:func:`~textattack_semparse.report.sources.read_sources`)
    and lay out its tables, plots and examples (at most ``max_examples``, worst first)."""
    sources = read_sources(paths)
    labels = _labels(sources)
    examples = worst_first(example for source in sources for example in source.examples)
    arguments = COMMAND_LINE.get()
    return Report(
        sources=tuple(sources),
        labels=labels,
        tables=tuple(_tables(sources, labels)),
        plots=tuple(_plots(sources, labels)),
        examples=tuple(examples[:max_examples]),
        examples_total=len(examples),
        outcomes=tuple(outcome for outcome in OUTCOMES if any(example.outcome == outcome for example in examples)),
        perturbations=tuple(dict.fromkeys(example.perturbation for example in examples)),
        command=None if arguments is None else shlex.join((PROGRAM, *arguments)),
        versions=software_versions(),
    )


def _labels(sources: Sequence[ReportSource]) -> dict[str, str]:
    """A label per source: its title, numbered where two titles are the same."""
    titles = [source.title for source in sources]
    return {
        source.id: source.title if titles.count(source.title) == 1 else f"{source.title} #{titles[: index + 1].count(source.title)}"
        for index, source in enumerate(sources)
    }


def _with_deltas(columns: list[Column], rows: list[Row], metrics: Sequence[str]) -> tuple[list[Column], list[Row]]:
    """Add, for each of ``metrics``, a column of each row's difference to the first row."""
    if len(rows) < 2:
        return columns, rows
    positions = [next(i for i, column in enumerate(columns) if column.metric == metric) for metric in metrics]
    first = rows[0].values
    deltas = [Column(f"delta_{metric}", f"Δ {HEADINGS[metric]}") for metric in metrics]
    widened = [
        Row(row.source, row.label, (*row.values, *(_difference(row.values[i], first[i]) if n else None for i in positions)), row.kind)
        for n, row in enumerate(rows)
    ]
    return [*columns, *deltas], widened


def _summary_table(
    table_id: str, title: str, caption: str, columns: list[Column], rows: list[Row], compared: Sequence[str]
) -> Table:
    """A summary table: with several runs, each ``compared`` metric gets a Δ column and the caption says so."""
    columns, widened = _with_deltas(columns, rows, compared)
    return Table(table_id, title, caption + _DELTA_NOTE * (len(rows) > 1), tuple(columns), tuple(widened), summary=True)


def _difference(value: Any, baseline: Any) -> float | None:
    return None if value is None or baseline is None else value - baseline


def _tables(sources: Sequence[ReportSource], labels: dict[str, str]) -> list[Table]:
    tables = []
    runs = {
        source.id: source.robustness
        for source in sources
        if source.kind == ROBUSTNESS and source.robustness is not None
    }
    if runs:
        columns = [Column("dataset", "dataset"), Column("examples", "examples"), *(Column(m, HEADINGS[m]) for m in ROBUSTNESS_METRICS)]
        rows = [Row(source_id, labels[source_id], _robustness_values(report)) for source_id, report in runs.items()]
        tables.append(
            _summary_table(
                "summary-robustness",
                "Robustness runs",
                "Standard accuracy on the originals; perturbation accuracy, robust accuracy (correct after the rewrite "
                "among the originals parsed correctly) and success rate of black-box attack pooled over every "
                "perturbed utterance (micro average), in % (Huang et al. 2021).",
                columns,
                rows,
                ROBUSTNESS_METRICS,
            )
        )
        tables.extend(_validation_tables(sources, labels))
        tables.extend(_perturbation_tables(runs, labels))
    for source in sources:
        if source.kind == ROBUSTNESS and source.robustness is not None and source.has_tables:
            tables.append(_robut_table(source.id, source.robustness, labels[source.id]))
        if source.kind == ROBUSTNESS and source.robustness is not None and source.robustness.test_set.get("judge"):
            tables.append(_judge_table(source.id, source.robustness, labels[source.id]))
    attacks = {
        source.id: source.attack
        for source in sources
        if source.kind in (ATTACK, GRAMMAR_ATTACK) and source.attack is not None
    }
    if attacks:
        counted = ("examples", "succeeded", "failed", "skipped", "left_out")
        rates = (*ATTACK_METRICS, "words_perturbed_percent", "queries_per_example")
        columns = [Column(m, HEADINGS[m]) for m in (*counted, *rates)]
        rows = []
        for source_id, attack in attacks.items():
            metrics = attack.to_dict()
            metrics["left_out"] = attack.gold_errors + attack.victim_errors
            rows.append(Row(source_id, labels[source_id], tuple(metrics[m] for m in (*counted, *rates))))
        tables.append(
            _summary_table(
                "summary-attacks",
                "Attacks",
                "TextAttack's outcomes in the papers' terms: standard accuracy (left-out gold and victim errors "
                "excluded), accuracy under attack, robust accuracy (failed attacks among the attacked) and attack "
                "success rate, in %; words changed by successful attacks.",
                columns,
                rows,
                ATTACK_METRICS,
            )
        )
    for source in sources:
        if source.kind == GRAMMAR_ATTACK and source.grammar is not None:
            tables.append(_error_type_table(source.id, source.grammar, labels[source.id]))
        if source.kind == ICL and source.icl is not None:
            tables.append(_icl_table(source.id, source.icl, labels[source.id]))
    return tables


def _robustness_values(report: RobustnessReport) -> tuple[Any, ...]:
    """Dataset, originals, standard accuracy on all of them, then the micro-averaged rates."""
    rates = report.micro.rates()
    return (report.dataset, report.original_examples, report.standard_accuracy, *(rates[m] for m in ROBUSTNESS_METRICS[1:]))


def _perturbation_tables(runs: Mapping[str, RobustnessReport], labels: dict[str, str]) -> list[Table]:
    """Per perturbation, each run's perturbation and robust accuracy (and differences to the first run);
    ``runs`` maps source ids to their reports."""
    reports = list(runs.values())
    names = [labels[source_id] for source_id in runs]
    tables = []
    for metric in ("perturbation_accuracy", "robust_accuracy"):
        if len(reports) > 1:
            headings, rows = compare_reports(reports, names=names, allow_different_datasets=True).table(metric)
        else:
            headings, rows = combined_table(reports, metric)
            headings = ["perturbation", names[0]]
        source_ids = list(runs)
        columns = [
            Column(metric, heading, source_id) for heading, source_id in zip(headings[1 : len(names) + 1], source_ids)
        ]
        columns += [
            Column(f"delta_{metric}", f"Δ {heading}", source_id)
            for heading, source_id in zip(headings[len(names) + 1 :], source_ids[1:])
        ]
        tables.append(
            Table(
                f"by-perturbation-{metric.replace('_', '-')}",
                f"{HEADINGS[metric].capitalize()} by perturbation",
                f"{HEADINGS[metric].capitalize()} (%) of each run per perturbation, then the micro and macro averages.",
                tuple(columns),
                tuple(Row(None, str(row[0]), tuple(row[1:]), kind="perturbation") for row in rows),
            )
        )
    return tables


def _validation_tables(sources: Sequence[ReportSource], labels: dict[str, str]) -> list[Table]:
    """A table per evaluation of a validated test set and evaluation of the test set it was
    validated from, of the same victim, among ``sources``."""
    tables = []
    for validated in sources:
        if validated.validated is None or validated.robustness is None:
            continue
        origin = validated.validated.source.resolve()
        for unvalidated in sources:
            if (
                unvalidated.robustness is not None
                and unvalidated.test_set_dir is not None
                and unvalidated.test_set_dir.resolve() == origin
                and unvalidated.victim == validated.victim
            ):
                tables.append(_validation_table(unvalidated, validated, labels))
    return tables


def _validation_table(unvalidated: ReportSource, validated: ReportSource, labels: dict[str, str]) -> Table:
    """Per perturbation, then pooled: the rewrites of each test set, the validation's acceptance,
    and each run's perturbation and robust accuracy with the validated minus the unvalidated."""
    assert unvalidated.robustness is not None and validated.robustness is not None and validated.validated is not None
    before, after, validation = unvalidated.robustness, validated.robustness, validated.validated.validation
    columns = [
        Column("utterances", "rewrites, unvalidated", unvalidated.id),
        Column("utterances", "rewrites, validated", validated.id),
        Column("judged", "judged"),
        Column("kept", "kept"),
        Column("acceptance", "acceptance (%)"),
    ]
    for metric in VALIDATION_METRICS:
        columns += [
            Column(metric, f"{HEADINGS[metric]}, unvalidated", unvalidated.id),
            Column(metric, f"{HEADINGS[metric]}, validated", validated.id),
            Column(f"delta_{metric}", f"Δ {HEADINGS[metric]}", validated.id),
        ]
    names = dict.fromkeys([*before.perturbations, *after.perturbations])
    rows = [
        _validation_row(
            name, before.perturbations.get(name), after.perturbations.get(name), validation.perturbations.get(name)
        )
        for name in names
    ]
    rows.append(_validation_row(MICRO, before.micro, after.micro, validation.overall))
    return Table(
        f"validation-{unvalidated.id}-{validated.id}",
        f"Unvalidated and validated: {labels[validated.id]}",
        f"{labels[unvalidated.id]} and {labels[validated.id]} per perturbation: the rewrites each test set holds; "
        "the items people judged, those kept and the share kept (acceptance, %); perturbation and robust accuracy "
        "(%) on each test set and the validated minus the unvalidated (Δ, percentage points); micro: every "
        f"rewrite pooled, every item judged. {validation_summary(validated.validated)}",
        tuple(columns),
        tuple(rows),
        summary=True,
    )


def _validation_row(
    label: str, before: RobustnessMetrics | None, after: RobustnessMetrics | None, acceptance: Acceptance | None
) -> Row:
    """A row of :func:`_validation_table`; a perturbation the validation kept no rewrite of has
    none in the validated test set, one it did not judge has no acceptance."""
    rates = [{} if metrics is None else metrics.rates() for metrics in (before, after)]
    values: list[Any] = [0 if metrics is None else metrics.utterances for metrics in (before, after)]
    values += [None] * 3 if acceptance is None else [acceptance.judged, acceptance.kept, acceptance.acceptance]
    for metric in VALIDATION_METRICS:
        unvalidated, validated = rates[0].get(metric), rates[1].get(metric)
        values += [unvalidated, validated, _difference(validated, unvalidated)]
    return Row(None, label, tuple(values), kind="perturbation")


def validation_summary(copy: ValidatedCopy) -> str:
    """What the validation of a validated test set was, in a sentence: its source, rule,
    annotators, acceptance and agreement."""
    validation = copy.validation
    kappa = "n/a" if validation.fleiss_kappa is None else f"{validation.fleiss_kappa:.3f}"
    together = (
        f" The export held {len(validation.sources)} sources; the acceptance is over all of them."
        if len(validation.sources) > 1
        else ""
    )
    return (
        f"Validated from {copy.source} by {validation.rule}: {validation.rule_description}; annotators: "
        f"{', '.join(validation.annotators)}; {validation.overall.kept} of {validation.overall.judged} judged items kept "
        f"({format_value(validation.overall.acceptance)} %); Fleiss' kappa {kappa}.{together}"
    )


def _robut_table(source_id: str, report: RobustnessReport, label: str) -> Table:
    columns = [Column("perturbed_examples", ROBUT_TABLE_COLUMNS[1])]
    columns += [Column(metric, heading) for metric, heading in zip(ROBUT_RATES, ROBUT_TABLE_COLUMNS[2:])]
    return Table(
        f"robut-{source_id}",
        f"RobuT's table: {label}",
        "Pre-attack and post-attack accuracy on the perturbed examples and robust accuracy (correct perturbed "
        "examples among those whose original is correct), in % (Zhao et al. 2023).",
        tuple(columns),
        tuple(Row(source_id, str(row[0]), tuple(row[1:]), kind="perturbation") for row in report.robut_rows()),
    )


def _judge_table(source_id: str, report: RobustnessReport, label: str) -> Table:
    """Per perturbation of a judged test set: coverage, the candidate rewrites the meaning judge
    saw, the share it kept, and one rejection with the judge's reason."""
    from textattack_semparse.judges.judgement import JudgeTally

    test_set = report.test_set
    coverage = test_set.get("coverage") or {}
    rows = []
    for name, record in (test_set.get("judged") or {}).items():
        tally = JudgeTally.from_json(record, f"{label}: judged of {name!r}")
        acceptance = None if tally.acceptance is None else 100 * tally.acceptance
        share = coverage.get(name)
        example = "" if not tally.examples else "{!r} → {!r}: {}".format(*tally.examples[0])
        rows.append(
            Row(
                source_id,
                name,
                (None if share is None else 100 * share, tally.judged, tally.rejected, acceptance, example),
                kind="perturbation",
            )
        )
    return Table(
        f"judge-{source_id}",
        f"Meaning judge {test_set['judge']!r}: {label}",
        "Coverage (% of the originals with a rewrite), the distinct candidate rewrites the judge saw, those it "
        "rejected as asking another question, the share it kept (%), and a rejection with its reason. The judge "
        "is this package's automatic filter on every perturbation; the papers had people check some rewrites "
        "(Huang et al. 2021: two of three crowd workers, for substitution (nf), back translation and reordering "
        "only; Zhuo et al. 2023: experts); `textattack-semparse validate` has people check them.",
        (
            Column("coverage", "coverage (%)"),
            Column("judged", "candidates"),
            Column("rejected", "rejected"),
            Column("kept", "kept (%)"),
            Column("example", "e.g. rejected"),
        ),
        tuple(rows),
    )


def _error_type_table(source_id: str, grammar: Mapping[str, Any], label: str) -> Table:
    return Table(
        f"error-types-{source_id}",
        f"Errors in successful attacks: {label}",
        "The grammatical errors of each type in the successful attacks, their share of all those errors, and the "
        "attacks that used the type (Yin et al. 2020, Table 4).",
        (Column("errors", "errors"), Column("errors_percent", "share (%)"), Column("successes", "attacks")),
        tuple(
            Row(source_id, name, (row["errors"], row["errors_percent"], row["successes"]), kind="error type")
            for name, row in grammar["error_types"].items()
        ),
    )


def _icl_table(source_id: str, study: ICLStudy, label: str) -> Table:
    metrics = ("standard_accuracy", "perturbation_accuracy", "robust_accuracy", "black_box_success_rate")
    return Table(
        f"icl-{source_id}",
        f"In-context learning: {label}",
        "Each cell of shots × selection × adversarial demonstrations on each test perturbation: standard, "
        "perturbation and robust accuracy and success rate of black-box attack, in % (Zhuo et al. 2023, §4.2-4.3).",
        (Column("perturbation", "test perturbation"), *(Column(m, HEADINGS[m]) for m in metrics)),
        tuple(
            Row(source_id, row["cell"], (row["perturbation"], *(row[m] for m in metrics)), kind="cell")
            for row in study.rows()
        ),
    )


def _plots(sources: Sequence[ReportSource], labels: dict[str, str]) -> list[Plot]:
    plots = []
    runs = {labels[s.id]: s.robustness for s in sources if s.kind == ROBUSTNESS and s.robustness is not None}
    if runs:
        plots.append(
            Plot(
                "plot-accuracy-by-perturbation",
                "Accuracy by perturbation",
                "Perturbation accuracy (top) and robust accuracy (bottom) per perturbation, one bar per run; "
                "dashed lines: each run's standard accuracy.",
                svg_data_uri(accuracy_by_perturbation_figure(runs)),
            )
        )
    grammar = {labels[s.id]: s.grammar for s in sources if s.kind == GRAMMAR_ATTACK and s.grammar is not None}
    if grammar:
        curves = {label: summary["success_vs_budget"] for label, summary in grammar.items()}
        plots.append(
            Plot(
                "plot-robust-accuracy-vs-errors",
                "Robust accuracy against the errors allowed",
                "Robust accuracy when at most k grammatical errors may be introduced per question (100 minus the "
                "attack success rate of Yin et al. 2020, Figure 1).",
                svg_data_uri(success_vs_budget_figure(curves, robust_accuracy=True)),
            )
        )
        plots.append(
            Plot(
                "plot-error-types",
                "Harm by error type",
                "Share of each error type among the errors of successful attacks (Yin et al. 2020, Table 4).",
                svg_data_uri(error_type_figure(grammar)),
            )
        )
    for source in sources:
        if source.kind == ICL and source.icl is not None:
            plots.append(
                Plot(
                    f"plot-icl-{source.id}",
                    f"Accuracy against shots and selection: {labels[source.id]}",
                    "Standard accuracy (top) and robust accuracy pooled over the test perturbations (bottom) against "
                    "the number of demonstrations, one line per selection strategy (Zhuo et al. 2023).",
                    svg_data_uri(icl_study_figure(source.icl)),
                )
            )
    return plots
