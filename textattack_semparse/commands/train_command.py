"""``textattack-semparse train``: a small encoder-decoder parser trained from scratch on a benchmark."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from textattack_semparse.commands.arguments import positive_int, seed_parent
from textattack_semparse.project import docs_url
from textattack_semparse.training import defaults


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        epilog="defaults per benchmark (an explicit flag overrides them; textattack_semparse/training/defaults.py):\n"
        + textwrap.indent(defaults.describe(), "  ")
        + f"\n\nDocumentation: {docs_url('training.md')}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="train a small encoder-decoder parser (BART or T5) from scratch on a benchmark, or fine-tune a Table QA "
        "model (--base-model) (loadable with --model DIR)",
        description=textwrap.fill(
            "Train a randomly initialised encoder-decoder (BART or T5), with a tokenizer fitted on the benchmark's "
            "training text, on a benchmark's training split (questions -> gold SQL or logical forms): either on every "
            "training example for a fixed number of epochs, keeping the last, or with the epoch selected on dev exact "
            "match and early stopping (a seeded held-out slice of train when the benchmark has no dev split). The "
            "settings not given default per benchmark (listed below). Writes a Hugging Face directory that 'evaluate "
            "--model DIR' and 'textattack attack --model DIR' load. CUDA with mixed precision when present, else CPU. "
            "With --base-model, a pretrained TAPEX/OmniTab-style Table QA model is fine-tuned instead (RobuT's RTA/LeTA "
            "training; needs a GPU at full size).",
            width=100,
        ),
        parents=[seed_parent()],
    )
    per_benchmark = "default: per benchmark"
    parser.add_argument("--benchmark", required=True, help="registered benchmark (textattack-semparse list benchmark)")
    parser.add_argument("--split-type", choices=("question", "query"), default="question", help="default: question")
    parser.add_argument("--output-dir", required=True, help="where the model, tokenizer and checkpoints are written")
    parser.add_argument("--data-dir", help="real-data folder (default: $SEMPARSE_DATA_DIR)")
    parser.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --output-dir")
    parser.add_argument("--architecture", choices=("t5", "bart"), help=f"model family ({per_benchmark})")
    parser.add_argument("--tokenizer", choices=("word", "bpe"), default="word", help="vocabulary kind (default: word)")
    parser.add_argument("--d-model", type=int, help=f"hidden size ({per_benchmark})")
    parser.add_argument("--d-ff", type=int, help=f"feed-forward size ({per_benchmark})")
    parser.add_argument("--layers", type=int, help=f"encoder and decoder layers each ({per_benchmark})")
    parser.add_argument("--heads", type=int, help=f"attention heads ({per_benchmark})")
    parser.add_argument("--dropout", type=float, help=per_benchmark)
    parser.add_argument(
        "--label-smoothing", type=float, help=f"label smoothing of the training loss, in [0, 1) ({per_benchmark})"
    )
    parser.add_argument(
        "--epochs", type=int, help=f"(most) epochs ({per_benchmark}; --base-model: {TABLE_QA_DEFAULTS['epochs']})"
    )
    parser.add_argument("--max-steps", type=int, default=-1, help="stop after N optimiser steps (default: epochs decide)")
    parser.add_argument(
        "--batch-size", type=int, help=f"{per_benchmark} (--base-model: {TABLE_QA_DEFAULTS['batch_size']})"
    )
    parser.add_argument(
        "--learning-rate",
        type=float,
        help=f"peak learning rate ({per_benchmark}; --base-model: {TABLE_QA_DEFAULTS['learning_rate']:g})",
    )
    parser.add_argument("--warmup-steps", type=int, help=per_benchmark)
    parser.add_argument(
        "--dev-selection",
        action=argparse.BooleanOptionalAction,
        help="select the epoch on dev and stop early (--no-dev-selection: train on every training example for "
        f"--epochs epochs and keep the last; {per_benchmark})",
    )
    parser.add_argument(
        "--patience", type=int, help=f"epochs without dev improvement before stopping ({per_benchmark})"
    )
    parser.add_argument(
        "--dev-fraction", type=float, help=f"held out for dev selection when there is no dev split ({per_benchmark})"
    )
    parser.add_argument("--num-beams", type=int, help=f"beam width the saved model decodes with ({per_benchmark})")
    parser.add_argument(
        "--recombined-examples",
        type=int,
        help="training pairs added by putting a whole phrase of a type where an entity of that type stands "
        f"(Jia & Liang 2016's recombination; {per_benchmark}: 600 for geo-lambda, else 0)",
    )
    parser.add_argument(
        "--reconstruction-epochs",
        type=int,
        help="epochs of a reconstruction model (output -> question) trained after the parser, which reranks its "
        f"beam (after Yin & Neubig 2019; 0: none; {per_benchmark}: 40 for geo-lambda, else 0)",
    )
    parser.add_argument(
        "--no-anonymize",
        dest="anonymize",
        action="store_false",
        help="train on the questions and outputs as they are (default: entities as typed placeholders, as the "
        "studies trained)",
    )
    defences = parser.add_argument_group(
        "defences (Huang et al. 2021: FGM, PGD, MDA; RQ5's baseline: Jia & Liang 2016's concatenation)",
        "embedding-space adversarial training, or training questions added (each with its gold)",
    )
    defences.add_argument(
        "--defence",
        choices=defaults.ADVERSARY_METHODS,
        help="embedding-space adversarial training: fgm (Miyato et al. 2017: r = epsilon * g / ||g||) or pgd "
        "(Madry et al. 2018: --pgd-steps steps of alpha * g / ||g|| projected onto the epsilon-ball) on the input "
        "word embeddings; each batch trains on L(e) + L(e + r)",
    )
    defences.add_argument(
        "--epsilon",
        type=float,
        default=defaults.ADVERSARY_EPSILON,
        help=f"--defence: radius of the perturbation, L2 per example (default: {defaults.ADVERSARY_EPSILON:g})",
    )
    defences.add_argument(
        "--alpha",
        type=float,
        default=defaults.ADVERSARY_ALPHA,
        help=f"--defence pgd: step size (default: {defaults.ADVERSARY_ALPHA:g})",
    )
    defences.add_argument(
        "--pgd-steps",
        type=positive_int,
        default=defaults.ADVERSARY_STEPS,
        help=f"--defence pgd: number of steps (default: {defaults.ADVERSARY_STEPS})",
    )
    defences.add_argument(
        "--augment",
        metavar="FILE_OR_RECIPE",
        help="add augmented training questions: a file in the benchmark's format (`textattack-semparse augment "
        "...`), or a recipe run here: semparse-mda (MDA, Huang et al. 2021: 20%% of the training examples, perturbed "
        "by each operation) into OUTPUT_DIR/augmented/, or jia-liang-concat (two random training examples "
        "concatenated, logical-form benchmarks)",
    )
    adversarial = parser.add_argument_group(
        "adversarial training from attack examples (not one of Huang et al.'s defences)",
        "attack the training questions against a trained parser and add the successful adversarial questions",
    )
    adversarial.add_argument(
        "--adversarial-from",
        metavar="MODEL_DIR",
        help="the trained parser to attack",
    )
    adversarial.add_argument(
        "--adversarial-recipe",
        help="attack recipe for --adversarial-from (default: semparse-<benchmark> when registered, else semparse-geo)",
    )
    adversarial.add_argument(
        "--adversarial-examples",
        type=positive_int,
        help="attack only the first N training questions (default: all)",
    )
    table_qa = parser.add_argument_group(
        "Table QA (RobuT, Zhao et al. 2023)",
        "fine-tune a pretrained TAPEX/OmniTab-style model on a Table QA benchmark (wtq) instead; --augment then "
        "takes a WTQ file written by 'augment --dataset wtq-train' (RobuT's RTA or LeTA training data)",
    )
    table_qa.add_argument(
        "--base-model", metavar="NAME_OR_DIR", help="the model to fine-tune, e.g. microsoft/tapex-base or a directory"
    )
    table_qa.add_argument(
        "--train-examples", type=positive_int, help="train on the first N examples of the training split (default: all)"
    )
    table_qa.add_argument(
        "--gradient-accumulation-steps",
        type=positive_int,
        default=TABLE_QA_DEFAULTS["gradient_accumulation_steps"],
        help=f"batches per optimiser step (default: {TABLE_QA_DEFAULTS['gradient_accumulation_steps']})",
    )
    parser.add_argument("--device", help="'cpu' to force the CPU (default: CUDA when available)")
    parser.set_defaults(func=run)


TABLE_QA_DEFAULTS = {
    "epochs": defaults.TABLE_QA_EPOCHS,
    "batch_size": defaults.TABLE_QA_BATCH_SIZE,
    "learning_rate": defaults.TABLE_QA_LEARNING_RATE,
    "gradient_accumulation_steps": defaults.TABLE_QA_GRADIENT_ACCUMULATION_STEPS,
}
"""``TableQATrainer``'s defaults by option, for ``--help`` and for options not given."""


def _given(value: object, default: object) -> object:
    return default if value is None else value


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.experiments.train import TrainConfig
    from textattack_semparse.experiments.train import run as train
    from textattack_semparse.runs.run_context import RunContext

    if args.base_model is not None:
        return _run_table_qa(args)
    config = TrainConfig(
        benchmark=args.benchmark,
        output_dir=args.output_dir,
        trainer_options={
            "split_type": args.split_type,
            "data_dir": args.data_dir,
            "architecture": args.architecture,
            "tokenizer_kind": args.tokenizer,
            "d_model": args.d_model,
            "d_ff": args.d_ff,
            "num_layers": args.layers,
            "num_heads": args.heads,
            "dropout": args.dropout,
            "label_smoothing": args.label_smoothing,
            "epochs": args.epochs,
            "max_steps": args.max_steps,
            "batch_size": args.batch_size,
            "learning_rate": args.learning_rate,
            "warmup_steps": args.warmup_steps,
            "patience": args.patience,
            "dev_fraction": args.dev_fraction,
            "dev_selection": args.dev_selection,
            "num_beams": args.num_beams,
            "recombined_examples": args.recombined_examples,
            "reconstruction_epochs": args.reconstruction_epochs,
            "seed": args.seed,
            "device": args.device,
            "anonymize": args.anonymize,
            "adversary": args.defence,
            "adversary_epsilon": args.epsilon,
            "adversary_alpha": args.alpha,
            "adversary_steps": args.pgd_steps,
        },
        resume=args.resume,
        augment=args.augment,
        adversarial_from=args.adversarial_from,
        adversarial_recipe=args.adversarial_recipe,
        adversarial_examples=args.adversarial_examples,
    )
    result = train(config, RunContext(say=print))  # --resume resumes training, not the defences' runs
    report = result.report
    adversary = {key: value for key, value in report["settings"].items() if key.startswith("adversary")}
    print_table(
        f"Trained {args.output_dir} on {args.benchmark} ({args.split_type} split)",
        ("", "value"),
        (
            ("train examples", report["train_examples"]),
            ("of which added", f"{report['extra_train_examples']} ({report['extra_source']})"),
            ("recombined pairs added", report["recombined_examples"]),
            *((("embedding adversary", ", ".join(f"{k}={v}" for k, v in adversary.items())),) if adversary else ()),
            ("dev examples", f"{report['dev_examples']} ({report['dev_source']})"),
            ("parameters", report["parameters"]),
            ("vocabulary", report["vocabulary"]),
            ("steps", report["global_step"]),
            ("epochs", report["epochs_run"]),
            *((("reconstruction model", _reconstruction_cell(report["reconstruction"])),) if "reconstruction" in report else ()),
            ("best dev exact match", report["best_dev_exact_match"]),
            ("seconds", report["seconds"]),
        ),
    )
    if result.test_set is not None:
        print(f"Evaluate with: textattack-semparse evaluate --model {args.output_dir} --dataset {result.test_set}")
    return 0


def _reconstruction_cell(reconstruction: dict[str, Any]) -> str:
    return f"{reconstruction['epochs_run']:g} epochs, {reconstruction['global_step']} steps"


def _run_table_qa(args: argparse.Namespace) -> int:
    """``train --base-model``: fine-tune a Table QA model (RobuT's RTA/LeTA training)."""
    from textattack_semparse.errors import ConfigurationError

    if args.defence is not None or args.adversarial_from is not None:
        raise ConfigurationError(
            "--base-model fine-tunes a Table QA model on --augment FILE or the training split; --defence and "
            "--adversarial-from train parsers from scratch: drop them."
        )
    from textattack_semparse.commands.output import print_table
    from textattack_semparse.experiments.train import TableQATrainConfig, run_table_qa
    from textattack_semparse.runs.run_context import RunContext

    options = {
        "epochs": _given(args.epochs, TABLE_QA_DEFAULTS["epochs"]),
        "max_steps": args.max_steps,
        "batch_size": _given(args.batch_size, TABLE_QA_DEFAULTS["batch_size"]),
        "learning_rate": _given(args.learning_rate, TABLE_QA_DEFAULTS["learning_rate"]),
        "gradient_accumulation_steps": args.gradient_accumulation_steps,
        "seed": args.seed,
        "device": args.device,
    }
    config = TableQATrainConfig(
        benchmark=args.benchmark,
        base_model=args.base_model,
        output_dir=args.output_dir,
        trainer_options=options,
        augment=args.augment,
        train_examples=args.train_examples,
        data_dir=args.data_dir,
        resume=args.resume,
    )
    result = run_table_qa(config, RunContext(say=print))
    report = result.report
    print_table(
        f"Fine-tuned {args.output_dir} on {args.benchmark}",
        ("", "value"),
        (
            ("base model", report["base_model"]),
            ("train examples", f"{report['examples']} ({report['source']})"),
            ("steps", report["steps"]),
            ("train loss", f"{report['train_loss']:.4f}"),
        ),
    )
    if result.test_set is not None:
        print(f"Evaluate with: textattack-semparse evaluate --model {args.output_dir} --dataset {result.test_set}")
    return 0
