"""``textattack-semparse evaluate``: standard accuracy of a victim, without attack
(:mod:`textattack_semparse.experiments.evaluate`)."""

from __future__ import annotations

import argparse

from textattack_semparse.commands.arguments import (
    examples_parent,
    non_negative_int,
    run_context,
    scoring_parent,
)
from textattack_semparse.project import docs_url

_REPORT_DETAILS = ("dataset", "scoring", "single_database", "response_cache")
"""Report fields printed apart from the table of figures."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        epilog=f"Documentation: {docs_url('victims.md')}",
        help="standard (execution/exact) accuracy of a victim",
        parents=[examples_parent(), scoring_parent(prediction_timeout=False)],
    )
    parser.add_argument(
        "--model",
        required=True,
        help="registered victim name, local seq2seq directory, or an in-context LLM victim (needs --dataset): "
        "hf-causal:PATH (a local causal LM directory or .gguf file) or openai:MODEL@URL (an OpenAI-compatible server)",
    )
    parser.add_argument("--dataset", help="registered dataset (default: the victim's own)")
    parser.add_argument("--shots", type=non_negative_int, help="LLM victims: demonstrations in the prompt (default 5)")
    parser.add_argument(
        "--selection",
        help="LLM victims: few-shot selector (random, confidence, cluster-ed, cluster-tfidf, cluster-cwe, "
        "ppl-asc = highest GPT-2 perplexity, ppl-desc = lowest; default random)",
    )
    parser.add_argument(
        "--test-suite-dir",
        help="folder of distilled test suites (one per benchmark, from 'test-suite build'); reports test-suite "
        "accuracy beside single-database accuracy (default: $SEMPARSE_TEST_SUITE_DIR)",
    )
    parser.add_argument("--output", help="write the report as JSON here")
    parser.add_argument(
        "--predictions",
        help="write each example's input, gold, prediction and outcome here, one JSON object a line",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, print_written
    from textattack_semparse.experiments.evaluate import EvaluateConfig
    from textattack_semparse.experiments.evaluate import run as evaluate

    config = EvaluateConfig(
        model=args.model,
        dataset=args.dataset,
        num_examples=args.num_examples,
        shots=args.shots,
        selection=args.selection,
        execution_mode=args.execution_mode,
        gold_timeout=args.gold_timeout,
        test_suite_dir=args.test_suite_dir,
        output=args.output,
        predictions=args.predictions,
    )
    report = evaluate(config, run_context(args))
    print_table(
        f"Standard accuracy of {args.model} on {report['dataset']}",
        ("metric", "value"),
        ((name.replace("_", " "), value) for name, value in report.items() if name not in _REPORT_DETAILS),
    )
    print(f"Scoring: {report['scoring']}")
    if "response_cache" in report:
        cache = report["response_cache"]
        print(f"Response cache: {cache['hits']} hits, {cache['misses']} misses ({cache['path']})")
    print_written(args.output, args.predictions)
    return 0
