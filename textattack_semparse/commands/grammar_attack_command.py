"""``textattack-semparse grammar-attack``: a grammatical-error attack reported as Yin et al. (2020)
report theirs (:mod:`textattack_semparse.experiments.grammar_attack`)."""

from __future__ import annotations

import argparse

from textattack_semparse.commands.arguments import (
    fraction,
    recipe_options,
    run_context,
    run_parent,
)
from textattack_semparse.commands.attack_command import attack_parent, attack_settings
from textattack_semparse.experiments import grammar_attack
from textattack_semparse.project import docs_url

_DESCRIPTION = f"""\
{grammar_attack.__doc__}
To see the curve beyond 15% of the words, pass a larger --max-modification-rate (the Table 3
figures then refer to that budget). Examples run on --backend serial or ray and are journaled in
examples.jsonl: after a kill, the same command (or --resume) attacks only the unfinished
questions (docs/grammatical_errors.md).
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "grammar-attack",
        epilog=f"Documentation: {docs_url('grammatical_errors.md')}",
        help="run a nucle-* grammatical-error attack; write success rate, error types and a success-vs-budget plot",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[attack_parent(recipe_default=grammar_attack.DEFAULT_RECIPE), run_parent()],
    )
    parser.add_argument(
        "--max-modification-rate",
        type=fraction,
        default=grammar_attack.MAX_MODIFICATION_RATE,
        help=f"errors allowed per word (default {grammar_attack.MAX_MODIFICATION_RATE}, the paper's)",
    )
    parser.add_argument("--error-model", help="error-model JSON from `fit-grammar-errors` (default: packaged)")
    parser.add_argument(
        "--task",
        choices=("mnli", "qnli", "mrpc", "sst2"),
        help="Yin et al.'s task, naming the attacked sentence of a pair: the second for mnli and qnli, the first "
        "for mrpc (default: read from the input columns, e.g. premise/hypothesis -> second)",
    )
    parser.add_argument("--output-dir", required=True, help="directory for the log, summary and plot")
    parser.set_defaults(func=run, num_examples=-1)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, print_written

    config = grammar_attack.GrammarAttackConfig(
        recipe=args.recipe,
        max_modification_rate=args.max_modification_rate,
        error_model=args.error_model,
        task=args.task,
        recipe_options=recipe_options(args.recipe_option),
        output_dir=args.output_dir,
        **attack_settings(args),
    )
    outcome = grammar_attack.run(config, run_context(args))
    summary = outcome.summary
    print_table(
        f"{args.recipe} on {args.model} ({summary['examples']} questions)",
        ("metric", "value"),
        [
            (name.replace("_", " "), summary[name])
            for name in (
                "succeeded",
                "failed",
                "skipped",
                "attack_success_rate",
                "modified_words_percent",
                "errors_per_success",
            )
        ],
    )
    print_table(
        "Errors in successful attacks",
        ("error type", "errors", "share (%)", "attacks"),
        [(name, row["errors"], row["errors_percent"], row["successes"]) for name, row in summary["error_types"].items()],
    )
    print_written(*outcome.paths)
    return 0
