"""``textattack-semparse augment``: an augmented training set in the format of the input file."""

from __future__ import annotations

import argparse
import contextlib
import inspect
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (OSError, ImportError)
"""What an operation raises when its model cannot be had (offline hub lookups raise ``OSError``, a
missing optional package ``ImportError``); with the plugin's ``SemparseError`` (a missing WordNet
or spaCy pipeline raises ``ResourceError``) these skip a recipe's own operation and stop a run
that named it with ``--perturbation``."""

if TYPE_CHECKING:
    from textattack_semparse.augmentation.output_files import AugmentationCounts
    from textattack_semparse.augmentation.per_operation import AugmentationItem

MDA_SETTING = "huang-2021"
"""The robustness setting whose per-operation rules ``--sample`` follows (:func:`mda_rule`):
Huang et al. (2021) perturb with the same operations for MDA as for their test sets."""

FORMATS = ("text2sql", "tsv", "csv", "wtq")
_SUFFIX_FORMATS = {".json": "text2sql", ".tsv": "tsv", ".txt": "tsv", ".csv": "csv"}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "augment",
        help="augment a text2sql JSON, question<TAB>logical-form or CSV file, protecting database values",
        description="Write an augmented copy of a training file in its own format. The database values of each "
        "gold output are never perturbed; see docs/augmentation.md.",
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
        "--num-examples",
        type=int,
        metavar="N",
        help="wtq: augment only the first N questions (default: all)",
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
        help="MDA as Huang et al. 2021 §4.1: for each operation separately, sample ceil(FRACTION x N) of the N "
        "examples (0 < FRACTION <= 1; the paper: 0.2), perturb each once by that operation alone (the paper's "
        "options and output selection, as the huang-2021 robustness setting), and write "
        "one file per operation (<output stem>.<operation><suffix>) plus the union (--output)",
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
        "--transformations-per-example", type=int, default=None, help="augmentations per question (default 2)"
    )
    parser.add_argument(
        "--pct-words-to-swap", type=float, default=None, help="share of words changed per augmentation (default 0.1)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--exclude-original", action="store_true", help="write only the augmented questions")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing output file")
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar (it shows, with rate and ETA, on a terminal only)"
    )
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

    if args.dataset is not None and (args.format or args.splits or args.split_type):
        raise DatasetError(
            "--dataset names the file, split type and split; --format/--split/--split-type apply to --input only."
        )
    if file_format == "csv" and not args.input_column:
        raise DatasetError("--format csv needs --input-column NAME (the column holding the questions).")
    if file_format != "csv" and (args.input_column or args.gold_column):
        raise DatasetError(
            f"--input-column/--gold-column apply to csv only; a {file_format} file's question and gold are fixed."
        )
    if file_format != "text2sql" and args.splits:
        raise DatasetError(f"--split applies to text2sql files only; a {file_format} file is one split.")
    if args.sample is not None:
        if not 0.0 < args.sample <= 1.0:
            raise DatasetError(f"--sample must be a fraction in (0, 1] (Huang et al. 2021: 0.2), got {args.sample}.")
        given = [
            flag
            for flag, value in (
                ("--transformations-per-example", args.transformations_per_example),
                ("--pct-words-to-swap", args.pct_words_to_swap),
            )
            if value is not None
        ]
        if given:
            raise DatasetError(
                f"{' and '.join(given)} do not apply with --sample: each sampled example is perturbed once, by one "
                "operation (Huang et al. 2021)."
            )
    if args.transformations_per_example is not None and args.transformations_per_example < 1:
        raise DatasetError(f"--transformations-per-example must be at least 1, got {args.transformations_per_example}.")
    if args.pct_words_to_swap is not None and not 0.0 <= args.pct_words_to_swap <= 1.0:
        raise DatasetError(f"--pct-words-to-swap must be in [0, 1], got {args.pct_words_to_swap}.")


def build_augmenter(
    recipe: str,
    *,
    pct_words_to_swap: float,
    transformations_per_example: int,
    seed: int,
    perturbations: Sequence[str] | None = None,
    **perturbation_keywords: Any,
) -> Any:
    """The registered augmenter ``recipe`` with TextAttack's augmenter keywords (and ``seed``
    when the recipe takes one, ``perturbations`` and ``perturbation_keywords``, e.g.
    ``most_similar``, when given)."""
    from textattack_semparse.registry import augmentation_recipe_class

    augmenter_class = augmentation_recipe_class(recipe)
    options: dict[str, Any] = {
        "pct_words_to_swap": pct_words_to_swap,
        "transformations_per_example": transformations_per_example,
    }
    if "seed" in inspect.signature(augmenter_class).parameters:
        options["seed"] = seed
    if perturbations is not None:
        if "perturbations" not in inspect.signature(augmenter_class).parameters:
            from textattack_semparse.errors import RecipeError

            raise RecipeError(
                f"Augmentation recipe {recipe!r} is not made of named perturbations; --perturbation applies to "
                "semparse-mda and semparse-function-words."
            )
        options["perturbations"] = tuple(perturbations)
    return augmenter_class(**options, **perturbation_keywords)


def mda_rule(operation: str) -> tuple[dict[str, Any], bool, str]:
    """How ``--sample`` perturbs with ``operation``: the rule of the robustness setting
    :data:`MDA_SETTING` (:mod:`~textattack_semparse.robustness.selection_settings`).

    Returns ``(perturbation_options, most_similar, description)``: the constructor options
    the setting gives the operation, whether its selection ranks the outputs by Sentence-BERT
    (``(None, 1)``: the most similar is kept) rather than draws one (``(1, 1)``: a random
    output), and the rule in words.

    Example:
        >>> mda_rule("reordering")
        ({}, True, 'top 1 of all by Sentence-BERT')
        >>> mda_rule("deletion")
        ({'word_list': 'huang-2021'}, False, '1 at random; word_list=huang-2021')
    """
    from textattack_semparse.robustness.selection_settings import (
        SETTING_PERTURBATION_OPTIONS,
        describe_selection,
        perturbation_selection,
    )

    options = dict(SETTING_PERTURBATION_OPTIONS.get(MDA_SETTING, {}).get(operation, {}))
    candidates, keep = perturbation_selection(MDA_SETTING, operation)
    most_similar = keep is not None and keep != candidates
    words = [describe_selection(candidates, keep) + (" by Sentence-BERT" if most_similar else "")]
    words += [f"{name}={value}" for name, value in options.items()]
    return options, most_similar, "; ".join(words)


def recipe_operations(recipe: str) -> tuple[str, ...]:
    """The perturbation names a recipe combines (its ``perturbations`` option or default).

    Raises:
        RecipeError: The recipe is not made of named perturbations (no ``perturbations`` parameter).
    """
    from textattack_semparse.errors import RecipeError
    from textattack_semparse.registry import augmentation_recipe_class

    augmenter_class = augmentation_recipe_class(recipe)
    keywords = getattr(augmenter_class, "keywords", {})
    if "perturbations" in keywords:
        return tuple(keywords["perturbations"])
    parameter = inspect.signature(augmenter_class).parameters.get("perturbations")
    if parameter is None or parameter.default is inspect.Parameter.empty:
        raise RecipeError(
            f"Augmentation recipe {recipe!r} is not made of named perturbations, so it cannot be sampled per "
            "operation; use --sample with semparse-mda or semparse-function-words, or pass --perturbation NAME."
        )
    return tuple(parameter.default)


def _source(args: argparse.Namespace) -> tuple[Path, str, str, list[str] | None]:
    """(input file, format, split type, splits) from --dataset or --input/--format/--split."""
    if args.dataset is not None:
        from textattack_semparse.augmentation.dataset_files import dataset_file

        found = dataset_file(args.dataset)
        return found.path, found.file_format, found.split_type, None if found.splits is None else list(found.splits)
    return Path(args.input), input_format(args.input, args.format), args.split_type or "question", args.splits


def run(args: argparse.Namespace) -> int:
    from textattack_semparse.augmentation.literal_protection import protecting_literals
    from textattack_semparse.errors import DatasetError

    source, file_format, split_type, splits = _source(args)
    _check_options(args, file_format)
    target = Path(args.output)
    if file_format == "wtq":
        return _run_table_qa(args, source, target)
    if not source.is_file():
        raise DatasetError(f"Input file {str(source)!r} does not exist; pass an existing file to --input.")
    if args.sample is not None:
        return _run_sampled(args, source, target, file_format, split_type, splits)
    if target.exists() and not args.overwrite:
        raise DatasetError(f"Output file {args.output!r} exists; pass --overwrite to replace it.")
    random.seed(args.seed)  # TextAttack's Augmenter samples with the global random module
    augmenter = build_augmenter(
        args.recipe,
        pct_words_to_swap=0.1 if args.pct_words_to_swap is None else args.pct_words_to_swap,
        transformations_per_example=args.transformations_per_example or 2,
        seed=args.seed,
        perturbations=args.perturbations,
    )
    augment = protecting_literals(augmenter)
    count = lambda: len(_items(args, source, file_format, split_type, splits))  # noqa: E731
    with _progress(args, f"augment {source.name}", count) as advance:
        written = _write(args, source, target, file_format, split_type, splits, _advancing(augment, advance))
    if isinstance(written, int):
        print(f"Wrote {written} rows to {target}.")
        return 0
    print(
        f"Wrote {written.written} questions ({written.added} augmented) to {target}; "
        f"{written.rejected} augmentations dropped because they changed a protected literal."
    )
    return 0


def _run_table_qa(args: argparse.Namespace, source: Path, target: Path) -> int:
    """Augment a WikiTableQuestions file with a Table QA recipe (``robut-lapt``); the tables it
    asks about are read relative to the folder above the file's (WTQ's ``data/`` and ``csv/``)."""
    from textattack_semparse.augmentation.wtq_augmentation import augment_wtq
    from textattack_semparse.errors import RecipeError
    from textattack_semparse.registry import augmentation_recipe_class, is_table_qa_augmenter

    recipe = augmentation_recipe_class(args.recipe)
    if not is_table_qa_augmenter(recipe):
        raise RecipeError(
            f"Recipe {args.recipe!r} does not augment Table QA examples; use robut-lapt or robut-leta for wtq files."
        )
    if args.sample is not None:
        raise RecipeError("--sample applies to text2sql and tsv files; a wtq file gets one augmentation per perturbation.")
    options: dict[str, Any] = {"seed": args.seed}
    if args.perturbations:
        options["perturbations"] = tuple(args.perturbations)
    augmenter = recipe(**options)
    count = lambda: min(_line_count(source) - 1, args.num_examples or sys.maxsize)  # noqa: E731
    with _progress(args, f"augment {source.name}", count) as advance:
        counts = augment_wtq(
            source,
            target,
            _advancing(augmenter.augment, advance),
            root=source.parent.parent,
            include_original=not args.exclude_original,
            limit=args.num_examples,
            overwrite=args.overwrite,
        )
    print(
        f"Wrote {counts.written} questions ({counts.added} augmented) to {target}, their tables under "
        f"{target.parent / 'csv'}."
    )
    return 0


@contextlib.contextmanager
def _progress(args: argparse.Namespace, description: str, count: Callable[[], int]) -> Iterator[Callable[[], None]]:
    """A progress bar (rate and ETA) on a terminal unless ``--no-progress``; yields its ``advance``.
    ``count`` (the questions to augment) is only called when the bar shows: it reads the input once more."""
    from textattack_semparse.commands.run_options import progress_enabled
    from textattack_semparse.runs.progress import progress_bar

    enabled = progress_enabled(args)
    shown = sys.stderr.isatty() if enabled is None else enabled
    with progress_bar(count() if shown else None, description, enabled=shown) as bar:
        yield bar.advance


def _advancing(augment: Callable[..., Any], advance: Callable[[], None]) -> Callable[..., Any]:
    """``augment`` that advances the progress bar by one question per call."""

    def counted(*arguments: Any) -> Any:
        try:
            return augment(*arguments)
        finally:
            advance()

    return counted


def _items(
    args: argparse.Namespace, source: Path, file_format: str, split_type: str, splits: list[str] | None
) -> list[AugmentationItem]:
    """The examples an augmentation of ``source`` visits, in order (one ``augment`` call each)."""
    from textattack_semparse.augmentation.csv_augmentation import csv_items
    from textattack_semparse.augmentation.text2sql_augmentation import text2sql_items
    from textattack_semparse.augmentation.tsv_augmentation import tsv_items

    if file_format == "text2sql":
        return text2sql_items(source, split_type=split_type, splits=splits)
    if file_format == "tsv":
        return tsv_items(source)
    return csv_items(source, args.input_column, args.gold_column)


def _line_count(path: Path) -> int:
    with path.open("rb") as lines:
        return sum(1 for _ in lines)


def _write(
    args: argparse.Namespace,
    source: Path,
    target: Path,
    file_format: str,
    split_type: str,
    splits: list[str] | None,
    augment: Any,
) -> AugmentationCounts | int:
    """Write ``target`` in ``file_format`` with the augmentations ``augment`` gives; the counts
    (for csv, the rows written)."""
    from textattack_semparse.augmentation.csv_augmentation import augment_csv
    from textattack_semparse.augmentation.text2sql_augmentation import augment_text2sql
    from textattack_semparse.augmentation.tsv_augmentation import augment_tsv

    include_original = not args.exclude_original
    if file_format == "csv":
        return augment_csv(
            source,
            target,
            args.input_column,
            augment if args.gold_column else (lambda text: augment(text, ())),
            include_original=include_original,
            overwrite=args.overwrite,
            gold_column=args.gold_column,
        )
    if file_format == "text2sql":
        return augment_text2sql(
            source,
            target,
            augment,
            include_original=include_original,
            overwrite=args.overwrite,
            split_type=split_type,
            splits=splits,
        )
    return augment_tsv(source, target, augment, include_original=include_original, overwrite=args.overwrite)


def _run_sampled(
    args: argparse.Namespace,
    source: Path,
    target: Path,
    file_format: str,
    split_type: str,
    splits: list[str] | None,
) -> int:
    """Huang et al. (2021) §4.1: one sampled, perturbed set per operation, and their union."""
    from textattack_semparse.augmentation.literal_protection import protecting_literals
    from textattack_semparse.augmentation.output_files import check_paths
    from textattack_semparse.augmentation.per_operation import (
        operation_output_path,
        replaying,
        sample_operation,
        sample_size,
    )
    from textattack_semparse.errors import RecipeError, ResourceError, SemparseError

    operations = tuple(dict.fromkeys(args.perturbations or recipe_operations(args.recipe)))
    outputs = {operation: operation_output_path(target, operation) for operation in operations}
    for path in [*outputs.values(), target]:
        check_paths(source, path, "Input file", overwrite=args.overwrite)
    items = _items(args, source, file_format, split_type, splits)
    size = sample_size(args.sample, len(items))
    if file_format == "text2sql" and splits is None:
        print("Note: no --split (or --dataset): sampling from every sentence of the file, dev and test included.")
    print(
        f"Sampling ceil({args.sample:g} x {len(items)}) = {size} of {len(items)} examples per operation "
        f"(Huang et al. 2021 §4.1; seed {args.seed}); each sampled example is perturbed once, keeping the output "
        f"the {MDA_SETTING} setting's rule for the operation selects."
    )
    samples = []
    for operation in operations:
        options, most_similar, rule = mda_rule(operation)
        try:
            augmenter = build_augmenter(
                args.recipe,
                pct_words_to_swap=0.0,  # TextAttack applies the transformation max(1, int(0 x words)) = 1 time
                transformations_per_example=1,
                seed=args.seed,
                perturbations=(operation,),
                perturbation_options={operation: options},
                most_similar=(operation,) if most_similar else (),
            )
            started = time.monotonic()
            with _progress(args, f"{operation} (sampling {size})", lambda: size) as advance:
                augment = _advancing(protecting_literals(augmenter), advance)
                sample = sample_operation(operation, items, augment, fraction=args.sample, seed=args.seed)
        except (*UNAVAILABLE_ERRORS, SemparseError) as error:
            reason = f"{type(error).__name__}: {' '.join(str(error).split())}"
            if args.perturbations is None and not isinstance(error, RecipeError):
                print(f"  {operation:<22} skipped: its model or resource is not available ({reason})")
                continue
            if isinstance(error, SemparseError):
                raise
            raise ResourceError(
                f"Perturbation {operation!r} cannot run here: {reason.rstrip('.')}. Its model or resource is not "
                f"available (offline?); make it available or leave {operation!r} out of --perturbation. Nothing "
                "was written."
            ) from error
        samples.append(sample)
        note = "" if len(sample.augmented) == size else f" (only {len(sample.augmented)} of the examples can be perturbed)"
        print(
            f"  {operation:<22} {len(sample.augmented):>5} augmented{note}; {sample.tried} tried, "
            f"{sample.unperturbable} with nothing to perturb, {sample.rejected} with every output rejected; "
            f"{time.monotonic() - started:.1f} s; {MDA_SETTING} rule: {rule}"
        )
    union: dict[int, list[str]] = {}
    rows = []
    for sample in samples:
        for index, question in sample.augmented.items():
            union.setdefault(index, []).append(question)
        augmented = {index: [question] for index, question in sample.augmented.items()}
        path = outputs[sample.operation]
        written = _write(args, source, path, file_format, split_type, splits, replaying(items, augmented))
        rows.append((sample.operation, len(sample.augmented), written, path))
    written = _write(args, source, target, file_format, split_type, splits, replaying(items, union))
    # Two operations may give one example the same question; the file functions write it once.
    rows.append(("union", sum(len(dict.fromkeys(questions)) for questions in union.values()), written, target))
    unit = "rows" if file_format == "csv" else "questions"
    for name, added, counts, path in rows:
        total = counts if isinstance(counts, int) else counts.written
        print(f"Wrote {total} {unit} ({added} augmented: {name}) to {path}.")
    return 0
