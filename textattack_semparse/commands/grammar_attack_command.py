"""``textattack-semparse grammar-attack``: run a grammatical-error attack and report as Yin et al. (2020)."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import Any

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
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "grammar-attack",
        help="run a nucle-* grammatical-error attack; write success rate, error types and a success-vs-budget plot",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--recipe", default="nucle-greedy", help="a nucle-* attack recipe (default nucle-greedy)")
    parser.add_argument(
        "--model",
        required=True,
        help="victim: a registered victim (knn-geo), a local seq2seq parser, or any model `textattack attack "
        "--model` accepts (classifiers get TextAttack's untargeted classification goal)",
    )
    parser.add_argument("--model-from-huggingface", help="as `textattack attack`: a Hugging Face classifier")
    parser.add_argument("--dataset-by-model", help="registered dataset name or TextAttack's --dataset-by-model")
    parser.add_argument("--dataset-from-huggingface", help="as `textattack attack`")
    parser.add_argument("--dataset-split", help="as `textattack attack`")
    parser.add_argument("--num-examples", type=int, default=-1, help="questions to attack (default -1: all)")
    parser.add_argument("--num-examples-offset", type=int, default=0, help="skip the first N questions")
    parser.add_argument(
        "--max-modification-rate", type=float, default=0.15, help="errors allowed per word (default 0.15, the paper's)"
    )
    parser.add_argument("--error-model", help="error-model JSON from `fit-grammar-errors` (default: packaged)")
    parser.add_argument(
        "--recipe-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="further build keyword of the recipe, VALUE read as a Python literal (beam_width=3); repeatable",
    )
    parser.add_argument("--query-budget", type=int, help="maximum victim queries per question")
    parser.add_argument("--random-seed", type=int, default=765, help="TextAttack's random seed (default 765)")
    parser.add_argument("--output-dir", required=True, help="directory for the log, summary and plot")
    parser.set_defaults(func=run)


def _recipe_options(entries: list[str]) -> dict[str, Any]:
    from textattack_semparse.errors import RecipeError

    options: dict[str, Any] = {}
    for entry in entries:
        key, separator, value = entry.partition("=")
        if not separator or not key.isidentifier():
            raise RecipeError(f"--recipe-option {entry!r} is not KEY=VALUE (e.g. --recipe-option beam_width=3).")
        try:
            options[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            options[key] = value  # a bare string such as a path
    return options


def _victim_and_dataset(args: argparse.Namespace) -> tuple[Any, Any]:
    """The victim and dataset: the plugin's victims as everywhere else
    (:func:`~textattack_semparse.victims.resolution.resolve_victim`), TextAttack's own models
    (classifiers) through TextAttack's resolvers."""
    from textattack_semparse.victims.resolution import is_plugin_victim, load_dataset, required_dataset, resolve_victim

    if is_plugin_victim(args.model) and not args.dataset_from_huggingface:
        victim, dataset = resolve_victim(args.model, dataset=args.dataset_by_model)
        return victim, load_dataset(required_dataset(args.model, dataset))
    import textattack

    victim = textattack.ModelArgs._create_model_from_args(
        textattack.ModelArgs(model=args.model, model_from_huggingface=args.model_from_huggingface)
    )
    dataset = textattack.DatasetArgs._create_dataset_from_args(
        textattack.DatasetArgs(
            dataset_by_model=args.dataset_by_model,
            dataset_from_huggingface=args.dataset_from_huggingface,
            dataset_split=args.dataset_split,
        )
    )
    return victim, dataset


def run(args: argparse.Namespace) -> int:
    from textattack import AttackArgs, Attacker

    from textattack_semparse.commands.output import print_table, write_json
    from textattack_semparse.constraints.max_grammar_error_rate import MaxGrammarErrorRate
    from textattack_semparse.errors import RecipeError
    from textattack_semparse.metrics.grammar_error_analysis import (
        grammar_attack_summary,
        plot_success_vs_budget,
        record_from_result,
    )
    from textattack_semparse.recipes.attack.grammar_error_attack_yin_2020 import GrammarErrorAttackYin2020
    from textattack_semparse.registry import attack_recipe_class, get_registry

    entry = get_registry().get("attack-recipe", args.recipe)
    if entry.load() is not GrammarErrorAttackYin2020:
        raise RecipeError(
            f"grammar-attack runs the grammatical-error recipes; {args.recipe!r} is {entry.target}. Use one of "
            f"{', '.join(name for name in get_registry().names('attack-recipe') if name.startswith('nucle-'))}, "
            "or `textattack attack` and `textattack-semparse metrics` for other recipes."
        )
    options = {"max_modification_rate": args.max_modification_rate, **_recipe_options(args.recipe_option)}
    if args.error_model:
        options["error_model"] = args.error_model
    output_dir = Path(args.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)

    victim, dataset = _victim_and_dataset(args)
    attack = attack_recipe_class(args.recipe).build(victim, **options)
    if args.query_budget:
        attack.goal_function.query_budget = args.query_budget
    attack_args = AttackArgs(
        num_examples=args.num_examples,
        num_examples_offset=args.num_examples_offset,
        random_seed=args.random_seed,
        log_to_csv=str(output_dir / LOG),
        csv_coloring_style="plain",
        disable_stdout=True,
    )
    results = Attacker(attack, dataset, attack_args).attack_dataset()

    rate = next(constraint for constraint in attack.constraints if isinstance(constraint, MaxGrammarErrorRate))
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
    write_json(output_dir / SUMMARY, summary)
    plot_success_vs_budget(
        {args.recipe: summary["success_vs_budget"]}, output_dir / PLOT, title=f"{args.recipe} on {args.model}"
    )
    print(f"Wrote {output_dir / PLOT}")
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
    return 0
