"""``textattack-semparse train``: a small encoder-decoder parser trained from scratch on a benchmark."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from textattack_semparse.commands.output import positive_int
from textattack_semparse.training import defaults


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a small encoder-decoder parser (BART or T5) from scratch on a benchmark (loadable with --model DIR)",
        description="Train a randomly initialised encoder-decoder (BART or T5), with a tokenizer fitted on the benchmark's "
        "training text, on a benchmark's training split (questions -> gold SQL or logical forms); early stopping on "
        "dev exact match (a seeded held-out slice of train when the benchmark has no dev split). Writes a Hugging "
        "Face directory that 'evaluate --model DIR' and 'textattack attack --model DIR' load. CUDA with mixed "
        "precision when present, else CPU; the defaults train on 2 CPU cores in minutes.",
    )
    parser.add_argument("--benchmark", required=True, help="registered benchmark (textattack-semparse list benchmark)")
    parser.add_argument("--split-type", choices=("question", "query"), default="question", help="default: question")
    parser.add_argument("--output-dir", required=True, help="where the model, tokenizer and checkpoints are written")
    parser.add_argument("--data-dir", help="real-data folder (default: $SEMPARSE_DATA_DIR)")
    parser.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --output-dir")
    parser.add_argument(
        "--architecture", choices=("t5", "bart"), default=defaults.ARCHITECTURE, help=f"model family (default: {defaults.ARCHITECTURE})"
    )
    parser.add_argument("--tokenizer", choices=("word", "bpe"), default="word", help="vocabulary kind (default: word)")
    parser.add_argument("--d-model", type=int, default=defaults.D_MODEL, help=f"hidden size (default: {defaults.D_MODEL})")
    parser.add_argument("--d-ff", type=int, default=defaults.D_FF, help=f"feed-forward size (default: {defaults.D_FF})")
    parser.add_argument(
        "--layers", type=int, default=defaults.NUM_LAYERS, help=f"encoder and decoder layers each (default: {defaults.NUM_LAYERS})"
    )
    parser.add_argument("--heads", type=int, default=defaults.NUM_HEADS, help=f"attention heads (default: {defaults.NUM_HEADS})")
    parser.add_argument("--dropout", type=float, default=defaults.DROPOUT, help=f"default: {defaults.DROPOUT}")
    parser.add_argument("--epochs", type=int, default=defaults.EPOCHS, help=f"most epochs (default: {defaults.EPOCHS})")
    parser.add_argument("--max-steps", type=int, default=-1, help="stop after N optimiser steps (default: epochs decide)")
    parser.add_argument("--batch-size", type=int, default=defaults.BATCH_SIZE, help=f"default: {defaults.BATCH_SIZE}")
    parser.add_argument(
        "--learning-rate", type=float, default=defaults.LEARNING_RATE, help=f"peak learning rate (default: {defaults.LEARNING_RATE:g})"
    )
    parser.add_argument(
        "--warmup-steps", type=int, default=defaults.WARMUP_STEPS, help=f"default: {defaults.WARMUP_STEPS}"
    )
    parser.add_argument(
        "--patience",
        type=int,
        default=defaults.PATIENCE,
        help=f"epochs without dev improvement before stopping (default: {defaults.PATIENCE})",
    )
    parser.add_argument(
        "--dev-fraction",
        type=float,
        default=defaults.DEV_FRACTION,
        help=f"held out when there is no dev split (default: {defaults.DEV_FRACTION})",
    )
    parser.add_argument(
        "--no-anonymize",
        dest="anonymize",
        action="store_false",
        help="train on the questions and outputs as they are (default: entities as typed placeholders, as the "
        "studies trained)",
    )
    parser.add_argument("--seed", type=int, default=defaults.SEED, help=f"default: {defaults.SEED}")
    defences = parser.add_argument_group(
        "defences (Huang et al. 2021 §4)", "add rewrites of the training questions, each with its source's gold"
    )
    defences.add_argument(
        "--augment",
        metavar="FILE_OR_RECIPE",
        help="meaning-preserving data augmentation: an augmented training file in the benchmark's format "
        "(`textattack-semparse augment --sample 0.2 --dataset ...`), or an augmentation recipe (semparse-mda) "
        "run here that way into OUTPUT_DIR/augmented/",
    )
    defences.add_argument(
        "--adversarial-from",
        metavar="MODEL_DIR",
        help="adversarial training: attack the training questions against this trained parser and add the "
        "successful adversarial questions",
    )
    defences.add_argument(
        "--adversarial-recipe",
        help="attack recipe for --adversarial-from (default: semparse-<benchmark> when registered, else semparse-geo)",
    )
    defences.add_argument(
        "--adversarial-examples",
        type=positive_int,
        help="attack only the first N training questions (default: all)",
    )
    parser.add_argument("--device", help="'cpu' to force the CPU (default: CUDA when available)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.training.parser_trainer import ParserTrainer

    trainer = ParserTrainer(
        args.benchmark,
        args.output_dir,
        split_type=args.split_type,
        data_dir=args.data_dir,
        architecture=args.architecture,
        tokenizer_kind=args.tokenizer,
        d_model=args.d_model,
        d_ff=args.d_ff,
        num_layers=args.layers,
        num_heads=args.heads,
        dropout=args.dropout,
        epochs=args.epochs,
        max_steps=args.max_steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        warmup_steps=args.warmup_steps,
        patience=args.patience,
        dev_fraction=args.dev_fraction,
        seed=args.seed,
        device=args.device,
        anonymize=args.anonymize,
    )
    extras, sources = _defence_examples(args, trainer)
    if extras:
        trainer.extra_train_examples = tuple(extras)
        trainer.extra_source = "; ".join(sources)
    report = trainer.train(resume=args.resume)
    print_table(
        f"Trained {args.output_dir} on {args.benchmark} ({args.split_type} split)",
        ("", "value"),
        (
            ("train examples", report["train_examples"]),
            ("of which added", f"{report['extra_train_examples']} ({report['extra_source']})"),
            ("dev examples", f"{report['dev_examples']} ({report['dev_source']})"),
            ("parameters", report["parameters"]),
            ("vocabulary", report["vocabulary"]),
            ("steps", report["global_step"]),
            ("epochs", report["epochs_run"]),
            ("best dev exact match", report["best_dev_exact_match"]),
            ("seconds", report["seconds"]),
        ),
    )
    test_set = _split_dataset(args.benchmark, args.split_type, "test")
    if test_set is not None:
        print(f"Evaluate with: textattack-semparse evaluate --model {args.output_dir} --dataset {test_set}")
    return 0


def _defence_examples(args: argparse.Namespace, trainer: Any) -> tuple[list[Any], list[str]]:
    """The examples ``--augment`` and ``--adversarial-from`` add, and where each set came from."""
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.registry import get_registry
    from textattack_semparse.training.defences import adversarial_examples, augmented_examples

    extras: list[Any] = []
    sources: list[str] = []
    if args.augment is None and args.adversarial_from is None:
        return extras, sources
    benchmark = load_benchmark(args.benchmark, data_dir=args.data_dir)
    originals = trainer.splits()[0]
    if args.augment is not None:
        path = Path(args.augment)
        if not path.is_file() and ("augmentation-recipe", args.augment) in get_registry():
            path = _run_augmentation(args)
        added = augmented_examples(path, benchmark, originals, split_type=args.split_type)
        extras += added
        sources.append(f"{len(added)} from {path}")
        print(f"--augment: {len(added)} augmented questions from {path}")
    if args.adversarial_from is not None:
        recipe = args.adversarial_recipe or _default_recipe(benchmark.name)
        attacked = originals[: args.adversarial_examples] if args.adversarial_examples else originals
        print(f"--adversarial-from: attacking {len(attacked)} training questions with {recipe} against {args.adversarial_from}")
        added = adversarial_examples(args.adversarial_from, benchmark, attacked, recipe=recipe, seed=args.seed)
        extras += added
        sources.append(f"{len(added)} adversarial ({recipe} against {args.adversarial_from})")
        print(f"--adversarial-from: {len(added)} adversarial questions found")
    return extras, sources


def _run_augmentation(args: argparse.Namespace) -> Path:
    """Run ``augment --recipe R --sample 0.2 --dataset <train split>`` into ``OUTPUT_DIR/augmented/``."""
    from textattack_semparse.cli import main
    from textattack_semparse.errors import DatasetError

    train_set = _split_dataset(args.benchmark, args.split_type, "train")
    if train_set is None:
        raise DatasetError(f"Benchmark {args.benchmark!r} has no registered training split to augment.")
    target = Path(args.output_dir) / "augmented" / f"{train_set}-{args.augment}.json"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        status = main(
            [
                "augment",
                "--recipe",
                args.augment,
                "--sample",
                "0.2",
                "--dataset",
                train_set,
                "--output",
                str(target),
                "--seed",
                str(args.seed),
            ]
        )
        if status != 0 or not target.is_file():
            raise DatasetError(f"--augment {args.augment}: the augment command failed (exit {status}); see its message above.")
    return target


def _default_recipe(benchmark: str) -> str:
    from textattack_semparse.registry import get_registry

    bound = f"semparse-{benchmark}"
    return bound if ("attack-recipe", bound) in get_registry() else "semparse-geo"


def _split_dataset(benchmark: str, split_type: str, split: str) -> str | None:
    """The registered dataset name of one split of the benchmark (``geo-lambda-test``,
    ``geo-question-train``); ``None`` when the benchmark has no such split."""
    from textattack_semparse.registry import dataset_name, get_registry

    key = benchmark.strip().lower().replace("_", "-")
    splits = get_registry().get("benchmark", key).splits
    return dataset_name(key, splits, split_type, split) if split in splits.get(split_type, ()) else None
