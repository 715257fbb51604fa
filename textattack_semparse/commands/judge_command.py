"""``textattack-semparse judge``: train the meaning judge's reader (:mod:`textattack_semparse.judges.reader_training`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from textattack_semparse.commands.arguments import positive_int, seed_parent
from textattack_semparse.project import docs_url


def register(subparsers: argparse._SubParsersAction) -> None:
    from textattack_semparse.judges.reader_training import MEASURE_SOURCES, SOURCES, TRAIN_SOURCES

    parser = subparsers.add_parser(
        "judge",
        epilog=f"Documentation: {docs_url('judges.md')}",
        help="train the meaning judge's reader (a cross-encoder) on the benchmarks' own paraphrases",
    )
    commands = parser.add_subparsers(dest="judge_command", required=True)
    train = commands.add_parser(
        "train",
        parents=[seed_parent()],
        help="fine-tune the packaged all-MiniLM-L6-v2 as a cross-encoder reader; use it with --judge cross-encoder:DIR",
        description="Draws positive pairs (questions of one gold, Spider-Syn's rewrites, with slips people read "
        "through) and negatives (other values, another gold in nearly the same words, minimal edits of the gold's "
        "values, numbers, operators and predicates) from the training sources, trains LoRA adapters and a head, and "
        "measures on the measured sources, never trained on, where the threshold is chosen. Writes DIR/adapter and "
        "DIR/reader.json. The defaults train the packaged reader.",
    )
    train.add_argument("--output-dir", required=True, help="a new directory for the reader")
    train.add_argument("--data-dir", help="real-data folder (default: $SEMPARSE_DATA_DIR)")
    train.add_argument(
        "--train", nargs="+", choices=SOURCES, default=list(TRAIN_SOURCES), metavar="SOURCE",
        help=f"sources trained on (default: {' '.join(TRAIN_SOURCES)}; choices: {' '.join(SOURCES)})",
    )
    train.add_argument(
        "--measure", nargs="+", choices=SOURCES, default=list(MEASURE_SOURCES), metavar="SOURCE",
        help=f"sources measured on, never trained on (default: {' '.join(MEASURE_SOURCES)})",
    )
    train.add_argument("--epochs", type=positive_int, default=2, help="default: 2")
    train.add_argument(
        "--max-pairs-per-source", type=positive_int, default=4000, help="at most N pairs of each source and label (default: 4000)"
    )
    train.add_argument("--overwrite", action="store_true", help="replace a reader DIR already holds")
    train.set_defaults(func=run_train)


def run_train(args: argparse.Namespace) -> int:
    from textattack_semparse.experiments.judge_training import run_judge_training
    from textattack_semparse.judges.reader_training import ReaderTrainingConfig

    config = ReaderTrainingConfig(
        output_dir=Path(args.output_dir),
        data_dir=Path(args.data_dir) if args.data_dir else None,
        train=tuple(args.train),
        measure=tuple(args.measure),
        seed=args.seed,
        epochs=args.epochs,
        max_pairs_per_source=args.max_pairs_per_source,
    )
    return run_judge_training(config, overwrite=args.overwrite)
