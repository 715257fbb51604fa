"""``textattack-semparse train``: a small encoder-decoder parser trained from scratch on a benchmark."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a small T5 parser from scratch on a benchmark (loadable with --model DIR)",
        description="Train a randomly initialised T5 encoder-decoder, with a tokenizer fitted on the benchmark's "
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
    parser.add_argument("--architecture", choices=("t5", "bart"), default="t5", help="model family (default: t5)")
    parser.add_argument("--tokenizer", choices=("word", "bpe"), default="word", help="vocabulary kind (default: word)")
    parser.add_argument("--d-model", type=int, default=256, help="hidden size (default: 256)")
    parser.add_argument("--d-ff", type=int, default=1024, help="feed-forward size (default: 1024)")
    parser.add_argument("--layers", type=int, default=3, help="encoder and decoder layers each (default: 3)")
    parser.add_argument("--heads", type=int, default=4, help="attention heads (default: 4)")
    parser.add_argument("--dropout", type=float, default=0.1, help="default: 0.1")
    parser.add_argument("--epochs", type=int, default=100, help="most epochs (default: 100)")
    parser.add_argument("--max-steps", type=int, default=-1, help="stop after N optimiser steps (default: epochs decide)")
    parser.add_argument("--batch-size", type=int, default=32, help="default: 32")
    parser.add_argument("--learning-rate", type=float, default=1e-3, help="peak learning rate (default: 1e-3)")
    parser.add_argument("--warmup-steps", type=int, default=200, help="default: 200")
    parser.add_argument("--patience", type=int, default=10, help="epochs without dev improvement before stopping")
    parser.add_argument("--dev-fraction", type=float, default=0.1, help="held out when there is no dev split")
    parser.add_argument(
        "--no-anonymize",
        dest="anonymize",
        action="store_false",
        help="train on the questions and outputs as they are (default: entities as typed placeholders, as the "
        "studies trained)",
    )
    parser.add_argument("--seed", type=int, default=42, help="default: 42")
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
    report = trainer.train(resume=args.resume)
    print_table(
        f"Trained {args.output_dir} on {args.benchmark} ({args.split_type} split)",
        ("", "value"),
        (
            ("train examples", report["train_examples"]),
            ("dev examples", f"{report['dev_examples']} ({report['dev_source']})"),
            ("parameters", report["parameters"]),
            ("vocabulary", report["vocabulary"]),
            ("steps", report["global_step"]),
            ("epochs", report["epochs_run"]),
            ("best dev exact match", report["best_dev_exact_match"]),
            ("seconds", report["seconds"]),
        ),
    )
    test_sets = _test_datasets(args.benchmark, args.split_type)
    if test_sets:
        print(f"Evaluate with: textattack-semparse evaluate --model {args.output_dir} --dataset {test_sets[0]}")
    return 0


def _test_datasets(benchmark: str, split_type: str) -> list[str]:
    """The registered datasets of the benchmark's test split (``geo-lambda-test``, ``geo-question-test``)."""
    from textattack_semparse.registry import get_registry

    registry = get_registry()
    key = benchmark.strip().lower().replace("_", "-")
    return [
        name
        for name in registry.names("dataset")
        if registry.get("dataset", name).options.get("benchmark") == key
        and registry.get("dataset", name).options.get("split_type", "question") == split_type
        and registry.get("dataset", name).options.get("split") == "test"
    ]
