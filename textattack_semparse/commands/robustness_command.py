"""``textattack-semparse robustness``: meaning-preserving test sets and the papers' robustness metrics.

``build`` writes a test set (one JSONL file per perturbation; Table QA tables as CSV files),
``evaluate`` runs a victim on it (RobuT's table too for Table QA), ``table`` puts several
results side by side, ``compare`` sets defences against a baseline with their differences,
``run`` builds and evaluates in one go.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from textattack_semparse.commands.output import add_scoring_arguments, positive_int, positive_seconds
from textattack_semparse.commands.run_options import add_run_arguments
from textattack_semparse.robustness.robustness_metrics import RATES
from textattack_semparse.robustness.selection_settings import DEFAULT_SETTING, SELECTION_SETTINGS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "robustness",
        help="build meaning-preserving test sets and report the papers' robustness metrics",
        description="Robustness evaluation as in Huang et al. (2021) and Zhuo et al. (2023): build a "
        "meaning-preserving test set, then report standard, perturbation and robust accuracy and the "
        "success rate of black-box attack per perturbation. On Table QA datasets (wtq-dev) the perturbed tables "
        "are written as CSV beside the questions and RobuT's pre-attack, post-attack and robust accuracy "
        "(Zhao et al. 2023) are printed too, with the examples each perturbation left out and why.",
    )
    commands = parser.add_subparsers(dest="robustness_command", required=True)

    build = commands.add_parser("build", help="perturb a dataset split into a test set (one JSONL per perturbation)")
    build.add_argument("--dataset", required=True, help="registered dataset, e.g. geo-question-test")
    _add_build_options(build)
    build.add_argument(
        "--output-dir", required=True, help="directory for manifest.json, the JSONL files and the journal of finished examples"
    )
    add_run_arguments(build)
    build.set_defaults(func=run_build)

    evaluate = commands.add_parser("evaluate", help="run a victim on a test set and report the four metrics")
    evaluate.add_argument("--model", required=True, help="registered victim name or local seq2seq directory")
    evaluate.add_argument("--input-dir", required=True, help="a directory written by `robustness build`")
    evaluate.add_argument(
        "--output-dir",
        help="directory for robustness.json, robustness.csv and the journal of finished inputs (default: "
        "INPUT_DIR/evaluations/<model>-<digest of the settings>, so the same command resumes there)",
    )
    _add_evaluate_options(evaluate)
    add_run_arguments(evaluate)
    evaluate.set_defaults(func=run_evaluate)

    table = commands.add_parser("table", help="one metric of several results: perturbations x (dataset / victim)")
    table.add_argument("results", nargs="+", help="JSON files written by `robustness evaluate --output-json`")
    table.add_argument("--metric", choices=RATES, default="robust_accuracy", help="default: robust_accuracy")
    table.add_argument("--output-csv", help="also write the table as CSV here")
    table.set_defaults(func=run_table)

    compare = commands.add_parser(
        "compare",
        help="a baseline and its defences: the four metrics per perturbation and each defence minus the baseline",
        description="The tables of Huang et al. (2021): standard, perturbation and robust accuracy and the success "
        "rate of black-box attack per perturbation for a baseline and its defences (e.g. meaning-preserving data "
        "augmentation, adversarial training), with each defence's difference to the baseline in percentage points.",
    )
    compare.add_argument("baseline", metavar="BASELINE.json", help="the baseline's `robustness evaluate --output-json` file")
    compare.add_argument("defences", metavar="DEFENCE.json", nargs="+", help="the defences' result files")
    compare.add_argument(
        "--names",
        type=_comma_list,
        help="one name per result, baseline first, comma-separated, e.g. baseline,mda,adversarial "
        "(default: the victim names, or the file names when victims repeat)",
    )
    compare.add_argument("--output-json", help="write values and deltas as JSON here")
    compare.add_argument("--output-csv", help="write one row per perturbation, result and metric (value, delta) here")
    compare.add_argument("--plot", metavar="F.png", help="draw robust accuracy per perturbation as grouped bars (PNG)")
    compare.add_argument(
        "--allow-different-datasets", action="store_true", help="compare results on different datasets anyway"
    )
    compare.set_defaults(func=run_compare)

    run = commands.add_parser("run", help="build a test set and evaluate a victim on it")
    run.add_argument("--model", required=True, help="registered victim name or local seq2seq directory")
    run.add_argument("--dataset", help="registered dataset (default: the victim's own)")
    _add_build_options(run)
    run.add_argument(
        "--output-dir", required=True, help="test set goes here, robustness.json/.csv by default, and the journals"
    )
    _add_evaluate_options(run)
    add_run_arguments(run)
    run.set_defaults(func=run_build_and_evaluate)


def _count_or_all(value: str) -> int | str:
    return value if value == "all" else positive_int(value)


def _comma_list(value: str) -> list[str]:
    return value.split(",")


def _add_build_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--perturbations",
        nargs="+",
        metavar="NAME",
        help="registered perturbations (default: every registered perturbation; those whose model or "
        "resource is unavailable are skipped with the reason)",
    )
    parser.add_argument(
        "--setting",
        choices=tuple(SELECTION_SETTINGS),
        default=DEFAULT_SETTING,
        help="huang-2021 (default): one perturbed utterance per example and perturbation: a random one for the "
        "function-word operations, the most similar by Sentence-BERT of all candidates for substitution (nf), "
        "back translation and reordering; zhuo-2023: sample 20 candidates, keep the 10 most similar by Sentence-BERT",
    )
    parser.add_argument(
        "--candidates",
        type=_count_or_all,
        help="candidates sampled per example (N or 'all'); with --keep, the selection of every perturbation, "
        "overriding the setting's",
    )
    parser.add_argument(
        "--keep",
        type=_count_or_all,
        help="most similar candidates kept (K or 'all'); with --candidates, overrides the setting's selection",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the perturbations and the sampler (default 0)")
    parser.add_argument("--num-examples", type=positive_int, help="use the first N examples of the dataset only")


def _add_evaluate_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output-json", help="write the report as JSON here")
    parser.add_argument("--output-csv", help="write the per-perturbation rows as CSV here")
    parser.add_argument("--batch-size", type=positive_int, default=64, help="inputs per victim call (default 64)")
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        help="seconds each predicted SQL query may run (default: the benchmark's, 5)",
    )
    add_scoring_arguments(parser)


def _selection(args: argparse.Namespace) -> tuple[int | None, int | None] | None:
    """``None`` (the setting's selection per perturbation) unless --candidates or --keep is given;
    then that pair for every perturbation, the missing one taken from the setting's default."""
    if args.candidates is None and args.keep is None:
        return None
    preset = SELECTION_SETTINGS[args.setting]
    candidates, keep = (
        default if value is None else None if value == "all" else value
        for value, default in ((args.candidates, preset[0]), (args.keep, preset[1]))
    )
    if candidates is not None and keep is not None and keep > candidates:
        print(
            f"error: --keep {keep} exceeds --candidates {candidates} (setting {args.setting}); "
            "keep at most as many candidates as are sampled.",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return candidates, keep


def _build_configuration(args: argparse.Namespace, dataset: str) -> dict[str, Any]:
    """The settings that decide a test set (recorded in run.json; a change is refused on resume)."""
    return {
        "dataset": dataset,
        "perturbations": args.perturbations,
        "setting": args.setting,
        "candidates": args.candidates,
        "keep": args.keep,
        "seed": args.seed,
        "num_examples": args.num_examples,
    }


def _evaluate_configuration(args: argparse.Namespace) -> dict[str, Any]:
    """The settings that decide an evaluation's results (not where or how fast it runs)."""
    return {
        "model": args.model,
        "batch_size": args.batch_size,
        "timeout": args.timeout,
        "execution_mode": args.execution_mode,
        "gold_timeout": args.gold_timeout,
    }


def _run_directory(path: str | Path, command: str, configuration: dict[str, Any], resume: bool) -> Any:
    """The run directory; a usage error (exit 2) when it holds another run or nothing to resume."""
    from textattack_semparse.runs.run_directory import RunConfigurationChanged, RunDirectory

    try:
        run = RunDirectory(path, command, configuration, resume=resume)
    except (RunConfigurationChanged, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    if run.resumed:
        print(f"Resuming the run in {path} (finished items are not recomputed)")
    return run


def _check_victim_name(model: str) -> None:
    """Fail before any work when ``model`` names no victim (workers resolve it later, on their node)."""
    from textattack_semparse.registry import get_registry
    from textattack_semparse.victims.llm_victim_name import is_llm_victim_name

    registry = get_registry()
    if ("victim", model) not in registry and not is_llm_victim_name(model) and not Path(model).is_dir():
        registry.get("victim", model)  # raises RegistryError naming the closest victims


def _build(
    args: argparse.Namespace, dataset: str, run: Any, backend: Any, *, print_left_out: bool = True
) -> Any:
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.commands.run_options import progress_enabled
    from textattack_semparse.robustness.build_test_set import build_test_set
    from textattack_semparse.robustness.selection_settings import describe_selection
    from textattack_semparse.runs.progress import progress_bar

    with progress_bar(None, f"perturbing {dataset}", enabled=progress_enabled(args)) as bar:
        test_set = build_test_set(
            dataset,
            args.perturbations,
            setting=args.setting,
            selection=_selection(args),
            seed=args.seed,
            limit=args.num_examples,
            backend=backend,
            journal=run.journal("build"),
            progress=bar,
        )
    for name, reason in test_set.skipped.items():
        print(f"Skipped perturbation {name!r}: {reason}")
    manifest = test_set.manifest()
    print_table(
        f"Robustness test set of {dataset} ({manifest['examples']} examples; setting {args.setting}, seed {args.seed})",
        ("perturbation", "selection", "utterances", "examples", "examples without candidates"),
        (
            (
                name,
                describe_selection(*test_set.selection_of(name)),
                counts["utterances"],
                counts["examples"],
                len(manifest["no_candidates"][name]),
            )
            for name, counts in manifest["counts"].items()
        ),
    )
    for name, counts in test_set.left_out.items() if print_left_out else ():
        if counts:
            reasons = "; ".join(f"{count} {reason}" for reason, count in counts.items())
            print(f"Left out by {name} ({sum(counts.values())} examples): {reasons}")
    test_set.write(args.output_dir)
    tables = " and tables/ (CSV)" if any(example.table is not None for example in test_set.originals) else ""
    print(
        f"Wrote {args.output_dir} ({len(test_set.perturbations)} perturbation files, originals.jsonl, manifest.json"
        f"{tables})"
    )
    return test_set


def _evaluate(
    args: argparse.Namespace,
    test_set: Any,
    run: Any,
    backend: Any,
    output_json: str | Path | None,
    output_csv: str | Path | None,
) -> int:
    import functools

    from textattack_semparse.commands.output import print_table
    from textattack_semparse.commands.run_options import progress_enabled
    from textattack_semparse.robustness.evaluate_test_set import EvaluationWorker, run_evaluation
    from textattack_semparse.robustness.robustness_report import ROBUT_TABLE_COLUMNS, TABLE_COLUMNS
    from textattack_semparse.runs.progress import progress_bar

    make_worker = functools.partial(
        EvaluationWorker.named,
        args.model,
        test_set.dataset,
        batch_size=args.batch_size,
        mode=args.execution_mode,
        timeout=args.timeout,
        gold_timeout=args.gold_timeout,
    )
    with progress_bar(None, f"evaluating {args.model}", enabled=progress_enabled(args)) as bar:
        report = run_evaluation(
            test_set,
            make_worker,
            victim_name=args.model,
            batch_size=args.batch_size,
            backend=backend,
            journal=run.journal("evaluate"),
            progress=bar,
        )
    judged = report.original_examples - report.original_gold_errors - report.original_victim_errors
    print_table(
        f"Robustness of {report.victim} on {report.dataset} (standard accuracy on {judged} originals: "
        f"{'n/a' if report.standard_accuracy is None else f'{report.standard_accuracy:.2f}'})",
        TABLE_COLUMNS,
        report.table_rows(),
    )
    if any(example.table is not None for example in test_set.originals):
        print_table(
            f"RobuT's table: {report.victim} on {report.dataset} (Zhao et al. 2023; robust acc. = correct perturbed "
            "examples among those whose original is correct)",
            ROBUT_TABLE_COLUMNS,
            report.robut_rows(),
        )
        for name, counts in test_set.left_out.items():
            reasons = "; ".join(f"{count} {reason}" for reason, count in counts.items()) or "none"
            print(f"Left out by {name}: {reasons}")
    print(f"Scoring: {report.scoring}")
    if report.original_gold_errors:
        print(f"{report.original_gold_errors} examples whose gold output cannot be evaluated are excluded.")
    if report.original_victim_errors:
        print(f"{report.original_victim_errors} examples the victim failed on are excluded.")
    for note in report.notes:
        print(f"Note: {note}")
    if output_json is not None:
        report.write_json(output_json)
        print(f"Wrote {output_json}")
    if output_csv is not None:
        report.write_csv(output_csv)
        print(f"Wrote {output_csv}")
    print(f"Journal of finished inputs: {run.journal('evaluate').path}")
    return 0


def run_build(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.run_options import backend_from_arguments

    run = _run_directory(args.output_dir, "robustness build", _build_configuration(args, args.dataset), args.resume)
    with backend_from_arguments(args) as backend:
        _build(args, args.dataset, run, backend)
    print(f"Journal of finished examples: {run.journal('build').path}")
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.run_options import backend_from_arguments
    from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet

    test_set = RobustnessTestSet.read(args.input_dir)
    _check_victim_name(args.model)
    configuration = {**_evaluate_configuration(args), "test_set": _test_set_digest(args.input_dir, test_set)}
    output_dir = Path(args.output_dir) if args.output_dir else _default_evaluation_dir(args.input_dir, configuration)
    run = _run_directory(output_dir, "robustness evaluate", configuration, args.resume)
    with backend_from_arguments(args) as backend:
        return _evaluate(
            args,
            test_set,
            run,
            backend,
            args.output_json or (output_dir / "robustness.json"),
            args.output_csv or (output_dir / "robustness.csv"),
        )


def run_build_and_evaluate(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.run_options import backend_from_arguments
    from textattack_semparse.victims.resolution import required_dataset, victim_dataset

    _check_victim_name(args.model)
    dataset = required_dataset(args.model, victim_dataset(args.model, args.dataset))
    configuration = {**_build_configuration(args, dataset), **_evaluate_configuration(args)}
    run = _run_directory(args.output_dir, "robustness run", configuration, args.resume)
    output = Path(args.output_dir)
    with backend_from_arguments(args) as backend:
        test_set = _build(args, dataset, run, backend, print_left_out=False)  # the closing note gives them
        return _evaluate(
            args,
            test_set,
            run,
            backend,
            args.output_json or (output / "robustness.json"),
            args.output_csv or (output / "robustness.csv"),
        )


def _test_set_digest(input_dir: str, test_set: Any) -> str:
    """SHA-256 of the test set's files (manifest, originals, perturbation files, tables), so that
    evaluating a rebuilt, different test set into the same directory is refused."""
    import hashlib

    from textattack_semparse.robustness.robustness_test_set import MANIFEST, ORIGINALS, TABLES

    folder = Path(input_dir)
    files = [folder / MANIFEST, folder / ORIGINALS, *(folder / f"{name}.jsonl" for name in test_set.perturbations)]
    files.extend(sorted(path for path in (folder / TABLES).rglob("*") if path.is_file()))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _default_evaluation_dir(input_dir: str, configuration: dict[str, Any]) -> Path:
    """``INPUT_DIR/evaluations/<model>-<digest>``: the same command lands in the same directory (and
    resumes there), other settings in another one."""
    import hashlib
    import json
    import re

    digest = hashlib.sha256(json.dumps(configuration, sort_keys=True).encode("utf-8")).hexdigest()[:10]
    model = re.sub(r"[^A-Za-z0-9._-]+", "_", str(configuration["model"])).strip("._")[-60:] or "model"
    return Path(input_dir) / "evaluations" / f"{model}-{digest}"


def run_table(args: argparse.Namespace) -> int:
    import csv

    from textattack_semparse.commands.output import print_table
    from textattack_semparse.robustness.combined_table import combined_table
    from textattack_semparse.robustness.robustness_report import RobustnessReport

    columns, rows = combined_table([RobustnessReport.read(path) for path in args.results], args.metric)
    print_table(args.metric.replace("_", " "), columns, rows)
    if args.output_csv is not None:
        with open(args.output_csv, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(columns)
            writer.writerows([["" if value is None else value for value in row] for row in rows])
        print(f"Wrote {args.output_csv}")
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, write_json
    from textattack_semparse.robustness.comparison import METRIC_TITLES, compare_reports, plot_comparison, read_results

    paths = [args.baseline, *args.defences]
    try:
        comparison = compare_reports(
            read_results(paths), names=args.names, sources=paths, allow_different_datasets=args.allow_different_datasets
        )
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for warning in comparison.warnings():
        print(f"Warning: {warning}", file=sys.stderr)
    for metric in RATES:
        columns, rows = comparison.table(metric)
        print_table(f"{METRIC_TITLES[metric]} (differences: defence - {comparison.baseline}, in points)", columns, rows)
    write_json(args.output_json, comparison.to_json())
    if args.output_csv is not None:
        comparison.write_csv(args.output_csv)
        print(f"Wrote {args.output_csv}")
    if args.plot is not None:
        plot_comparison(comparison, args.plot)
        print(f"Wrote {args.plot}")
    return 0
