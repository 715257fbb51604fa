"""``textattack-semparse robustness``: meaning-preserving test sets and the papers' robustness metrics.

``build`` writes a test set (one JSONL file per perturbation; Table QA tables as CSV files),
``evaluate`` runs a victim on it (RobuT's table too for Table QA) or, with ``--dataset``, on a
released robustness benchmark (RobuT, Dr.Spider, Huang et al.'s sets; its paper's table), ``run`` does both
(:mod:`textattack_semparse.experiments.robustness`); ``table`` puts several results side by
side and ``compare`` sets defences against a baseline with their differences.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from textattack_semparse.commands.arguments import (
    comma_list,
    count_or_all,
    examples_parent,
    judge_names,
    judge_parent,
    positive_int,
    run_context,
    run_parent,
    scoring_parent,
    seed_parent,
)
from textattack_semparse.commands.hf_output import check_hf_output, hf_parent, write_hf_output
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.project import docs_url
from textattack_semparse.robustness.robustness_metrics import RATES
from textattack_semparse.robustness.selection_settings import (
    DEFAULT_SETTING,
    SELECTION_SETTINGS,
)

if TYPE_CHECKING:
    from textattack_semparse.experiments.robustness import (
        BuildResult,
        BuildSettings,
        EvaluateSettings,
        EvaluationResult,
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "robustness",
        epilog=f"Documentation: {docs_url('robustness.md')}",
        help="build meaning-preserving test sets and report the papers' robustness metrics",
        description="Robustness evaluation as in Huang et al. (2021) and Zhuo et al. (2023): build a "
        "meaning-preserving test set, then report standard, perturbation and robust accuracy and the "
        "success rate of black-box attack per perturbation. On Table QA datasets (wtq-dev) the perturbed tables "
        "are written as CSV beside the questions and RobuT's pre-attack, post-attack and robust accuracy "
        "(Zhao et al. 2023) are printed too, with the examples each perturbation left out and why.",
    )
    commands = parser.add_subparsers(dest="robustness_command", required=True)

    build = commands.add_parser(
        "build",
        help="perturb a dataset split into a test set (one JSONL per perturbation)",
        parents=[build_parent(), run_parent(), hf_parent()],
    )
    build.add_argument("--dataset", required=True, help="registered dataset, e.g. geo-question-test")
    build.add_argument(
        "--output-dir",
        required=True,
        help="directory for manifest.json, the JSONL files and the journal of finished examples",
    )
    build.set_defaults(func=run_build)

    evaluate = commands.add_parser(
        "evaluate",
        help="run a victim on a test set and report the four metrics",
        parents=[evaluate_parent(), run_parent()],
    )
    source = evaluate.add_mutually_exclusive_group(required=True)
    source.add_argument("--input-dir", help="a directory written by `robustness build`")
    source.add_argument(
        "--dataset",
        help="a released robustness benchmark (e.g. robut-wtq): its originals and rewrites are written as a test set "
        "once per release (under the cache) and its paper's table is printed",
    )
    evaluate.add_argument(
        "--robut-dir",
        metavar="DIR",
        help="with --dataset robut-*: the folder of RobuT's files ('<split>.parquet', .json or .jsonl; default "
        "SEMPARSE_DATA_DIR/robut, else the hub's yilunzhao/robut)",
    )
    evaluate.add_argument(
        "--drspider-dir",
        metavar="DIR",
        help="with --dataset drspider-*: the Dr.Spider release (its data/ folder, or the folder holding it); default "
        "$SEMPARSE_DRSPIDER_DIR, else $SEMPARSE_DATA_DIR/drspider",
    )
    evaluate.add_argument(
        "--num-examples",
        type=positive_int,
        metavar="N",
        help="with --dataset: the first N originals of the release only, and their rewrites",
    )
    evaluate.add_argument(
        "--output-dir",
        help="directory for robustness.json, robustness.csv and the journal of finished inputs (default: "
        "<test set>/evaluations/<model>-<digest of the settings>, so the same command resumes there)",
    )
    evaluate.set_defaults(func=run_evaluate)

    table = commands.add_parser("table", help="one metric of several results: perturbations x (dataset / victim)")
    table.add_argument("results", nargs="+", help="JSON files written by `robustness evaluate --output-json`")
    table.add_argument("--metric", choices=RATES, default="robust_accuracy", help="default: robust_accuracy")
    table.add_argument("--output-csv", help="also write the table as CSV here")
    table.set_defaults(func=run_table)

    compare = commands.add_parser(
        "compare",
        help="a baseline and its defences: the four metrics per perturbation and each defence minus the baseline",
        description="Huang et al. (2021)'s four metrics, which they compute to judge a defence: standard, perturbation "
        "and robust accuracy and the success rate of black-box attack per perturbation for a baseline and its "
        "defences (e.g. meaning-preserving data augmentation, adversarial training), with each defence's "
        "difference to the baseline in percentage points.",
    )
    compare.add_argument(
        "baseline", metavar="BASELINE.json", help="the baseline's `robustness evaluate --output-json` file"
    )
    compare.add_argument("defences", metavar="DEFENCE.json", nargs="+", help="the defences' result files")
    compare.add_argument(
        "--names",
        type=comma_list,
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

    run = commands.add_parser(
        "run",
        help="build a test set and evaluate a victim on it",
        parents=[build_parent(), evaluate_parent(), run_parent(), hf_parent()],
    )
    run.add_argument("--dataset", help="registered dataset (default: the victim's own)")
    run.add_argument(
        "--output-dir", required=True, help="test set goes here, robustness.json/.csv by default, and the journals"
    )
    run.set_defaults(func=run_build_and_evaluate)


def build_parent() -> argparse.ArgumentParser:
    """The options that decide how a test set is made."""
    parser = argparse.ArgumentParser(add_help=False, parents=[seed_parent(), examples_parent(), judge_parent()])
    parser.add_argument(
        "--perturbations",
        nargs="+",
        metavar="NAME",
        help="registered perturbations (default: every registered perturbation; those whose model or "
        "resource is unavailable are skipped with the reason)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="print why each skipped perturbation was skipped (default: one line)"
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
        type=count_or_all,
        help="candidates sampled per example (N or 'all'); with --keep, the selection of every perturbation, "
        "overriding the setting's",
    )
    parser.add_argument(
        "--keep",
        type=count_or_all,
        help="most similar candidates kept (K or 'all'); with --candidates, overrides the setting's selection",
    )
    return parser


def evaluate_parent() -> argparse.ArgumentParser:
    """The options that decide how a victim is run and judged on a test set."""
    from textattack_semparse.experiments.robustness import BATCH_SIZE

    parser = argparse.ArgumentParser(add_help=False, parents=[scoring_parent()])
    parser.add_argument("--model", required=True, help="registered victim name or local seq2seq directory")
    parser.add_argument("--output-json", help="write the report as JSON here")
    parser.add_argument("--output-csv", help="write the per-perturbation rows as CSV here")
    parser.add_argument(
        "--batch-size", type=positive_int, default=BATCH_SIZE, help=f"inputs per victim call (default {BATCH_SIZE})"
    )
    return parser


def build_settings(args: argparse.Namespace) -> BuildSettings:
    from textattack_semparse.experiments.robustness import BuildSettings

    return BuildSettings(
        perturbations=None if args.perturbations is None else tuple(args.perturbations),
        setting=args.setting,
        candidates=args.candidates,
        keep=args.keep,
        seed=args.seed,
        num_examples=args.num_examples,
        judges=judge_names(args),
    )


def evaluate_settings(args: argparse.Namespace) -> EvaluateSettings:
    from textattack_semparse.experiments.robustness import EvaluateSettings

    return EvaluateSettings(
        model=args.model,
        batch_size=args.batch_size,
        timeout=args.timeout,
        execution_mode=args.execution_mode,
        gold_timeout=args.gold_timeout,
        output_json=args.output_json,
        output_csv=args.output_csv,
    )


def run_build(args: argparse.Namespace) -> int:
    from textattack_semparse.experiments.robustness import BuildConfig, build

    settings = build_settings(args)
    check_hf_output(args)
    built = build(BuildConfig(args.dataset, args.output_dir, settings), run_context(args))
    print_test_set(built, settings, verbose=args.verbose)
    print(f"Journal of finished examples: {built.journal}")
    write_test_set_hf_output(args, built)
    return 0


def run_evaluate(args: argparse.Namespace) -> int:
    from textattack_semparse.experiments.robustness import (
        EvaluateConfig,
        ReleasedEvaluateConfig,
        evaluate,
        evaluate_released,
    )

    if args.robut_dir is not None:
        use_robut_dir(args.robut_dir)
    if args.drspider_dir is not None:
        from textattack_semparse.datasets.drspider import use_drspider_dir

        use_drspider_dir(args.drspider_dir)
    if args.dataset is not None:
        config = ReleasedEvaluateConfig(args.dataset, evaluate_settings(args), args.output_dir, args.num_examples)
        result = evaluate_released(config, run_context(args))
    elif args.num_examples is not None:
        raise ConfigurationError(
            "--num-examples selects originals of a released benchmark (--dataset); a test set in --input-dir is "
            "evaluated whole (build a smaller one with `robustness build --num-examples N`)."
        )
    else:
        result = evaluate(EvaluateConfig(args.input_dir, evaluate_settings(args), args.output_dir), run_context(args))
    print_evaluation(result)
    return 0


def use_robut_dir(folder: str) -> None:
    """Read RobuT from ``folder`` in this process (``SEMPARSE_ROBUT_DIR``), forgetting benchmarks
    loaded from elsewhere."""
    from pathlib import Path

    from textattack_semparse.datasets.benchmark import clear_benchmark_cache
    from textattack_semparse.datasets.robut import ROBUT_DIR_ENV

    if not Path(folder).is_dir():
        raise ConfigurationError(
            f"--robut-dir {folder!r} is not a folder; point it at the folder holding RobuT's '<split>.parquet' "
            "(or .json/.jsonl) files."
        )
    os.environ[ROBUT_DIR_ENV] = folder
    clear_benchmark_cache()


def run_build_and_evaluate(args: argparse.Namespace) -> int:
    from textattack_semparse.experiments.robustness import RunConfig, build_and_evaluate

    settings = build_settings(args)
    check_hf_output(args)
    config = RunConfig(args.output_dir, evaluate_settings(args), settings, args.dataset)
    result = build_and_evaluate(config, run_context(args))
    print_test_set(result.build, settings, left_out=False, verbose=args.verbose)  # the evaluation's table gives them
    print_evaluation(result.evaluation)
    write_test_set_hf_output(args, result.build)
    return 0


def write_test_set_hf_output(args: argparse.Namespace, built: BuildResult) -> None:
    """The built test set as ``--hf-dir``/``--push-to-hub`` ask, its card saying how it was built."""
    test_set = built.test_set
    write_hf_output(
        args,
        built.directory,
        title=f"Robustness test set of {test_set.dataset}",
        source=f"registered dataset {test_set.dataset}",
        settings={
            "perturbations": ", ".join(test_set.perturbations),
            "selection setting": test_set.setting,
            "seed": test_set.seed,
            "meaning judge": test_set.judge or "none",
        },
        tags=("robustness", "semantic-parsing"),
    )


def print_test_set(built: BuildResult, settings: BuildSettings, *, left_out: bool = True, verbose: bool = False) -> None:
    """What was built: the skipped perturbations (one line; each with its reason when ``verbose``),
    the selection and counts per perturbation, and (with ``left_out``) why examples got no utterance."""
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.robustness.robustness_test_set import skipped_summary
    from textattack_semparse.robustness.selection_settings import describe_selection

    test_set = built.test_set
    if verbose:
        for name, reason in test_set.skipped.items():
            print(f"Skipped perturbation {name!r}: {reason}")
    elif test_set.skipped:
        print(f"{skipped_summary(test_set.skipped)} --verbose gives each reason.")
    manifest = test_set.manifest()
    judged = ("judge kept",) if test_set.judge is not None else ()
    print_table(
        f"Robustness test set of {test_set.dataset} ({manifest['examples']} examples; setting {settings.setting}, "
        f"seed {settings.seed}; meaning judge: {test_set.judge or 'none'})",
        ("perturbation", "selection", "utterances", "examples", "coverage", "examples without candidates", *judged),
        (
            (
                name,
                describe_selection(*test_set.selection_of(name)),
                counts["utterances"],
                counts["examples"],
                f"{counts['examples'] / max(manifest['examples'], 1):.0%}",
                len(manifest["no_candidates"][name]),
                *((test_set.judged[name].describe(),) if judged else ()),
            )
            for name, counts in manifest["counts"].items()
        ),
    )
    for name, rejected in test_set.judged.items():
        if rejected.examples:
            original, rewrite, reason = rejected.examples[0]
            print(f"Rejected from {name}, e.g. {original!r} -> {rewrite!r}: {reason} (more in manifest.json, 'judged')")
    for name, counts in test_set.left_out.items() if left_out else ():
        if counts:
            reasons = "; ".join(f"{count} {reason}" for reason, count in counts.items())
            print(f"Left out by {name} ({sum(counts.values())} examples): {reasons}")
    tables = " and tables/ (CSV)" if any(example.table is not None for example in test_set.originals) else ""
    print(
        f"Wrote {built.directory} ({len(test_set.perturbations)} perturbation files, originals.jsonl, manifest.json"
        f"{tables})"
    )


def print_evaluation(result: EvaluationResult) -> None:
    """The four metrics per perturbation (and RobuT's table for Table QA), or a released benchmark's own
    table, then scoring and exclusions."""
    from textattack_semparse.commands.output import print_table, print_written
    from textattack_semparse.robustness.leaderboards import huang_2021_table, leaderboard_table
    from textattack_semparse.robustness.robustness_report import ROBUT_TABLE_COLUMNS

    report, test_set = result.report, result.test_set
    if result.leaderboard is not None:
        table = leaderboard_table(result.leaderboard, report)
        print_table(table.title, table.columns, table.rows)
        for name, counts in test_set.left_out.items():
            reasons = "; ".join(f"{count} {reason}" for reason, count in counts.items())
            print(f"Left out of {name}: {reasons}")
        print(f"Test set: {result.test_set_dir}")
    else:
        huang = huang_2021_table(report)
        print_table(huang.title, huang.columns, huang.rows)
    if result.leaderboard is None and any(example.table is not None for example in test_set.originals):
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
    print_written(result.output_json, result.output_csv)
    print(f"Journal of finished inputs: {result.journal}")


def run_table(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, print_written
    from textattack_semparse.robustness.combined_table import (
        combined_table,
        write_combined_table_csv,
    )
    from textattack_semparse.robustness.robustness_report import RobustnessReport

    columns, rows = combined_table([RobustnessReport.read(path) for path in args.results], args.metric)
    print_table(args.metric.replace("_", " "), columns, rows)
    if args.output_csv is not None:
        write_combined_table_csv(args.output_csv, columns, rows)
        print_written(args.output_csv)
    return 0


def run_compare(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import (
        print_table,
        print_written,
        write_json,
    )
    from textattack_semparse.robustness.comparison import (
        METRIC_TITLES,
        compare_reports,
        plot_comparison,
        read_results,
    )

    paths = [args.baseline, *args.defences]
    comparison = compare_reports(
        read_results(paths), names=args.names, sources=paths, allow_different_datasets=args.allow_different_datasets
    )
    for warning in comparison.warnings():
        print(f"Warning: {warning}", file=sys.stderr)
    for metric in RATES:
        columns, rows = comparison.table(metric)
        print_table(f"{METRIC_TITLES[metric]} (differences: defence - {comparison.baseline}, in points)", columns, rows)
    write_json(args.output_json, comparison.to_json())
    if args.output_csv is not None:
        comparison.write_csv(args.output_csv)
        print_written(args.output_csv)
    if args.plot is not None:
        plot_comparison(comparison, args.plot)
        print_written(args.plot)
    return 0
