"""``textattack-semparse augment``: an augmented training set in the format of the input file
(:mod:`textattack_semparse.experiments.augment`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from textattack_semparse.commands.arguments import (
    fraction,
    judge_names,
    judge_parent,
    positive_int,
    run_context,
    seed_parent,
)
from textattack_semparse.commands.hf_output import check_hf_output, hf_parent, write_hf_output
from textattack_semparse.experiments.augment import FORMATS
from textattack_semparse.project import docs_url


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "augment",
        epilog=f"Documentation: {docs_url('augmentation.md')}",
        help="augment a text2sql JSON, question<TAB>logical-form or CSV file, protecting database values",
        description="Write an augmented copy of a training file in its own format. The database values of each "
        "gold output are never perturbed.",
        parents=[seed_parent(), judge_parent(), hf_parent()],
    )
    parser.add_argument("--recipe", required=True, help="registered augmentation recipe (textattack-semparse list)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--input", help="file to augment")
    source.add_argument(
        "--dataset",
        metavar="NAME",
        help="registered dataset to augment instead of --input, e.g. geo-question-train (textattack-semparse "
        "list dataset): its benchmark file is read, only this split is augmented, the rest is copied",
    )
    parser.add_argument("--output", required=True, help="file to write (with --sample: the union of all operations)")
    parser.add_argument(
        "--format", choices=FORMATS, help="input format (default: from the suffix: .json, .tsv/.txt, .csv)"
    )
    parser.add_argument(
        "--num-examples", type=positive_int, metavar="N", help="wtq: augment only the first N questions (default: all)"
    )
    parser.add_argument("--input-column", help="csv: the column to augment (required for csv)")
    parser.add_argument("--gold-column", help="csv: a SQL column whose literals are protected")
    parser.add_argument(
        "--split-type", choices=("question", "query"), default=None, help="text2sql: split of --split (default: question)"
    )
    parser.add_argument(
        "--split",
        action="append",
        dest="splits",
        metavar="NAME",
        help="text2sql: augment only sentences of this split (repeatable; default: all); the rest is copied",
    )
    parser.add_argument(
        "--sample",
        type=float,
        metavar="FRACTION",
        help="MDA as Huang et al. 2021 §4: sample ceil(FRACTION x N) of the N examples once (0 < FRACTION <= 1; "
        "the paper: 0.2, '20%% of the original instances for each dataset'), perturb each sampled example once by "
        "each operation (with the huang-2021 robustness setting's options and output selection), and "
        "write one file per operation (<output stem>.<operation><suffix>) plus the union (--output); with "
        "jia-liang-concat: the number of concatenations as a fraction of N (default 1)",
    )
    parser.add_argument(
        "--perturbation",
        action="append",
        dest="perturbations",
        metavar="NAME",
        help="operation to use instead of the recipe's own (repeatable; textattack-semparse list perturbation), "
        "e.g. substitution-nf or backtranslation, which need their models",
    )
    parser.add_argument(
        "--transformations-per-example", type=positive_int, default=None, help="augmentations per question (default 2)"
    )
    parser.add_argument(
        "--pct-words-to-swap", type=fraction, default=None, help="share of words changed per augmentation (default 0.1)"
    )
    parser.add_argument("--exclude-original", action="store_true", help="write only the augmented questions")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing output file")
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar (it shows, with rate and ETA, on a terminal only)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.experiments.augment import AugmentConfig
    from textattack_semparse.experiments.augment import run as augment

    config = AugmentConfig(
        recipe=args.recipe,
        output=args.output,
        input=args.input,
        dataset=args.dataset,
        file_format=args.format,
        num_examples=args.num_examples,
        input_column=args.input_column,
        gold_column=args.gold_column,
        split_type=args.split_type,
        splits=None if args.splits is None else tuple(args.splits),
        sample=args.sample,
        perturbations=None if args.perturbations is None else tuple(args.perturbations),
        transformations_per_example=args.transformations_per_example,
        pct_words_to_swap=args.pct_words_to_swap,
        seed=args.seed,
        judges=judge_names(args),
        exclude_original=args.exclude_original,
        overwrite=args.overwrite,
    )
    check_hf_output(args)
    result = augment(config, run_context(args))
    judged = next((file.judged for file in reversed(result.files) if file.judged is not None), None)
    # Before the paths: the output ends with the path written last, for scripts that read it.
    if judged is not None:
        example = "" if not judged.examples else " e.g. {!r} -> {!r}: {}".format(*judged.examples[0])
        print(f"Meaning judge {'+'.join(config.judges)} on the candidate rewrites: {judged.describe()};{example}")
        if judged.layers:
            print(f"By layer: {judged.describe_layers()}")
    for file in result.files:
        if file.operation is not None:
            print(f"Wrote {file.written} {file.unit} ({file.added} augmented: {file.operation}) to {file.path}.")
        elif file.unit == "rows":
            print(f"Wrote {file.written} rows to {file.path}.")
        elif result.file_format == "wtq":
            print(
                f"Wrote {file.written} questions ({file.added} augmented) to {file.path}, their tables under "
                f"{file.path.parent / 'csv'}."
            )
        else:
            print(
                f"Wrote {file.written} questions ({file.added} augmented) to {file.path}; "
                f"{file.rejected} augmentations dropped because they changed a protected literal."
            )
    write_hf_output(
        args,
        Path(config.output),
        title=f"{config.recipe} augmentation of {config.dataset or Path(str(config.input)).name}",
        source=f"registered dataset {config.dataset}" if config.dataset else f"file {config.input}",
        settings={
            "recipe": config.recipe,
            "perturbations": None if config.perturbations is None else ", ".join(config.perturbations),
            "sample (Huang et al. 2021 MDA)": config.sample,
            "seed": config.seed,
            "meaning judge": "+".join(config.judges) or "none",
        },
        tags=("data-augmentation", "semantic-parsing"),
        file_format=result.file_format,
    )
    return 0
