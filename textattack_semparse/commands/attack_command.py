"""``textattack-semparse attack``: ``textattack attack`` for any registered recipe, sharded over
workers (serial or Ray), resumable after a kill (:mod:`textattack_semparse.experiments.attack`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from textattack_semparse.commands.arguments import (
    example_count,
    judge_parent,
    non_negative_int,
    positive_int,
    recipe_options,
    run_context,
    run_parent,
)
from textattack_semparse.commands.hf_output import check_hf_output, hf_parent, write_hf_output
from textattack_semparse.experiments.attack import (
    COLORING_STYLES,
    CSV_LOG,
    SUMMARY,
    TXT_LOG,
)
from textattack_semparse.project import docs_url

_DESCRIPTION = f"""\
Attack a dataset with any registered attack recipe (semparse-*, nucle-*, robut-*, a plugin's, or
TextAttack's own) as `textattack attack` does, on --backend serial (this process) or ray
(workers holding a victim each). Writes to --output-dir TextAttack's CSV log ({CSV_LOG}), text
log ({TXT_LOG}) and JSON summary ({SUMMARY}), the same bytes on either backend. Every finished
example is appended to examples.jsonl at once: after a kill, run the same command again (or add
--resume) and only the unfinished examples are attacked. Each example is seeded with
--seed + its dataset index, so its result does not depend on the worker that attacked it.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "attack",
        epilog=f"Documentation: {docs_url('attack.md')}",
        help="run an attack recipe sharded over workers, resumable; write TextAttack's CSV/text logs and summary",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[attack_parent(), judge_parent(), run_parent(), hf_parent()],
    )
    parser.add_argument(
        "--csv-coloring-style",
        choices=COLORING_STYLES,
        default="file",
        help="as `textattack attack`: how the CSV marks changed words (default file: [[word]])",
    )
    parser.add_argument("--output-dir", required=True, help=f"directory for {CSV_LOG}, {TXT_LOG}, {SUMMARY}")
    parser.set_defaults(func=run, num_examples=10)


def attack_parent(*, recipe_default: str | None = None) -> argparse.ArgumentParser:
    """The options naming the attack and its examples, with ``textattack attack``'s meanings."""
    from textattack_semparse.runs.seeding import DEFAULT_SEED

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--recipe",
        required=recipe_default is None,
        default=recipe_default,
        help="attack recipe: a registered one (textattack-semparse list attack-recipe) or TextAttack's"
        + ("" if recipe_default is None else f" (default {recipe_default})"),
    )
    parser.add_argument(
        "--recipe-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="further build keyword of the recipe, VALUE read as a Python literal (beam_width=3); repeatable",
    )
    parser.add_argument(
        "--model",
        required=True,
        help="victim: a registered victim (knn-geo), a local seq2seq parser, an LLM victim (hf-causal:PATH), or any "
        "model `textattack attack --model` accepts",
    )
    parser.add_argument("--model-from-huggingface", help="as `textattack attack`: a Hugging Face classifier")
    parser.add_argument(
        "--dataset-by-model", "--dataset", dest="dataset", help="registered dataset (geo-question-test) or TextAttack's"
    )
    parser.add_argument("--dataset-from-huggingface", help="as `textattack attack`")
    parser.add_argument("--dataset-split", help="as `textattack attack`")
    parser.add_argument(
        "--num-examples", type=example_count, help="examples to attack (-1: all; default: 10, grammar-attack: all)"
    )
    parser.add_argument("--num-examples-offset", type=non_negative_int, default=0, help="skip the first N examples")
    parser.add_argument("--query-budget", type=positive_int, help="maximum victim queries per example")
    parser.add_argument(
        "--seed",
        "--random-seed",
        dest="seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"seed; example i is attacked with seed + i (default {DEFAULT_SEED})",
    )
    return parser


def attack_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings of :func:`attack_parent`, as keywords of the attack configurations."""
    return {
        "model": args.model,
        "model_from_huggingface": args.model_from_huggingface,
        "dataset": args.dataset,
        "dataset_from_huggingface": args.dataset_from_huggingface,
        "dataset_split": args.dataset_split,
        "num_examples": args.num_examples,
        "num_examples_offset": args.num_examples_offset,
        "query_budget": args.query_budget,
        "seed": args.seed,
    }


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table, print_written
    from textattack_semparse.experiments import attack

    options = recipe_options(args.recipe_option)
    if args.no_judge or args.judge:  # else the recipe's own default (the semparse-* recipes: "default")
        options["judge"] = list(args.judge) if args.judge else None
    config = attack.AttackConfig(
        recipe=args.recipe,
        recipe_options=options,
        output_dir=args.output_dir,
        csv_coloring_style=args.csv_coloring_style,
        **attack_settings(args),
    )
    check_hf_output(args)
    outcome = attack.run(config, run_context(args))
    rows = outcome.summary.get("Attack Results", {})
    print_table(f"{args.recipe} on {args.model} ({len(outcome.results)} examples)", ("", "value"), rows.items())
    print_written(*outcome.paths)
    judge = options.get("judge", "the recipe's default")
    write_hf_output(
        args,
        Path(args.output_dir),
        title=f"{args.recipe} on {args.model}: attack results",
        source=f"registered dataset {args.dataset}" if args.dataset else f"the dataset of victim {args.model}",
        settings={
            "recipe": args.recipe,
            "victim": args.model,
            "examples": f"{len(outcome.results)} from offset {args.num_examples_offset}",
            "query budget": args.query_budget,
            "seed": f"{args.seed} (example i: seed + i)",
            "meaning judge": "none" if judge is None else "+".join(judge) if isinstance(judge, list) else judge,
        },
        tags=("adversarial-attack", "semantic-parsing"),
    )
    return 0
