"""An augmented copy of a training file, in the file's own format, with the database values of
each gold output protected (docs/augmentation.md).

Formats: text2sql-data JSON, ``question<TAB>logical form`` TSV, CSV (a question column and
optionally a SQL column whose literals are protected), and WikiTableQuestions (questions with
their tables, for the Table QA recipes). With ``sample``, Huang et al.'s (2021) meaning-preserving
data augmentation (MDA, §4): one sample of the examples ("20% of the original instances for each
dataset") perturbed once by each operation, one file per operation plus their union.

Example:
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "train.tsv").write_text("what is the capital of texas\\tcapital(texas)\\n")
    >>> config = AugmentConfig(recipe="semparse-function-words", input=folder / "train.tsv",
    ...                        output=folder / "out.tsv", transformations_per_example=1)
    >>> [file.written for file in run(config).files]
    [2]
"""

from __future__ import annotations

import inspect
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import (
    ConfigurationError,
    DatasetError,
    RecipeError,
    ResourceError,
    SemparseError,
)
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, judges_from_names
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.seeding import DEFAULT_SEED

if TYPE_CHECKING:
    from textattack_semparse.augmentation.literal_protection import ReadAhead
    from textattack_semparse.augmentation.output_files import AugmentationCounts
    from textattack_semparse.augmentation.per_operation import AugmentationItem
    from textattack_semparse.judges.judgement import JudgeTally

UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (OSError, ImportError)
"""What an operation raises when its model cannot be had (offline hub lookups raise ``OSError``, a
missing optional package ``ImportError``); with the plugin's ``SemparseError`` (a missing WordNet
or spaCy pipeline raises ``ResourceError``) these skip a recipe's own operation and stop a run
that named it with ``perturbations``."""

SKIPPED_ERRORS: tuple[type[BaseException], ...] = (*UNAVAILABLE_ERRORS, SemparseError)
"""What skips one of a recipe's own operations when sampling (:data:`UNAVAILABLE_ERRORS` and the plugin's errors)."""

MDA_SETTING = "huang-2021"
"""The robustness setting whose per-operation rules ``sample`` follows (:func:`mda_rule`):
Huang et al. (2021) perturb with the same operations for MDA as for their test sets."""

FORMATS = ("text2sql", "tsv", "csv", "wtq")
"""File formats, as ``--format`` names them."""
SUFFIX_FORMATS = {".json": "text2sql", ".tsv": "tsv", ".txt": "tsv", ".csv": "csv"}
"""The format a file suffix implies when none is given."""
TRANSFORMATIONS_PER_EXAMPLE = 2
"""Augmentations per question by default."""
PCT_WORDS_TO_SWAP = 0.1
"""Share of words changed per augmentation by default."""


@dataclass(frozen=True)
class AugmentConfig:
    """What decides an augmentation.

    Args:
        recipe: A registered augmentation recipe (``textattack-semparse list augmentation-recipe``).
        output: The file to write (with ``sample``: the union of all operations).
        input: The file to augment; or
        dataset: a registered dataset whose benchmark file is read, only its split augmented and
            the rest copied (``geo-question-train``).
        file_format: One of :data:`FORMATS` (default: from the suffix of ``input``).
        num_examples: wtq only: the first N questions.
        input_column: csv only: the column holding the questions (required for csv).
        gold_column: csv only: a SQL column whose literals are protected.
        split_type: text2sql only: the split type of ``splits`` (default ``question``).
        splits: text2sql only: augment only these splits (default all); the rest is copied.
        sample: MDA (Huang et al. 2021 §4): the fraction of examples sampled, once, for every operation to perturb
            (``jia-liang-concat``: new examples as a fraction of the file's).
        perturbations: Operations to use instead of the recipe's own.
        transformations_per_example: Augmentations per question (default 2).
        pct_words_to_swap: Share of words changed per augmentation (default 0.1).
        seed: Random seed.
        judges: The meaning judges every augmentation must pass (:mod:`textattack_semparse.judges`;
            several must all agree; empty: none, the operations' raw output).
        exclude_original: Write only the augmented questions.
        overwrite: Replace existing output files.
    """

    recipe: str
    output: str | os.PathLike[str]
    input: str | os.PathLike[str] | None = None
    dataset: str | None = None
    file_format: str | None = None
    num_examples: int | None = None
    input_column: str | None = None
    gold_column: str | None = None
    split_type: str | None = None
    splits: tuple[str, ...] | None = None
    sample: float | None = None
    perturbations: tuple[str, ...] | None = None
    transformations_per_example: int | None = None
    pct_words_to_swap: float | None = None
    seed: int = DEFAULT_SEED
    judges: tuple[str, ...] = (DEFAULT_JUDGE,)
    exclude_original: bool = False
    overwrite: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "judges", tuple(self.judges))
        if self.judges:
            judges_from_names(self.judges)  # unknown judges fail before anything is written
        if self.perturbations is not None:
            object.__setattr__(self, "perturbations", tuple(self.perturbations))
            from textattack_semparse.registry import get_registry

            for name in self.perturbations:  # so do unknown perturbations, before the recipe loads TextAttack
                get_registry().get("perturbation", name)
        if (self.input is None) == (self.dataset is None):
            raise ConfigurationError(
                "Give the file to augment (--input) or a registered dataset (--dataset), not both."
            )
        if self.dataset is not None and (self.file_format or self.splits or self.split_type):
            raise ConfigurationError(
                "--dataset names the file, split type and split; --format/--split/--split-type apply to --input only."
            )
        if self.file_format is not None and self.file_format not in FORMATS:
            raise ConfigurationError(f"--format must be one of {', '.join(FORMATS)}, got {self.file_format!r}.")
        if self.sample is not None:
            if not 0.0 < self.sample <= 1.0:
                raise ConfigurationError(
                    f"--sample must be a fraction in (0, 1] (Huang et al. 2021: 0.2), got {self.sample}."
                )
            given = [
                flag
                for flag, value in (
                    ("--transformations-per-example", self.transformations_per_example),
                    ("--pct-words-to-swap", self.pct_words_to_swap),
                )
                if value is not None
            ]
            if given:
                raise ConfigurationError(
                    f"{' and '.join(given)} do not apply with --sample: each sampled example is perturbed once, by one "
                    "operation (Huang et al. 2021)."
                )
        if self.transformations_per_example is not None and self.transformations_per_example < 1:
            raise ConfigurationError(
                f"--transformations-per-example must be at least 1, got {self.transformations_per_example}."
            )
        if self.pct_words_to_swap is not None and not 0.0 <= self.pct_words_to_swap <= 1.0:
            raise ConfigurationError(f"--pct-words-to-swap must be in [0, 1], got {self.pct_words_to_swap}.")
        if self.num_examples is not None and self.num_examples < 1:
            raise ConfigurationError(f"--num-examples must be a positive integer, got {self.num_examples}.")


@dataclass(frozen=True)
class AugmentedFile:
    """One file an augmentation wrote.

    Args:
        path: Where.
        written: Questions (or, for csv, rows) in it.
        added: Augmented questions among them.
        rejected: Augmentations dropped because they changed a protected literal (``None``
            where not counted).
        operation: The operation a sampled file holds (``"union"`` for their union), else ``None``.
        unit: ``"questions"`` or ``"rows"``.
        judged: The meaning judge's tally of the candidates it saw (``None`` without a judge).
    """

    path: Path
    written: int
    added: int | None
    rejected: int | None = None
    operation: str | None = None
    unit: str = "questions"
    judged: JudgeTally | None = None


@dataclass(frozen=True)
class AugmentResult:
    """The files an augmentation wrote, in the order written (the union last when sampling)."""

    files: tuple[AugmentedFile, ...]
    file_format: str


@dataclass(frozen=True)
class _Source:
    """The file to augment and how to read it."""

    path: Path
    file_format: str
    split_type: str
    splits: list[str] | None


def input_format(path: str | os.PathLike[str], explicit: str | None) -> str:
    """``explicit``, else the format implied by the file suffix.

    Example:
        >>> input_format("train.tsv", None), input_format("x.data", "csv")
        ('tsv', 'csv')
    """
    if explicit is not None:
        return explicit
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIX_FORMATS:
        raise DatasetError(
            f"Cannot tell the format of {str(path)!r} from its suffix {suffix or '(none)'!r}; pass --format "
            f"({', '.join(FORMATS)})."
        )
    return SUFFIX_FORMATS[suffix]


def build_augmenter(
    recipe: str,
    *,
    pct_words_to_swap: float,
    transformations_per_example: int,
    seed: int,
    judges: Sequence[str] = (DEFAULT_JUDGE,),
    perturbations: Sequence[str] | None = None,
    **perturbation_keywords: Any,
) -> Any:
    """The registered augmenter ``recipe`` with TextAttack's augmenter keywords (and ``seed`` and
    ``judge`` when the recipe takes them, ``perturbations`` and ``perturbation_keywords``, e.g.
    ``most_similar``, when given)."""
    from textattack_semparse.registry import augmentation_recipe_class

    augmenter_class = augmentation_recipe_class(recipe)
    options: dict[str, Any] = {
        "pct_words_to_swap": pct_words_to_swap,
        "transformations_per_example": transformations_per_example,
    }
    parameters = inspect.signature(augmenter_class).parameters
    if "seed" in parameters:
        options["seed"] = seed
    if "judge" in parameters:
        options["judge"] = list(judges) or None
    elif judges:
        raise RecipeError(
            f"Augmentation recipe {recipe!r} takes no meaning judge; pass --no-judge to use it without one."
        )
    if perturbations is not None:
        if "perturbations" not in inspect.signature(augmenter_class).parameters:
            raise RecipeError(
                f"Augmentation recipe {recipe!r} is not made of named perturbations; --perturbation applies to "
                "semparse-mda and semparse-function-words."
            )
        options["perturbations"] = tuple(perturbations)
    return augmenter_class(**options, **perturbation_keywords)


def mda_rule(operation: str) -> tuple[dict[str, Any], bool, str]:
    """How ``sample`` perturbs with ``operation``: the rule of the robustness setting
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


def run(config: AugmentConfig, context: RunContext | None = None) -> AugmentResult:
    """Augment the input of ``config`` into its output file(s)."""
    from textattack_semparse.augmentation.output_files import check_paths

    context = context or RunContext()
    source = _source(config)
    _check_format_options(config, source.file_format)
    target = Path(config.output)
    if not source.path.is_file():
        raise DatasetError(f"Input file {str(source.path)!r} does not exist; pass an existing file to --input.")
    # Before the recipe loads TextAttack (seconds): an output in the way is reported at once.
    check_paths(source.path, target, "Input file", overwrite=config.overwrite)
    if source.file_format == "wtq":
        return _augment_table_qa(config, source, target, context)
    from textattack_semparse.registry import augmentation_recipe_class, combines_examples

    if combines_examples(augmentation_recipe_class(config.recipe)):
        return _augment_combined(config, source, target)
    if config.sample is not None:
        return _augment_sampled(config, source, target, config.sample, context)
    return _augment(config, source, target, context)


def _source(config: AugmentConfig) -> _Source:
    """The file to augment, from ``dataset`` or ``input``/``file_format``/``splits``."""
    if config.input is None:  # AugmentConfig has a dataset then
        from textattack_semparse.augmentation.dataset_files import dataset_file

        found = dataset_file(str(config.dataset))
        return _Source(
            found.path, found.file_format, found.split_type, None if found.splits is None else list(found.splits)
        )
    return _Source(
        Path(config.input),
        input_format(config.input, config.file_format),
        config.split_type or "question",
        None if config.splits is None else list(config.splits),
    )


def _augment_combined(config: AugmentConfig, source: _Source, target: Path) -> AugmentResult:
    """A recipe that combines training examples (``jia-liang-concat``): the file, then the new
    examples; ``sample`` sets their number as a share of the file's examples."""
    from textattack_semparse.augmentation.concatenation import concatenate_tsv
    from textattack_semparse.datasets.logical_form import load_logical_forms
    from textattack_semparse.registry import augmentation_recipe_class

    if source.file_format != "tsv":
        raise ConfigurationError(
            f"Recipe {config.recipe!r} combines question<TAB>logical form examples; a {source.file_format} file "
            "is not supported."
        )
    options = {} if config.sample is None else {"fraction": config.sample}
    recipe = augmentation_recipe_class(config.recipe)(seed=config.seed, **options)
    added = recipe.count(len(load_logical_forms(source.path)))
    written = concatenate_tsv(source.path, target, added, seed=config.seed, overwrite=config.overwrite)
    return AugmentResult((AugmentedFile(target, written, added),), source.file_format)


def _check_format_options(config: AugmentConfig, file_format: str) -> None:
    if file_format == "csv" and not config.input_column:
        raise ConfigurationError("--format csv needs --input-column NAME (the column holding the questions).")
    if file_format != "csv" and (config.input_column or config.gold_column):
        raise ConfigurationError(
            f"--input-column/--gold-column apply to csv only; a {file_format} file's question and gold are fixed."
        )
    if file_format != "text2sql" and config.splits:
        raise ConfigurationError(f"--split applies to text2sql files only; a {file_format} file is one split.")
    if file_format != "wtq" and config.num_examples is not None:
        raise ConfigurationError("--num-examples applies to wtq files; augment the whole file or a --split.")


def _augment(config: AugmentConfig, source: _Source, target: Path, context: RunContext) -> AugmentResult:
    from textattack_semparse.augmentation.literal_protection import protecting_literals

    random.seed(config.seed)  # TextAttack's Augmenter samples with the global random module
    augmenter = build_augmenter(
        config.recipe,
        pct_words_to_swap=PCT_WORDS_TO_SWAP if config.pct_words_to_swap is None else config.pct_words_to_swap,
        transformations_per_example=config.transformations_per_example or TRANSFORMATIONS_PER_EXAMPLE,
        seed=config.seed,
        judges=config.judges,
        perturbations=config.perturbations,
    )
    augment = protecting_literals(augmenter)
    with _progress(context, f"augment {source.path.name}", lambda: len(_items(config, source))) as advance:
        written = _write(config, source, target, _advancing(augment, advance), _read_ahead(augmenter))
    return AugmentResult((_augmented_file(target, written, judged=_tally(augmenter)),), source.file_format)


def _read_ahead(augmenter: Any) -> ReadAhead | None:
    """The augmenter's ``read_ahead`` (the plugin's word-list augmenters have one), else ``None``."""
    return getattr(augmenter, "read_ahead", None)


def _merged(tallies: Iterable[JudgeTally | None]) -> JudgeTally | None:
    """The sum of the operations' tallies (``None`` without a judge)."""
    from textattack_semparse.judges.judgement import JudgeTally

    present = [tally for tally in tallies if tally is not None]
    if not present:
        return None
    merged = JudgeTally()
    for tally in present:
        merged.merge(tally)
    return merged


def _tally(augmenter: Any) -> JudgeTally | None:
    """The tally of the augmenter's meaning judge (``None`` without one)."""
    judgement = getattr(augmenter, "judgement", None)
    return None if judgement is None else judgement.tally


def _augmented_file(
    path: Path,
    counts: AugmentationCounts | int,
    operation: str | None = None,
    added: int | None = None,
    judged: JudgeTally | None = None,
) -> AugmentedFile:
    """What :func:`_write` reports, as an :class:`AugmentedFile` (``added`` overrides the counts')."""
    if isinstance(counts, int):
        return AugmentedFile(path, counts, added, operation=operation, unit="rows", judged=judged)
    return AugmentedFile(
        path, counts.written, counts.added if added is None else added, counts.rejected, operation, judged=judged
    )


def _augment_table_qa(config: AugmentConfig, source: _Source, target: Path, context: RunContext) -> AugmentResult:
    """Augment a WikiTableQuestions file with a Table QA recipe (``robut-rta``); the tables it
    asks about are read relative to the folder above the file's (WTQ's ``data/`` and ``csv/``)."""
    from textattack_semparse.augmentation.wtq_augmentation import augment_wtq
    from textattack_semparse.registry import (
        augmentation_recipe_class,
        is_table_qa_augmenter,
    )

    recipe = augmentation_recipe_class(config.recipe)
    if not is_table_qa_augmenter(recipe):
        raise RecipeError(
            f"Recipe {config.recipe!r} does not augment Table QA examples; use robut-rta, robut-rta-offline or robut-leta for wtq files."
        )
    if config.sample is not None:
        raise RecipeError(
            "--sample applies to text2sql and tsv files; a wtq file gets one augmentation per perturbation."
        )
    options: dict[str, Any] = {"seed": config.seed, "judge": list(config.judges) or None}
    if config.perturbations:
        options["perturbations"] = tuple(config.perturbations)
    augmenter = recipe(**options)
    count = lambda: min(_line_count(source.path) - 1, config.num_examples or sys.maxsize)  # noqa: E731
    with _progress(context, f"augment {source.path.name}", count) as advance:
        counts = augment_wtq(
            source.path,
            target,
            _advancing(augmenter.augment, advance),
            root=source.path.parent.parent,
            include_original=not config.exclude_original,
            limit=config.num_examples,
            overwrite=config.overwrite,
        )
    file = AugmentedFile(target, counts.written, counts.added, counts.rejected, judged=_tally(augmenter))
    return AugmentResult((file,), source.file_format)


@contextmanager
def _progress(context: RunContext, description: str, count: Callable[[], int]) -> Iterator[Callable[[], None]]:
    """A progress bar (rate and ETA) as the context's options say; yields its ``advance``.
    ``count`` (the questions to augment) is only called when the bar shows: it reads the input once more."""
    enabled = context.options.progress
    shown = sys.stderr.isatty() if enabled is None else enabled
    with context.progress(count() if shown else None, description) as bar:
        yield bar.advance


def _advancing(augment: Callable[..., Any], advance: Callable[[], None]) -> Callable[..., Any]:
    """``augment`` that advances the progress bar by one question per call."""

    def counted(*arguments: Any) -> Any:
        try:
            return augment(*arguments)
        finally:
            advance()

    return counted


def _items(config: AugmentConfig, source: _Source) -> list[AugmentationItem]:
    """The examples an augmentation of ``source`` visits, in order (one ``augment`` call each)."""
    from textattack_semparse.augmentation.csv_augmentation import csv_items
    from textattack_semparse.augmentation.text2sql_augmentation import text2sql_items
    from textattack_semparse.augmentation.tsv_augmentation import tsv_items

    if source.file_format == "text2sql":
        return text2sql_items(source.path, split_type=source.split_type, splits=source.splits)
    if source.file_format == "tsv":
        return tsv_items(source.path)
    return csv_items(source.path, str(config.input_column), config.gold_column)


def _line_count(path: Path) -> int:
    with path.open("rb") as lines:
        return sum(1 for _ in lines)


def _write(
    config: AugmentConfig, source: _Source, target: Path, augment: Any, read_ahead: ReadAhead | None = None
) -> AugmentationCounts | int:
    """Write ``target`` in the source's format with the augmentations ``augment`` gives (``read_ahead``
    given the next questions, a batch at a time); the counts (for csv, the rows written)."""
    from textattack_semparse.augmentation.csv_augmentation import augment_csv
    from textattack_semparse.augmentation.text2sql_augmentation import augment_text2sql
    from textattack_semparse.augmentation.tsv_augmentation import augment_tsv

    include_original = not config.exclude_original
    if source.file_format == "csv":
        return augment_csv(
            source.path,
            target,
            str(config.input_column),  # _check_format_options requires one for csv
            augment if config.gold_column else (lambda text: augment(text, ())),
            include_original=include_original,
            overwrite=config.overwrite,
            gold_column=config.gold_column,
            read_ahead=read_ahead,
        )
    if source.file_format == "text2sql":
        return augment_text2sql(
            source.path,
            target,
            augment,
            include_original=include_original,
            overwrite=config.overwrite,
            split_type=source.split_type,
            splits=source.splits,
            read_ahead=read_ahead,
        )
    return augment_tsv(
        source.path, target, augment, include_original=include_original, overwrite=config.overwrite, read_ahead=read_ahead
    )


def _augment_sampled(
    config: AugmentConfig, source: _Source, target: Path, fraction: float, context: RunContext
) -> AugmentResult:
    """Huang et al. (2021) §4: one sample of the dataset, perturbed by each operation into its own
    set, and their union."""
    from textattack_semparse.augmentation.literal_protection import protecting_literals
    from textattack_semparse.augmentation.output_files import check_paths
    from textattack_semparse.augmentation.per_operation import (
        operation_output_path,
        replaying,
        sample_indices,
        sample_operation,
    )

    operations = tuple(dict.fromkeys(config.perturbations or recipe_operations(config.recipe)))
    outputs = {operation: operation_output_path(target, operation) for operation in operations}
    for path in outputs.values():  # the union's file (target) was checked by run()
        check_paths(source.path, path, "Input file", overwrite=config.overwrite)
    items = _items(config, source)
    indices = sample_indices(fraction, len(items), seed=config.seed)
    size = len(indices)
    if source.file_format == "text2sql" and source.splits is None:
        context.say("Note: no --split (or --dataset): sampling from every sentence of the file, dev and test included.")
    context.say(
        f"Sampling ceil({fraction:g} x {len(items)}) = {size} of {len(items)} examples, one sample for every operation "
        f"(Huang et al. 2021 §4; seed {config.seed}); each operation perturbs each sampled example once, keeping the "
        f"output the {MDA_SETTING} setting's rule for the operation selects."
    )
    samples = []
    tallies: dict[str, JudgeTally | None] = {}
    for operation in operations:
        options, most_similar, rule = mda_rule(operation)
        try:
            augmenter = build_augmenter(
                config.recipe,
                pct_words_to_swap=0.0,  # TextAttack applies the transformation max(1, int(0 x words)) = 1 time
                transformations_per_example=1,
                seed=config.seed,
                judges=config.judges,
                perturbations=(operation,),
                perturbation_options={operation: options},
                most_similar=(operation,) if most_similar else (),
            )
            started = time.monotonic()
            with _progress(context, f"{operation} (sampling {size})", lambda: size) as advance:
                augment = _advancing(protecting_literals(augmenter), advance)
                sample = sample_operation(
                    operation, items, augment, indices=indices, seed=config.seed, read_ahead=_read_ahead(augmenter)
                )
        except SKIPPED_ERRORS as error:
            reason = f"{type(error).__name__}: {' '.join(str(error).split())}"
            if config.perturbations is None and not isinstance(error, RecipeError):
                context.say(f"  {operation:<22} skipped: its model or resource is not available ({reason})")
                continue
            if isinstance(error, SemparseError):
                raise
            raise ResourceError(
                f"Perturbation {operation!r} cannot run here: {reason.rstrip('.')}. Its model or resource is not "
                f"available (offline?); make it available or leave {operation!r} out of --perturbation. Nothing "
                "was written."
            ) from error
        samples.append(sample)
        tally = tallies[operation] = _tally(augmenter)
        note = (
            "" if len(sample.augmented) == size else f" (only {len(sample.augmented)} of the sample can be perturbed)"
        )
        judged = "" if tally is None else f"; meaning judge: {tally.describe()}"
        context.say(
            f"  {operation:<22} {len(sample.augmented):>5} augmented{note}; {sample.tried} tried, "
            f"{sample.unperturbable} with nothing to perturb, {sample.rejected} with every output rejected{judged}; "
            f"{time.monotonic() - started:.1f} s; {MDA_SETTING} rule: {rule}"
        )
    union: dict[int, list[str]] = {}
    files = []
    for sample in samples:
        for index, question in sample.augmented.items():
            union.setdefault(index, []).append(question)
        augmented = {index: [question] for index, question in sample.augmented.items()}
        path = outputs[sample.operation]
        written = _write(config, source, path, replaying(items, augmented))
        files.append(_augmented_file(path, written, sample.operation, len(sample.augmented), tallies[sample.operation]))
    written = _write(config, source, target, replaying(items, union))
    # Two operations may give one example the same question; the file functions write it once.
    added = sum(len(dict.fromkeys(questions)) for questions in union.values())
    files.append(_augmented_file(target, written, "union", added, _merged(tallies.values())))
    return AugmentResult(tuple(files), source.file_format)
