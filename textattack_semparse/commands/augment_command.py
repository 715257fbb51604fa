"""``textattack-semparse augment``: an augmented training set in the format of the input file."""

from __future__ import annotations

import argparse
import inspect
import random
from pathlib import Path
from typing import Any

FORMATS = ("text2sql", "tsv", "csv")
_SUFFIX_FORMATS = {".json": "text2sql", ".tsv": "tsv", ".txt": "tsv", ".csv": "csv"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "augment",
        help="augment a text2sql JSON, question<TAB>logical-form or CSV file, protecting database values",
        description="Write an augmented copy of a training file in its own format. The database values of each "
        "gold output are never perturbed; see docs/augmentation.md.",
    )
    parser.add_argument("--recipe", required=True, help="registered augmentation recipe (textattack-semparse list)")
    parser.add_argument("--input", required=True, help="file to augment")
    parser.add_argument("--output", required=True, help="file to write")
    parser.add_argument(
        "--format", choices=FORMATS, help="input format (default: from the suffix: .json, .tsv/.txt, .csv)"
    )
    parser.add_argument("--input-column", help="csv: the column to augment (required for csv)")
    parser.add_argument("--gold-column", help="csv: a SQL column whose literals are protected")
    parser.add_argument(
        "--split-type", choices=("question", "query"), default="question", help="text2sql: split of --split"
    )
    parser.add_argument(
        "--split",
        action="append",
        dest="splits",
        metavar="NAME",
        help="text2sql: augment only sentences of this split (repeatable; default: all); the rest is copied",
    )
    parser.add_argument("--transformations-per-example", type=int, default=2, help="augmentations per question")
    parser.add_argument("--pct-words-to-swap", type=float, default=0.1, help="share of words changed per augmentation")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--exclude-original", action="store_true", help="write only the augmented questions")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing output file")
    parser.set_defaults(func=run)


def input_format(path: str, explicit: str | None) -> str:
    """``explicit``, else the format implied by the file suffix."""
    from textattack_semparse.errors import DatasetError

    if explicit is not None:
        return explicit
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIX_FORMATS:
        raise DatasetError(
            f"Cannot tell the format of {path!r} from its suffix {suffix or '(none)'!r}; pass --format "
            f"({', '.join(FORMATS)})."
        )
    return _SUFFIX_FORMATS[suffix]


def _check_options(args: argparse.Namespace, file_format: str) -> None:
    from textattack_semparse.errors import DatasetError

    if file_format == "csv" and not args.input_column:
        raise DatasetError("--format csv needs --input-column NAME (the column holding the questions).")
    if file_format != "csv" and (args.input_column or args.gold_column):
        raise DatasetError(
            f"--input-column/--gold-column apply to csv only; a {file_format} file's question and gold are fixed."
        )
    if file_format != "text2sql" and args.splits:
        raise DatasetError(f"--split applies to text2sql files only; a {file_format} file is one split.")
    if args.transformations_per_example < 1:
        raise DatasetError(f"--transformations-per-example must be at least 1, got {args.transformations_per_example}.")
    if not 0.0 <= args.pct_words_to_swap <= 1.0:
        raise DatasetError(f"--pct-words-to-swap must be in [0, 1], got {args.pct_words_to_swap}.")


def build_augmenter(recipe: str, *, pct_words_to_swap: float, transformations_per_example: int, seed: int) -> Any:
    """The registered augmenter ``recipe`` with TextAttack's augmenter keywords (and ``seed``
    when the recipe takes one)."""
    from textattack_semparse.registry import augmentation_recipe_class

    augmenter_class = augmentation_recipe_class(recipe)
    options: dict[str, Any] = {
        "pct_words_to_swap": pct_words_to_swap,
        "transformations_per_example": transformations_per_example,
    }
    if "seed" in inspect.signature(augmenter_class).parameters:
        options["seed"] = seed
    return augmenter_class(**options)


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.augmentation.csv_augmentation import augment_csv
    from textattack_semparse.augmentation.literal_protection import protecting_literals
    from textattack_semparse.augmentation.text2sql_augmentation import augment_text2sql
    from textattack_semparse.augmentation.tsv_augmentation import augment_tsv
    from textattack_semparse.errors import DatasetError

    file_format = input_format(args.input, args.format)
    _check_options(args, file_format)
    source, target = Path(args.input), Path(args.output)
    if not source.is_file():
        raise DatasetError(f"Input file {args.input!r} does not exist; pass an existing file to --input.")
    if target.exists() and not args.overwrite:
        raise DatasetError(f"Output file {args.output!r} exists; pass --overwrite to replace it.")
    random.seed(args.seed)  # TextAttack's Augmenter samples with the global random module
    augmenter = build_augmenter(
        args.recipe,
        pct_words_to_swap=args.pct_words_to_swap,
        transformations_per_example=args.transformations_per_example,
        seed=args.seed,
    )
    augment = protecting_literals(augmenter)
    include_original = not args.exclude_original
    if file_format == "csv":
        written = augment_csv(
            source,
            target,
            args.input_column,
            augment if args.gold_column else (lambda text: augment(text, ())),
            include_original=include_original,
            overwrite=args.overwrite,
            gold_column=args.gold_column,
        )
        print(f"Wrote {written} rows to {target}.")
        return 0
    if file_format == "text2sql":
        counts = augment_text2sql(
            source,
            target,
            augment,
            include_original=include_original,
            overwrite=args.overwrite,
            split_type=args.split_type,
            splits=args.splits,
        )
    else:
        counts = augment_tsv(source, target, augment, include_original=include_original, overwrite=args.overwrite)
    print(
        f"Wrote {counts.written} questions ({counts.added} augmented) to {target}; "
        f"{counts.rejected} augmentations dropped because they changed a protected literal."
    )
    return 0
