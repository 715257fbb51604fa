"""``textattack-semparse icl``: the in-context-learning study of Zhuo et al. (2023) for an LLM
victim, shots x few-shot selection x adversarial demonstrations (§4.2-4.3), as JSON, CSV and a
plot (:mod:`textattack_semparse.experiments.icl`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from textattack_semparse.commands.arguments import (
    examples_parent,
    non_negative_int,
    positive_int,
    run_context,
    run_parent,
    scoring_parent,
    seed_parent,
)
from textattack_semparse.experiments.icl import CSV_FILE, JSON_FILE, PLOT_FILE
from textattack_semparse.project import docs_url
from textattack_semparse.robustness.selection_settings import (
    DEFAULT_SETTING,
    SELECTION_SETTINGS,
)

if TYPE_CHECKING:
    from textattack_semparse.llm.icl_results import ICLStudy

METRIC_COLUMNS = ("cell", "test", "std.", "pert.", "robust", "SR")
DEMONSTRATION_COLUMNS = ("cell", "demos", "TTR", "Yule's I", "MTLD", "hits", "misses")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "icl",
        epilog=f"Documentation: {docs_url('icl.md')}",
        help="the in-context-learning study of Zhuo et al. (2023): shots x selection x adversarial demonstrations",
        description="For an in-context LLM victim, evaluate every cell of shots x few-shot selection x adversarial "
        "demonstrations (Zhuo et al. 2023, §4.2-4.3) on one meaning-preserving test set: standard, perturbation and "
        "robust accuracy per test perturbation, with the lexical diversity (TTR, Yule's I, MTLD) of each cell's "
        f"demonstrations. Writes {JSON_FILE}, {CSV_FILE} and {PLOT_FILE} to --output-dir. Each finished cell is "
        "appended to cells.jsonl there at once: a re-run on the same directory (or --resume) reads the finished "
        "cells and runs the rest; --backend ray spreads the cells over workers that each load the model once.",
        parents=[seed_parent(), examples_parent(), scoring_parent(), run_parent()],
    )
    parser.add_argument(
        "--model",
        required=True,
        help="in-context LLM victim: hf-causal:PATH (a local causal LM directory or .gguf file) or openai:MODEL@URL, "
        "with its own options (e.g. ?max_new_tokens=64) but not shots, selection, adversarial or seed",
    )
    parser.add_argument(
        "--dataset", required=True, help="registered dataset, e.g. geo-question-test or geo-mini-question-test"
    )
    parser.add_argument(
        "--shots",
        nargs="+",
        type=non_negative_int,
        default=[0, 5],
        metavar="K",
        help="demonstrations per prompt (default: 0 5)",
    )
    parser.add_argument(
        "--selection",
        nargs="+",
        default=["random"],
        metavar="NAME",
        help="few-shot selectors: random, confidence (hf-causal only), cluster-ed, cluster-tfidf, cluster-cwe, "
        "ppl-asc (highest GPT-2 perplexity), ppl-desc (lowest); name another scorer in --model with ?ppl_model=victim "
        "or ?ppl_model=PATH (default: random)",
    )
    parser.add_argument(
        "--adversarial",
        nargs="+",
        default=["none"],
        metavar="NAME",
        help="'none' (plain demonstrations) or a registered perturbation that adds a perturbed copy of each "
        "demonstration (default: none)",
    )
    parser.add_argument(
        "--perturbations",
        nargs="+",
        metavar="NAME",
        help="test perturbations (default: the --adversarial perturbations, or typo when there are none)",
    )
    parser.add_argument(
        "--setting",
        choices=tuple(SELECTION_SETTINGS),
        default=DEFAULT_SETTING,
        help=f"how perturbed utterances are selected, as `robustness build` (default: {DEFAULT_SETTING})",
    )
    parser.add_argument(
        "--output-dir", required=True, help=f"study directory: {JSON_FILE}, {CSV_FILE}, {PLOT_FILE}, cells.jsonl, test_set/"
    )
    parser.add_argument("--batch-size", type=positive_int, help="inputs per victim call (default 64)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_written
    from textattack_semparse.experiments.icl import ICLConfig
    from textattack_semparse.experiments.icl import run as run_icl

    config = ICLConfig(
        model=args.model,
        dataset=args.dataset,
        output_dir=args.output_dir,
        shots=tuple(args.shots),
        selections=tuple(args.selection),
        adversarial=tuple(args.adversarial),
        perturbations=None if args.perturbations is None else tuple(args.perturbations),
        setting=args.setting,
        seed=args.seed,
        num_examples=args.num_examples,
        execution_mode=args.execution_mode,
        timeout=args.timeout,
        gold_timeout=args.gold_timeout,
        batch_size=args.batch_size,
    )
    outcome = run_icl(config, run_context(args))
    print_tables(outcome.study)
    print_written(*outcome.paths)
    return 0


def print_tables(study: ICLStudy) -> None:
    """The study on standard output: the metrics per cell and test perturbation, then each cell's
    demonstrations (count, lexical diversity) and response-cache lookups."""
    from textattack_semparse.commands.output import print_table

    print_table(
        f"{study.model_label} on {study.dataset}: standard (std.), perturbation (pert.) and robust accuracy and success rate "
        "of black-box attack (SR) per cell and test perturbation, in %",
        METRIC_COLUMNS,
        (
            (result.cell.label, name, *metrics.rates().values())
            for result in study.cells
            for name, metrics in result.report.perturbations.items()
        ),
    )
    print_table(
        "Demonstrations per cell, the lexical diversity of their questions, and the response-cache hits and misses "
        "of the cell's run",
        DEMONSTRATION_COLUMNS,
        (
            (
                result.cell.label,
                len(result.demonstrations),
                *(getattr(result.diversity, name, None) for name in ("ttr", "yules_i", "mtld")),
                result.cache.hits,
                result.cache.misses,
            )
            for result in study.cells
        ),
    )
