"""A small encoder-decoder parser trained from scratch on a benchmark, optionally with a defence
(docs/training.md).

Shuo Huang, Zhuang Li, Lizhen Qu and Lei Pan (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/, train their parsers with FGM, PGD and MDA (§4). FGM and
PGD, embedding-space adversarial training, are the trainer's ``adversary`` option
(:mod:`~textattack_semparse.training.embedding_adversary`). Two ways of adding training examples,
each with its source's gold output:

* ``augment``: meaning-preserving data augmentation (MDA): an augmented training file, or an
  augmentation recipe run here as the paper samples it ("20% of the original instances for each
  dataset", perturbed by each operation; :mod:`~textattack_semparse.experiments.augment`) into
  ``OUTPUT_DIR/augmented/``; or ``jia-liang-concat``, two random training examples concatenated
  (the baseline of the paper's RQ5), drawn here from the training examples;
* ``adversarial_from``: adversarial training from attack examples (not one of the paper's
  defences): the training questions attacked against an
  already trained parser (:mod:`~textattack_semparse.experiments.attack`, resumable, in
  ``OUTPUT_DIR/adversarial/``) and the successful adversarial questions added.

A Table QA benchmark (WTQ) is trained differently: :func:`run_table_qa` fine-tunes a pretrained
TAPEX/OmniTab-style model (:class:`~textattack_semparse.training.table_qa_trainer.TableQATrainer`)
on the training split or on an augmented WTQ file (RobuT's RTA or LeTA training data, Zhao et al.
2023, https://arxiv.org/abs/2306.14321).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.runs.seeding import DEFAULT_SEED

if TYPE_CHECKING:
    from textattack_semparse.datasets.example import SemparseExample
    from textattack_semparse.training.parser_trainer import ParserTrainer

@dataclass(frozen=True)
class TrainConfig:
    """What decides a trained parser.

    Args:
        benchmark: A registered benchmark (``textattack-semparse list benchmark``).
        output_dir: Where the model, tokenizer and checkpoints go.
        trainer_options: Keywords of :class:`~textattack_semparse.training.parser_trainer.ParserTrainer`
            (``split_type``, ``data_dir``, ``architecture``, ``d_model``, ``epochs``, ``seed``, ...).
        resume: Continue from the last checkpoint in ``output_dir``.
        augment: MDA: an augmented training file in the benchmark's format, or an augmentation
            recipe (``semparse-mda``) run here.
        adversarial_from: Adversarial training: a trained parser's directory to attack.
        adversarial_recipe: The attack (default ``semparse-<benchmark>`` when registered, else
            ``semparse-geo``).
        adversarial_examples: Attack only the first N training questions (``None``: all).
    """

    benchmark: str
    output_dir: str | os.PathLike[str]
    trainer_options: Mapping[str, Any] = field(default_factory=dict)
    resume: bool = False
    augment: str | None = None
    adversarial_from: str | None = None
    adversarial_recipe: str | None = None
    adversarial_examples: int | None = None

    def __post_init__(self) -> None:
        _check_benchmark_name(self.benchmark)
        if self.adversarial_examples is not None and self.adversarial_examples < 1:
            raise ConfigurationError(f"--adversarial-examples must be a positive integer, got {self.adversarial_examples}.")
        if self.adversarial_from is None and (self.adversarial_recipe or self.adversarial_examples):
            raise ConfigurationError("--adversarial-recipe and --adversarial-examples need --adversarial-from MODEL_DIR.")

    @property
    def seed(self) -> int:
        return int(self.trainer_options.get("seed", DEFAULT_SEED))

    @property
    def split_type(self) -> str:
        return str(self.trainer_options.get("split_type", "question"))


@dataclass(frozen=True)
class TableQATrainConfig:
    """What decides a fine-tuned Table QA model.

    Args:
        benchmark: A registered Table QA benchmark with a ``train`` split (``wtq``).
        base_model: Hub name or local directory of the TAPEX/OmniTab-style model to fine-tune.
        output_dir: Where the model, tokenizer and checkpoints go.
        trainer_options: Keywords of :class:`~textattack_semparse.training.table_qa_trainer.TableQATrainer`.
        augment: A WTQ-format file written by ``augment --dataset <benchmark>-train`` (originals and
            augmented rows, tables beside it): trained on instead of the training split.
        train_examples: Train on the first N examples of the training split (``None``: all);
            not with ``augment`` (limit the augmentation instead).
        data_dir: The real-data folder (``None``: ``SEMPARSE_DATA_DIR``).
        resume: Continue from the last checkpoint in ``output_dir``.
    """

    benchmark: str
    base_model: str
    output_dir: str | os.PathLike[str]
    trainer_options: Mapping[str, Any] = field(default_factory=dict)
    augment: str | os.PathLike[str] | None = None
    train_examples: int | None = None
    data_dir: str | os.PathLike[str] | None = None
    resume: bool = False

    def __post_init__(self) -> None:
        _check_benchmark_name(self.benchmark)
        if self.train_examples is not None and self.train_examples < 1:
            raise ConfigurationError(f"--train-examples must be a positive integer, got {self.train_examples}.")
        if self.train_examples is not None and self.augment is not None:
            raise ConfigurationError(
                "--train-examples limits the training split; with --augment FILE the file's rows are trained on "
                "(limit them with augment --num-examples)."
            )


def _check_benchmark_name(name: str) -> None:
    """An unknown benchmark fails here, naming the closest, before torch and transformers load (seconds)."""
    from textattack_semparse.registry import benchmark_key, get_registry

    get_registry().get("benchmark", benchmark_key(name))


def run_table_qa(config: TableQATrainConfig, context: RunContext | None = None) -> TrainResult:
    """Fine-tune the Table QA model of ``config`` on its training split (or augmented file) and save it."""
    from textattack_semparse.training.table_qa_trainer import TableQATrainer

    context = context or RunContext()
    if config.augment is not None:
        from textattack_semparse.datasets.wtq import load_wtq

        path = Path(config.augment)
        if not path.is_file():
            raise DatasetError(
                f"--augment {str(path)!r} is not a file: write one with textattack-semparse augment --recipe "
                f"robut-rta --dataset {config.benchmark}-train --output FILE."
            )
        examples = load_wtq(path, root=path.parent)
        source = str(path)
    else:
        from textattack_semparse.robustness.build_test_set import dataset_examples

        train_set = split_dataset(config.benchmark, "question", "train")
        if train_set is None:
            raise DatasetError(f"Benchmark {config.benchmark!r} has no registered training split to train on.")
        with _data_dir(config.data_dir):
            examples = dataset_examples(train_set, limit=config.train_examples)
        source = train_set if config.train_examples is None else f"the first {len(examples)} of {train_set}"
    context.say(f"Fine-tuning {config.base_model} on {len(examples)} examples ({source})")
    trainer = TableQATrainer(config.base_model, config.output_dir, **dict(config.trainer_options))
    report = trainer.train(examples, source=source, resume=config.resume)
    return TrainResult(report, split_dataset(config.benchmark, "question", "dev"))


@dataclass(frozen=True)
class TrainResult:
    """The trainer's report (``semparse_training.json``, ``table_qa_training.json``) and the
    registered split to evaluate the model on, if the benchmark has one."""

    report: dict[str, Any]
    test_set: str | None


def run(config: TrainConfig, context: RunContext | None = None) -> TrainResult:
    """Train the parser of ``config`` (with its defences' examples) and save it."""
    from textattack_semparse.training.parser_trainer import ParserTrainer

    context = context or RunContext()
    trainer = ParserTrainer(
        config.benchmark, config.output_dir, **{"seed": DEFAULT_SEED, **dict(config.trainer_options)}
    )
    extras, sources = defence_examples(config, trainer, context)
    if extras:
        trainer.extra_train_examples = tuple(extras)
        trainer.extra_source = "; ".join(sources)
    report = trainer.train(resume=config.resume)
    return TrainResult(report, split_dataset(config.benchmark, config.split_type, "test"))


def defence_examples(
    config: TrainConfig, trainer: ParserTrainer, context: RunContext
) -> tuple[list[SemparseExample], list[str]]:
    """The examples ``augment`` and ``adversarial_from`` add, and where each set came from."""
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.registry import augmentation_recipe_class, combines_examples, get_registry
    from textattack_semparse.training.defences import augmented_examples

    extras: list[SemparseExample] = []
    sources: list[str] = []
    if config.augment is None and config.adversarial_from is None:
        return extras, sources
    data_dir = config.trainer_options.get("data_dir")
    benchmark = load_benchmark(config.benchmark, data_dir=data_dir)
    originals = trainer.splits()[0]
    if config.augment is not None:
        path = Path(config.augment)
        recipe = not path.is_file() and ("augmentation-recipe", config.augment) in get_registry()
        if recipe and combines_examples(augmentation_recipe_class(config.augment)):
            # drawn from the training examples left after the held-out dev slice, so no dev question leaks in
            added = augmentation_recipe_class(config.augment)(seed=config.seed).augment_examples(originals)
            source = f"{config.augment} of {len(originals)} training examples"
        else:
            if recipe:
                path = _augmented_training_file(config, context)
            added = augmented_examples(path, benchmark, originals, split_type=config.split_type)
            source = str(path)
        extras += added
        sources.append(f"{len(added)} from {source}")
        context.say(f"--augment: {len(added)} augmented questions from {source}")
    if config.adversarial_from is not None:
        adversarial_recipe = config.adversarial_recipe or default_recipe(benchmark.name)
        added = _adversarial_examples(config, adversarial_recipe, originals, context)
        extras += added
        sources.append(f"{len(added)} adversarial ({adversarial_recipe} against {config.adversarial_from})")
        context.say(f"--adversarial-from: {len(added)} adversarial questions found")
    return extras, sources


def _augmented_training_file(config: TrainConfig, context: RunContext) -> Path:
    """Run the augmentation recipe ``config.augment`` on the training split as Huang et al.
    sample it, into ``OUTPUT_DIR/augmented/`` (reused when already there)."""
    from textattack_semparse.augmentation.per_operation import SAMPLE_FRACTION_HUANG_2021
    from textattack_semparse.experiments import augment

    train_set = split_dataset(config.benchmark, config.split_type, "train")
    if train_set is None:
        raise DatasetError(f"Benchmark {config.benchmark!r} has no registered training split to augment.")
    target = Path(config.output_dir) / "augmented" / f"{train_set}-{config.augment}.json"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        augmentation = augment.AugmentConfig(
            recipe=str(config.augment), dataset=train_set, output=target, sample=SAMPLE_FRACTION_HUANG_2021, seed=config.seed
        )
        with _data_dir(config.trainer_options.get("data_dir")):
            augment.run(augmentation, context)
    return target


def _adversarial_examples(
    config: TrainConfig, recipe: str, originals: list[SemparseExample], context: RunContext
) -> list[SemparseExample]:
    """Attack the training questions (the first ``adversarial_examples`` of them) against the
    parser ``adversarial_from``, resumably in ``OUTPUT_DIR/adversarial/<recipe>``; the
    successful adversarial questions, each with its source's gold."""
    from textattack_semparse.experiments import attack
    from textattack_semparse.training.defences import adversarial_rewrites

    train_set = split_dataset(config.benchmark, config.split_type, "train")
    if train_set is None:
        raise DatasetError(f"Benchmark {config.benchmark!r} has no registered training split to attack.")
    with _data_dir(config.trainer_options.get("data_dir")):
        from textattack_semparse.victims.resolution import load_dataset

        dataset = load_dataset(train_set)
        kept = {(example.question, example.gold) for example in originals}  # not a held-out dev slice
        indices = [index for index, example in enumerate(dataset.examples) if (example.question, example.gold) in kept]
        indices = indices[: config.adversarial_examples] if config.adversarial_examples else indices
        context.say(
            f"--adversarial-from: attacking {len(indices)} training questions with {recipe} against "
            f"{config.adversarial_from}"
        )
        attack_config = attack.AttackConfig(
            recipe=recipe,
            model=str(config.adversarial_from),
            dataset=train_set,
            output_dir=Path(config.output_dir) / "adversarial" / recipe,
            indices=tuple(indices),
            seed=config.seed,
        )
        outcome = attack.run(attack_config, context)
    return adversarial_rewrites(outcome.results, [dataset.examples[index] for index in indices])


@contextlib.contextmanager
def _data_dir(data_dir: str | os.PathLike[str] | None) -> Iterator[None]:
    """``SEMPARSE_DATA_DIR`` set to ``data_dir`` while registered datasets are read and attacked
    (they, and Ray workers, find the real data through it); as it was afterwards."""
    from textattack_semparse.datasets.data_dir import DATA_DIR_ENV

    if data_dir is None:
        yield
        return
    before = os.environ.get(DATA_DIR_ENV)
    os.environ[DATA_DIR_ENV] = str(data_dir)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(DATA_DIR_ENV, None)
        else:
            os.environ[DATA_DIR_ENV] = before


def default_recipe(benchmark: str) -> str:
    """``semparse-<benchmark>`` when registered, else ``semparse-geo``."""
    from textattack_semparse.registry import get_registry

    bound = f"semparse-{benchmark}"
    return bound if ("attack-recipe", bound) in get_registry() else "semparse-geo"


def split_dataset(benchmark: str, split_type: str, split: str) -> str | None:
    """The registered dataset name of one split of the benchmark (``geo-lambda-test``,
    ``geo-question-train``); ``None`` when the benchmark has no such split.

    Example:
        >>> split_dataset("geo", "question", "train"), split_dataset("geo-mini", "query", "valid")
        ('geo-question-train', None)
    """
    from textattack_semparse.registry import benchmark_key, dataset_name, get_registry

    key = benchmark_key(benchmark)
    splits = get_registry().get("benchmark", key).splits
    return dataset_name(key, splits, split_type, split) if split in splits.get(split_type, ()) else None
