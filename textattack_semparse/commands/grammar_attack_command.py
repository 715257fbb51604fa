"""``textattack-semparse grammar-attack``: run a grammatical-error attack and report as Yin et al. (2020)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

SUMMARY = "summary.json"
PLOT = "success_vs_budget.png"
LOG = "attack_log.csv"

_DESCRIPTION = f"""\
Run a grammatical-error attack (nucle-greedy, nucle-beam, nucle-genetic, nucle-probabilistic)
with TextAttack's Attacker and write, in --output-dir:

  {LOG}  TextAttack's CSV log;
  {SUMMARY}  attack success rate and mean % of modified words of successful attacks
      (Yin et al. 2020, Table 3), the errors of each type in successful attacks (Table 4), and
      the success rate when at most k errors are allowed, k = 1 .. the largest per-question budget
      (Figure 1);
  {PLOT}  that curve.

The Figure 1 curve is derived from the number of errors each successful attack used, not from
re-runs: the greedy and beam searches add one error per step and a smaller budget only stops
them earlier, so point k equals the success rate of a run allowing min(k, the question's budget)
errors. To see the curve beyond 15% of the words, pass a larger --max-modification-rate (the
Table 3 figures then refer to that budget). For nucle-genetic and nucle-probabilistic the curve
describes how many errors their successes used.

Examples run on --backend serial or ray and are journaled in examples.jsonl: after a kill, the
same command (or --resume) attacks only the unfinished questions (docs/grammatical_errors.md).
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    from textattack_semparse.commands.attack_command import add_attack_arguments
    from textattack_semparse.commands.run_options import add_run_arguments

    parser = subparsers.add_parser(
        "grammar-attack",
        help="run a nucle-* grammatical-error attack; write success rate, error types and a success-vs-budget plot",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_attack_arguments(parser, recipe_default="nucle-greedy", num_examples_default=-1)
    parser.add_argument(
        "--max-modification-rate", type=float, default=0.15, help="errors allowed per word (default 0.15, the paper's)"
    )
    parser.add_argument("--error-model", help="error-model JSON from `fit-grammar-errors` (default: packaged)")
    parser.add_argument("--output-dir", required=True, help="directory for the log, summary and plot")
    add_run_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.attack_command import attack_results
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.commands.sharded_attack import recipe_options, write_attack_logs
    from textattack_semparse.constraints.max_grammar_error_rate import MaxGrammarErrorRate
    from textattack_semparse.errors import RecipeError
    from textattack_semparse.metrics.grammar_error_analysis import (
        grammar_attack_summary,
        plot_success_vs_budget,
        record_from_result,
    )
    from textattack_semparse.recipes.attack.grammar_error_attack_yin_2020 import GrammarErrorAttackYin2020
    from textattack_semparse.registry import get_registry
    from textattack_semparse.runs.run_directory import atomic_write_text

    entry = get_registry().get("attack-recipe", args.recipe)
    if entry.load() is not GrammarErrorAttackYin2020:
        raise RecipeError(
            f"grammar-attack runs the grammatical-error recipes; {args.recipe!r} is {entry.target}. Use one of "
            f"{', '.join(name for name in get_registry().names('attack-recipe') if name.startswith('nucle-'))}, "
            "or `textattack-semparse attack` and `textattack-semparse metrics` for other recipes."
        )
    options = {"max_modification_rate": args.max_modification_rate, **recipe_options(args.recipe_option)}
    if args.error_model:
        options["error_model"] = args.error_model
    results = attack_results("grammar-attack", args, options)
    if results is None:
        return 2
    output_dir = Path(args.output_dir)
    write_attack_logs(results, csv_path=output_dir / LOG, csv_coloring_style="plain")
    rate = MaxGrammarErrorRate(max_rate=options["max_modification_rate"])  # the recipe's error budget
    records = [
        record_from_result(result, rate.budget(result.original_result.attacked_text.num_words)) for result in results
    ]
    summary = {
        "recipe": args.recipe,
        "model": args.model,
        "options": {
            key: value if isinstance(value, (int, float, str, bool)) else str(value) for key, value in options.items()
        },
        **grammar_attack_summary(records),
    }
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
        [
            (name, row["errors"], row["errors_percent"], row["successes"])
            for name, row in summary["error_types"].items()
        ],
    )
    atomic_write_text(output_dir / SUMMARY, json.dumps(summary, indent=2) + "\n")
    print(f"Wrote {output_dir / LOG}")
    print(f"Wrote {output_dir / SUMMARY}")
    plot_success_vs_budget(
        {args.recipe: summary["success_vs_budget"]}, output_dir / PLOT, title=f"{args.recipe} on {args.model}"
    )
    print(f"Wrote {output_dir / PLOT}")
    return 0
