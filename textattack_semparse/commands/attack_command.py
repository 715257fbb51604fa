"""``textattack-semparse attack``: ``textattack attack`` for any registered recipe, sharded over
workers (serial or Ray), resumable after a kill, writing TextAttack's own logs (docs/attack.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from textattack_semparse.commands.run_options import add_run_arguments

CSV_LOG, TXT_LOG, SUMMARY = "attack_log.csv", "attack_log.txt", "attack_summary.json"
COLORING_STYLES = ("file", "plain", "html")

_DESCRIPTION = f"""\
Attack a dataset with any registered attack recipe (semparse-*, nucle-*, robut-*, a plugin's, or
TextAttack's own) as `textattack attack` does, on --backend serial (this process) or ray
(workers holding a victim each). Writes to --output-dir TextAttack's CSV log ({CSV_LOG}), text
log ({TXT_LOG}) and JSON summary ({SUMMARY}), the same bytes on either backend. Every finished
example is appended to examples.jsonl at once: after a kill, run the same command again (or add
--resume) and only the unfinished examples are attacked. Each example is seeded with
--random-seed + its dataset index, so its result does not depend on the worker that attacked it.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "attack",
        help="run an attack recipe sharded over workers, resumable; write TextAttack's CSV/text logs and summary",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_attack_arguments(parser)
    parser.add_argument(
        "--csv-coloring-style",
        choices=COLORING_STYLES,
        default="file",
        help="as `textattack attack`: how the CSV marks changed words (default file: [[word]])",
    )
    parser.add_argument("--output-dir", required=True, help=f"directory for {CSV_LOG}, {TXT_LOG}, {SUMMARY}")
    add_run_arguments(parser)
    parser.set_defaults(func=run)


def add_attack_arguments(
    parser: argparse.ArgumentParser, *, recipe_default: str | None = None, num_examples_default: int = 10
) -> None:
    """The options naming the attack and its examples, with ``textattack attack``'s meanings."""
    parser.add_argument(
        "--recipe",
        required=recipe_default is None,
        default=recipe_default,
        help="attack recipe: a registered one (textattack-semparse list attack-recipe) or TextAttack's",
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
        "--dataset-by-model", "--dataset", dest="dataset_by_model", help="registered dataset (geo-question-test) or TextAttack's"
    )
    parser.add_argument("--dataset-from-huggingface", help="as `textattack attack`")
    parser.add_argument("--dataset-split", help="as `textattack attack`")
    parser.add_argument(
        "--num-examples",
        type=int,
        default=num_examples_default,
        help=f"examples to attack (default {num_examples_default}; -1: all)",
    )
    parser.add_argument("--num-examples-offset", type=int, default=0, help="skip the first N examples")
    parser.add_argument("--query-budget", type=int, help="maximum victim queries per example")
    parser.add_argument(
        "--random-seed",
        "--seed",
        dest="random_seed",
        type=int,
        default=765,
        help="seed; example i is attacked with seed + i (default 765, TextAttack's)",
    )


def configuration(args: argparse.Namespace, options: dict) -> dict:
    """What decides the results (not the backend, workers or progress bar): a changed one in the
    same --output-dir is refused."""
    return {
        "recipe": args.recipe,
        "recipe_options": {key: repr(value) for key, value in sorted(options.items())},
        "model": args.model,
        "model_from_huggingface": args.model_from_huggingface,
        "dataset": args.dataset_by_model,
        "dataset_from_huggingface": args.dataset_from_huggingface,
        "dataset_split": args.dataset_split,
        "num_examples": args.num_examples,
        "num_examples_offset": args.num_examples_offset,
        "query_budget": args.query_budget,
        "random_seed": args.random_seed,
    }


def attack_results(command: str, args: argparse.Namespace, options: dict) -> list | None:
    """Run (or resume) the sharded attack of ``args`` in ``args.output_dir``: the results in
    dataset order, or ``None`` after printing why the directory cannot be used."""
    from textattack_semparse.commands.run_options import backend_from_arguments, progress_enabled
    from textattack_semparse.commands.sharded_attack import (
        AttackSpec,
        attack_tasks,
        example_indices,
        load_attack_dataset,
        recipe_class,
        run_sharded_attack,
    )
    from textattack_semparse.runs.run_directory import RunConfigurationChanged, RunDirectory

    if args.num_examples < -1 or args.num_examples == 0 or args.num_examples_offset < 0:
        print("error: --num-examples must be -1 or positive and --num-examples-offset >= 0.", file=sys.stderr)
        return None
    spec = AttackSpec(
        recipe=args.recipe,
        model=args.model,
        model_from_huggingface=args.model_from_huggingface,
        dataset=args.dataset_by_model,
        options=options,
        query_budget=args.query_budget,
    )
    recipe_class(spec.recipe)  # an unknown recipe fails here, before anything is written
    dataset = load_attack_dataset(spec, from_huggingface=args.dataset_from_huggingface, split=args.dataset_split)
    try:
        directory = RunDirectory(args.output_dir, command, configuration(args, options), resume=args.resume)
    except (RunConfigurationChanged, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return None
    indices = example_indices(len(dataset), args.num_examples, args.num_examples_offset)
    if args.num_examples != -1 and len(indices) < args.num_examples:
        print(f"Attacking {len(indices)} examples: the dataset has no more after offset {args.num_examples_offset}.")
    tasks = attack_tasks(dataset, indices, args.random_seed)
    with backend_from_arguments(args) as backend:
        return run_sharded_attack(spec, tasks, directory, backend, progress=progress_enabled(args))


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.commands.sharded_attack import recipe_options, write_attack_logs

    results = attack_results("attack", args, recipe_options(args.recipe_option))
    if results is None:
        return 2
    output = Path(args.output_dir)
    paths = {"csv_path": output / CSV_LOG, "txt_path": output / TXT_LOG, "summary_path": output / SUMMARY}
    summary = write_attack_logs(results, csv_coloring_style=args.csv_coloring_style, **paths)
    rows = summary.get("Attack Results", {})
    print_table(f"{args.recipe} on {args.model} ({len(results)} examples)", ("", "value"), rows.items())
    for path in paths.values():
        print(f"Wrote {path}")
    return 0
