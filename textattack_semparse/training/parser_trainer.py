"""Training a small encoder-decoder semantic parser from scratch on a registered benchmark."""

from __future__ import annotations

import json
import logging
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import transformers

from textattack_semparse.arguments import check_choice, check_count
from textattack_semparse.datasets.benchmark import Benchmark, load_benchmark
from textattack_semparse.datasets.entity_anonymization import EntityAnonymizer
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, DatasetError, SemparseError
from textattack_semparse.runs.seeding import DEFAULT_SEED
from textattack_semparse.scoring.scorer import Scorer
from textattack_semparse.torch_device import resolve_device
from textattack_semparse.training import defaults
from textattack_semparse.training.embedding_adversary import EmbeddingAdversary
from textattack_semparse.training.recombination import recombined_pairs
from textattack_semparse.training.tokenizer import TOKENIZER_KINDS, train_tokenizer
from textattack_semparse.victims.output_grammar import OutputGrammar
from textattack_semparse.victims.reconstruction_reranker import RECONSTRUCTION_DIR

logger = logging.getLogger(__name__)

CHECKPOINT_FOLDER = "checkpoints"
"""Sub-folder of the output directory where the trainer keeps its epoch checkpoints."""

SELECTION_METRIC = "selection"
"""Dev exact match, ties broken by dev loss (``LOSS_WEIGHT`` times the teacher-forced loss is
subtracted): exact match stays 0 for the first epochs of a model trained from scratch (its outputs
do not yet stop), and early stopping on exact match alone ends the run there."""

LOSS_WEIGHT = 1e-4
"""Small enough that one more exact match on a dev set of up to a thousand examples outweighs any
loss difference below 10 nats per token."""

NO_DEV = "none: every training example, the last epoch kept"
"""The report's ``dev_source`` when ``dev_selection`` is off."""

TRAINING_FILE = "semparse_training.json"
"""What the output directory was trained on, with which settings, and how it did on dev."""


ARCHITECTURES: dict[str, type] = {
    "t5": transformers.T5ForConditionalGeneration,
    "bart": transformers.BartForConditionalGeneration,
}
"""``--architecture`` name -> model class (built from a small config, randomly initialised)."""


class _OrderedEvaluationTrainer(transformers.Seq2SeqTrainer):
    """``Seq2SeqTrainer`` that evaluates in example order. With ``group_by_length`` (used here for
    training batches) transformers 4.57 also reorders evaluation, and dev predictions are compared
    with the gold strings by position."""

    def _get_eval_sampler(self, eval_dataset: Any) -> Any:
        return torch.utils.data.SequentialSampler(eval_dataset)


class _EmbeddingAdversarialTrainer(_OrderedEvaluationTrainer):
    """The same trainer with an FGM or PGD training loss (:class:`EmbeddingAdversary`): each training
    batch's loss is ``L(e) + L(e + r)``; evaluation keeps the plain loss."""

    def __init__(self, *args: Any, adversary: EmbeddingAdversary, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.adversary = adversary

    def compute_loss(
        self, model: Any, inputs: dict[str, Any], return_outputs: bool = False, num_items_in_batch: Any = None
    ) -> Any:
        if return_outputs or not model.training:
            return super().compute_loss(model, inputs, return_outputs=return_outputs, num_items_in_batch=num_items_in_batch)
        plain_loss = super().compute_loss
        return self.adversary.training_loss(
            model, inputs, lambda batch: plain_loss(model, batch, num_items_in_batch=num_items_in_batch)
        )


class _SelectionMetric(transformers.TrainerCallback):
    """Adds ``eval_selection`` (:data:`SELECTION_METRIC`) to the dev metrics before the trainer
    and early stopping read them (``compute_metrics`` does not see the dev loss)."""

    def on_evaluate(self, args: Any, state: Any, control: Any, metrics: dict[str, float] | None = None, **kwargs: Any) -> None:
        if metrics is not None and "eval_exact_match" in metrics and "eval_loss" in metrics:
            metrics[f"eval_{SELECTION_METRIC}"] = metrics["eval_exact_match"] - LOSS_WEIGHT * metrics["eval_loss"]


class _ProgressWithDevAccuracy(transformers.ProgressCallback):
    """The training progress bar, with the last training loss and dev exact match beside it."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: dict[str, str] = {}

    def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, float] | None = None, **kwargs: Any) -> None:
        if state.is_world_process_zero and self.training_bar is not None and logs:
            if "loss" in logs:
                self._shown["loss"] = f"{logs['loss']:.3f}"
            if "eval_exact_match" in logs:
                self._shown["dev_exact_match"] = f"{logs['eval_exact_match']:.1%}"
            self.training_bar.set_postfix(self._shown, refresh=False)
        super().on_log(args, state, control, logs=logs, **kwargs)


@dataclass(frozen=True)
class _TrainingData:
    """The examples of one training run and the (model input, target) pairs made from them."""

    train_examples: list[SemparseExample]
    extra_count: int
    recombined_count: int
    dev_examples: list[SemparseExample]
    dev_source: str
    anonymizer: EntityAnonymizer | None
    train_pairs: list[tuple[str, str]]
    dev_pairs: list[tuple[str, str]]
    scorer: Scorer

    @property
    def question_pairs(self) -> list[tuple[str, str]]:
        """The training pairs made from training examples (the recombined ones left out)."""
        return self.train_pairs[: len(self.train_pairs) - self.recombined_count]

    @property
    def dev_golds(self) -> list[str]:
        """The dev targets the greedy decodings are compared with, in example order."""
        return [gold for _, gold in self.dev_pairs]


def _dev_metrics(tokenizer: Any, golds: list[str], scorer: Scorer) -> Callable[[Any], dict[str, float]]:
    """``compute_metrics`` for the trainer: dev exact match and token similarity of the decodings,
    compared as the benchmark's ``scorer`` compares texts (its :meth:`~Scorer.distance`)."""

    def compute_metrics(prediction: Any) -> dict[str, float]:
        ids = prediction.predictions
        ids = ids[0] if isinstance(ids, tuple) else ids
        ids = ids.copy()
        ids[ids < 0] = tokenizer.pad_token_id
        decoded = tokenizer.batch_decode(ids, skip_special_tokens=True)
        distances = [scorer.distance(text, gold) for text, gold in zip(decoded, golds)]
        return {
            "exact_match": sum(distance == 0.0 for distance in distances) / len(golds),
            "token_similarity": 1.0 - sum(distances) / len(golds),
        }

    return compute_metrics


def _best_dev_metrics(state: transformers.TrainerState) -> dict[str, Any]:
    """The dev evaluation logged at the selected (best) checkpoint; empty when none was selected."""
    best_step = None if state.best_model_checkpoint is None else int(state.best_model_checkpoint.rsplit("-", 1)[-1])
    return next(
        (entry for entry in state.log_history if "eval_exact_match" in entry and entry["step"] == best_step),
        {},
    )


class ParserTrainer:
    """Trains a ``T5ForConditionalGeneration`` or ``BartForConditionalGeneration`` (random init,
    small config) on one benchmark split.

    The tokenizer is fitted on the training questions and gold outputs (:func:`train_tokenizer`);
    inputs are the questions, targets the gold SQL or logical forms. Training runs through
    ``transformers``' ``Seq2SeqTrainer``: AdamW with linear warm-up and decay, evaluation on the
    dev split after every epoch by greedy decoding (dev exact match as the benchmark compares outputs, ties
    broken by dev loss, selects the model), batches of similar input length (less padding), early stopping after ``patience`` epochs without improvement, the
    best model restored at the end, epoch checkpoints under ``<output_dir>/checkpoints``
    (``resume=True`` continues from the last one). Benchmarks without a dev split
    (``geo-lambda``) hold out a seeded ``dev_fraction`` of the training split. On CUDA it
    trains in mixed precision (bfloat16 where supported, else float16); on CPU in float32.

    The output directory is a standard Hugging Face directory (model, generation config,
    tokenizer) that ``--model DIR`` loads as a :class:`~textattack_semparse.victims.seq2seq_parser.Seq2SeqParser`.
    With ``anonymize=True`` (the studies' setting) the model is trained on questions and
    outputs whose entities are typed placeholders (:class:`EntityAnonymizer`, saved beside the
    model and applied around it by ``Seq2SeqParser``), so execution scoring still sees real values.

    Original to textattack-semparse. The default sizes are small (a few million parameters) and
    train on 2 CPU cores in minutes; Huang et al. (2021) give no sizes for the parsers they train
    (SEQ2SEQ, COARSE2FINE, TRANX, with "the best settings" of their authors).

    Args:
        benchmark (str): A registered benchmark (``textattack-semparse list benchmark``).
        output_dir (str | os.PathLike): Where the model, tokenizer and checkpoints go.
        split_type (str, default "question"): ``"question"`` or ``"query"`` split.
        data_dir (str | os.PathLike | None, default None): The real-data folder; default
            ``$SEMPARSE_DATA_DIR``.
        architecture (str, default "bart"): ``"t5"`` (T5: relative position buckets, ReLU FFN) or
            ``"bart"`` (BART: learned positions, GELU FFN).
        tokenizer_kind (str, default "word"): ``"word"`` or ``"bpe"`` (:func:`train_tokenizer`).
        d_model (int, default 128): Hidden size.
        d_ff (int, default 512): Feed-forward size.
        num_layers (int, default 2): Encoder layers (and as many decoder layers).
        num_heads (int, default 4): Attention heads.
        dropout (float, default 0.1): Dropout rate.
        label_smoothing (float, default 0.0): Label smoothing of the training loss (``Seq2SeqTrainer``'s
            ``label_smoothing_factor``, which smooths the dev loss too); a trained victim's loss stays
            plain cross-entropy.
        epochs (int, default 100): Most training epochs.
        max_steps (int, default -1): Stop after this many optimiser steps (-1: ``epochs`` decides).
        batch_size (int, default 32): Training (and evaluation) batch size.
        learning_rate (float, default 1e-3): Peak learning rate.
        warmup_steps (int, default 200): Linear warm-up steps.
        patience (int, default 10): Epochs without dev improvement before stopping.
        dev_fraction (float, default 0.1): Share of the training split held out as dev when
            the benchmark has no dev split.
        recombined_examples (int, default 0; geo-lambda 600): Training pairs added by whole-phrase
            recombination of the anonymised training pairs
            (:func:`~textattack_semparse.training.recombination.recombined_pairs`, Jia & Liang 2016),
            seeded by ``seed``; none without typed placeholders to recombine.
        reconstruction_epochs (int, default 0; geo-lambda 40): Epochs of a
            reconstruction model trained after the parser, with the same settings, on the training
            questions' pairs turned around (output -> question; recombined pairs left out) and saved
            in ``<output_dir>/reconstruction`` (checkpoints under its ``checkpoints``); the parser
            then reranks a beam of ten with it
            (:class:`~textattack_semparse.victims.reconstruction_reranker.ReconstructionReranker`). 0: none.
        max_length (int, default 512): Most tokens per input or target (longer ones are truncated).
        seed (int, default 0, the package's default seed): Seeds the held-out slice, initialisation and data
            order.
        device (str | None, default None): ``"cpu"`` forces the CPU; ``None`` uses CUDA when present.
        save_total_limit (int, default 2): Most epoch checkpoints kept (the best is never deleted).
        anonymize (bool, default True): Train on entity-anonymised questions and outputs
            (Dong & Lapata 2016; Finegan-Dollak et al. 2018).
        extra_train_examples (Sequence[SemparseExample], default ()): Added to the training
            split: a defence's rewrites (:mod:`textattack_semparse.training.defences`).
        extra_source (str | None, default None): Where they came from, for the report.
        adversary (str | None, default None): ``"fgm"`` or ``"pgd"``: embedding-space adversarial
            training (:class:`~textattack_semparse.training.embedding_adversary.EmbeddingAdversary`);
            ``None``: plain training.
        adversary_epsilon (float, default 1.0): The perturbation's radius ε.
        adversary_alpha (float, default 0.3): PGD's step size α.
        adversary_steps (int, default 3): PGD's number of steps K.

    Example:
        >>> trainer = ParserTrainer("geo-mini", "/tmp/t5-geo-mini", d_model=16, num_layers=1)
        >>> trainer.benchmark, trainer.split_type
        ('geo-mini', 'question')
    """

    def __init__(
        self,
        benchmark: str,
        output_dir: str | os.PathLike[str],
        *,
        split_type: str = "question",
        data_dir: str | os.PathLike[str] | None = None,
        architecture: str | None = None,
        tokenizer_kind: str = "word",
        d_model: int | None = None,
        d_ff: int | None = None,
        num_layers: int | None = None,
        num_heads: int | None = None,
        dropout: float | None = None,
        label_smoothing: float | None = None,
        epochs: int | None = None,
        max_steps: int = -1,
        batch_size: int | None = None,
        learning_rate: float | None = None,
        warmup_steps: int | None = None,
        patience: int | None = None,
        dev_fraction: float | None = None,
        dev_selection: bool | None = None,
        num_beams: int | None = None,
        recombined_examples: int | None = None,
        reconstruction_epochs: int | None = None,
        max_length: int = 512,
        seed: int = DEFAULT_SEED,
        device: str | None = None,
        save_total_limit: int = 2,
        anonymize: bool = True,
        extra_train_examples: Sequence[SemparseExample] = (),
        extra_source: str | None = None,
        adversary: str | None = None,
        adversary_epsilon: float = defaults.ADVERSARY_EPSILON,
        adversary_alpha: float = defaults.ADVERSARY_ALPHA,
        adversary_steps: int = defaults.ADVERSARY_STEPS,
    ) -> None:
        if split_type not in ("question", "query"):
            raise ConfigurationError(f"split_type must be 'question' or 'query', got {split_type!r}.")
        chosen = defaults.for_benchmark(benchmark).overridden(
            architecture=architecture,
            d_model=d_model,
            d_ff=d_ff,
            num_layers=num_layers,
            num_heads=num_heads,
            dropout=dropout,
            label_smoothing=label_smoothing,
            epochs=epochs,
            batch_size=batch_size,
            learning_rate=learning_rate,
            warmup_steps=warmup_steps,
            patience=patience,
            dev_fraction=dev_fraction,
            dev_selection=dev_selection,
            num_beams=num_beams,
            recombined_examples=recombined_examples,
            reconstruction_epochs=reconstruction_epochs,
        )
        architecture, d_model, d_ff, num_layers = chosen.architecture, chosen.d_model, chosen.d_ff, chosen.num_layers
        num_heads, dropout, epochs, batch_size = chosen.num_heads, chosen.dropout, chosen.epochs, chosen.batch_size
        learning_rate, warmup_steps, patience = chosen.learning_rate, chosen.warmup_steps, chosen.patience
        dev_fraction, dev_selection, num_beams = chosen.dev_fraction, chosen.dev_selection, chosen.num_beams
        label_smoothing, recombined_examples = chosen.label_smoothing, chosen.recombined_examples
        reconstruction_epochs = chosen.reconstruction_epochs
        check_choice("architecture", architecture, ARCHITECTURES)
        check_choice("tokenizer_kind", tokenizer_kind, TOKENIZER_KINDS)
        for name, value in (
            ("d_model", d_model),
            ("d_ff", d_ff),
            ("num_layers", num_layers),
            ("num_heads", num_heads),
            ("epochs", epochs),
            ("batch_size", batch_size),
            ("max_length", max_length),
            ("save_total_limit", save_total_limit),
            ("patience", patience),
            ("num_beams", num_beams),
        ):
            check_count(name, value)
        check_count("recombined_examples", recombined_examples, minimum=0)
        check_count("reconstruction_epochs", reconstruction_epochs, minimum=0)
        if d_model % num_heads:
            raise ConfigurationError(f"d_model ({d_model}) must be a multiple of num_heads ({num_heads}).")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps == 0 or max_steps < -1:
            raise ConfigurationError(f"max_steps must be a positive int or -1, got {max_steps!r}.")
        if not 0.0 < dev_fraction < 1.0:
            raise ConfigurationError(f"dev_fraction must be in (0, 1), got {dev_fraction!r}.")
        for name, rate in (("dropout", dropout), ("label_smoothing", label_smoothing)):
            if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate < 1.0:
                raise ConfigurationError(f"{name} must be in [0, 1), got {rate!r}.")
        if not learning_rate > 0:
            raise ConfigurationError(f"learning_rate must be positive, got {learning_rate!r}.")
        check_count("warmup_steps", warmup_steps, minimum=0)
        if not isinstance(dev_selection, bool):
            raise ConfigurationTypeError(f"dev_selection must be a bool, got {dev_selection!r}.")
        self.benchmark = benchmark
        self.output_dir = str(output_dir)
        self.split_type = split_type
        self.data_dir = None if data_dir is None else str(data_dir)
        self.architecture = architecture
        self.tokenizer_kind = tokenizer_kind
        self.d_model = d_model
        self.d_ff = d_ff
        self.num_layers = num_layers
        self.num_heads = num_heads
        self.dropout = dropout
        self.label_smoothing = label_smoothing
        self.epochs = epochs
        self.max_steps = max_steps
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.patience = patience
        self.dev_fraction = dev_fraction
        self.dev_selection = dev_selection
        self.num_beams = num_beams
        self.recombined_examples = recombined_examples
        self.reconstruction_epochs = reconstruction_epochs
        self.max_length = max_length
        self.seed = seed
        self.device = resolve_device(device)
        self.save_total_limit = save_total_limit
        if not isinstance(anonymize, bool):
            raise ConfigurationTypeError(f"anonymize must be a bool, got {anonymize!r}.")
        self.anonymize = anonymize
        self.extra_train_examples = tuple(extra_train_examples)
        self.extra_source = extra_source
        self.embedding_adversary = (
            None
            if adversary is None
            else EmbeddingAdversary(adversary, epsilon=adversary_epsilon, alpha=adversary_alpha, steps=adversary_steps)
        )
        self.adversary = adversary
        self.adversary_epsilon = adversary_epsilon
        self.adversary_alpha = adversary_alpha
        self.adversary_steps = adversary_steps

    def extra_repr_keys(self) -> list[str]:
        return [
            "benchmark",
            "output_dir",
            "split_type",
            "architecture",
            "tokenizer_kind",
            "d_model",
            "d_ff",
            "num_layers",
            "num_heads",
            "dropout",
            *(["label_smoothing"] if self.label_smoothing else []),
            "epochs",
            "max_steps",
            "batch_size",
            "learning_rate",
            "warmup_steps",
            "patience",
            "dev_fraction",
            "dev_selection",
            "num_beams",
            *(["recombined_examples"] if self.recombined_examples else []),
            *(["reconstruction_epochs"] if self.reconstruction_epochs else []),
            "max_length",
            "seed",
            "device",
            "save_total_limit",
            "anonymize",
            "extra_source",
            "data_dir",
            *self._adversary_keys(),
        ]

    def _adversary_keys(self) -> list[str]:
        """The adversarial-training settings that apply (none for plain training, so its settings,
        report and trained-victim hash stay as they were)."""
        if self.embedding_adversary is None:
            return []
        return ["adversary", *(f"adversary_{name}" for name in self.embedding_adversary.settings() if name != "method")]

    def __repr__(self) -> str:
        settings = ", ".join(f"{key}={getattr(self, key)!r}" for key in self.extra_repr_keys())
        return f"{type(self).__name__}({settings})"

    @property
    def checkpoint_dir(self) -> Path:
        """Where the epoch checkpoints go."""
        return Path(self.output_dir) / CHECKPOINT_FOLDER

    @property
    def reconstruction_checkpoint_dir(self) -> Path:
        """Where the reconstruction model's epoch checkpoints go (``reconstruction_epochs``)."""
        return Path(self.output_dir) / RECONSTRUCTION_DIR / "checkpoints"

    def splits(self) -> tuple[list[SemparseExample], list[SemparseExample], str]:
        """The training and dev examples, and where dev came from (``"dev"`` or a held-out slice)."""
        benchmark = self._load_benchmark()
        train = benchmark.split(self.split_type, "train")
        if not self.dev_selection:
            return train, [], NO_DEV
        try:
            return train, benchmark.split(self.split_type, "dev"), "dev"
        except DatasetError:
            pass
        order = list(range(len(train)))
        random.Random(self.seed).shuffle(order)
        held_out = max(1, round(len(train) * self.dev_fraction))
        if held_out >= len(train):
            raise DatasetError(
                f"Benchmark {self.benchmark!r} has {len(train)} training example(s) and no dev split; "
                "too few to hold a dev slice out."
            )
        dev_indices = set(order[:held_out])
        return (
            [example for index, example in enumerate(train) if index not in dev_indices],
            [example for index, example in enumerate(train) if index in dev_indices],
            f"{held_out} held-out training examples (seed {self.seed})",
        )

    def training_examples(self) -> tuple[list[SemparseExample], list[SemparseExample], str]:
        """:meth:`splits` with ``extra_train_examples`` added to train. When dev is a held-out
        slice of train, extra examples with the gold of a dev example are left out (they are
        rewrites of dev questions, or too close to them)."""
        train, dev, dev_source = self.splits()
        return train + self._kept_extras(dev, dev_source), dev, dev_source

    def _kept_extras(self, dev: list[SemparseExample], dev_source: str) -> list[SemparseExample]:
        if dev_source == "dev":
            return list(self.extra_train_examples)
        dev_golds = {example.gold for example in dev}
        return [example for example in self.extra_train_examples if example.gold not in dev_golds]

    def train(self, *, resume: bool = False) -> dict[str, Any]:
        """Train, save the best model and its tokenizer to ``output_dir``, and report.

        Returns:
            dict: The settings, the example counts, the steps and epochs run, the best dev
            exact match and the wall-clock seconds (also written to ``semparse_training.json``).

        Raises:
            SemparseError: ``resume=True`` but ``output_dir`` holds no checkpoint.
            DatasetError: The benchmark or split cannot be loaded.
        """
        started = time.perf_counter()
        data = self._training_data()
        last_checkpoint = self._last_checkpoint() if resume else None
        tokenizer = self._tokenizer(data.train_pairs, last_checkpoint)
        train_features = self._features(tokenizer, data.train_pairs)
        dev_features = self._features(tokenizer, data.dev_pairs)
        generation_length = max(len(feature["labels"]) for feature in train_features + dev_features) + 16
        model = self._model(tokenizer, generation_length)
        trainer = self._trainer(model, tokenizer, train_features, dev_features, data, generation_length)
        result = trainer.train(resume_from_checkpoint=last_checkpoint)
        self._save_output(trainer.model, tokenizer, data)
        report = self._report(data, trainer.model, trainer.state, result.training_loss, len(tokenizer), last_checkpoint)
        if self.reconstruction_epochs:
            report["reconstruction"] = self._train_reconstruction(tokenizer, data, resume=resume)
        report["seconds"] = round(time.perf_counter() - started, 1)
        (Path(self.output_dir) / TRAINING_FILE).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        return report

    def _training_data(self) -> _TrainingData:
        """The examples to train and select on, with the anonymiser fitted on the training ones."""
        split_train, dev_examples, dev_source = self.splits()
        extras = self._kept_extras(dev_examples, dev_source)
        train_examples = split_train + extras
        benchmark = self._load_benchmark()
        anonymizer = (
            EntityAnonymizer.fit(
                train_examples, database=benchmark.database, known_constants=benchmark.known_constants
            )
            if self.anonymize
            else None
        )
        train_pairs = self._pairs(anonymizer, train_examples)
        recombined = recombined_pairs(train_pairs, self.recombined_examples, seed=self.seed)
        if self.recombined_examples and not recombined:
            logger.warning(
                "recombined_examples=%d made no pairs: recombination puts a phrase where a placeholder of its type "
                "stands, reading types from the logical forms' annotations (JOBS' and SQL have none) and "
                "placeholders from anonymisation; training on the %d training pairs alone.",
                self.recombined_examples,
                len(train_pairs),
            )
        return _TrainingData(
            train_examples=train_examples,
            extra_count=len(extras),
            recombined_count=len(recombined),
            dev_examples=dev_examples,
            dev_source=dev_source,
            anonymizer=anonymizer,
            train_pairs=train_pairs + recombined,
            dev_pairs=self._pairs(anonymizer, dev_examples),
            scorer=benchmark.scoring.scorer,
        )

    def _last_checkpoint(self) -> str:
        """The newest epoch checkpoint under :attr:`checkpoint_dir`, for ``resume=True``."""
        from transformers.trainer_utils import get_last_checkpoint

        last_checkpoint = get_last_checkpoint(str(self.checkpoint_dir)) if self.checkpoint_dir.is_dir() else None
        if last_checkpoint is None:
            raise SemparseError(
                f"--resume: no checkpoint under {str(self.checkpoint_dir)!r}; train without --resume first."
            )
        return last_checkpoint

    def _tokenizer(self, train_pairs: list[tuple[str, str]], last_checkpoint: str | None) -> Any:
        """The checkpoint's tokenizer when resuming, else one fitted on the training pairs."""
        if last_checkpoint is not None:
            return transformers.PreTrainedTokenizerFast.from_pretrained(last_checkpoint)
        return train_tokenizer(
            (text for pair in train_pairs for text in pair),
            kind=self.tokenizer_kind,
            model_max_length=self.max_length,
        )

    def _model(self, tokenizer: Any, generation_length: int) -> Any:
        """The model, randomly initialised from ``seed``, decoding greedily up to ``generation_length``."""
        transformers.set_seed(self.seed)
        model = ARCHITECTURES[self.architecture](self._config(tokenizer))
        model.generation_config = transformers.GenerationConfig(
            decoder_start_token_id=model.config.decoder_start_token_id,
            pad_token_id=tokenizer.pad_token_id,
            eos_token_id=tokenizer.eos_token_id,
            max_length=generation_length,
            num_beams=self.num_beams,
            do_sample=False,
        )
        return model

    def _trainer(
        self,
        model: Any,
        tokenizer: Any,
        train_features: list[dict[str, list[int]]],
        dev_features: list[dict[str, list[int]]],
        data: _TrainingData,
        generation_length: int,
        *,
        reconstruction: bool = False,
    ) -> transformers.Seq2SeqTrainer:
        """The epoch loop: with dev selection, dev evaluation after each epoch, early stopping and
        the best model kept; without, every epoch trained and the last model kept. The
        ``reconstruction`` model's loop trains ``reconstruction_epochs`` without dev selection or
        an embedding adversary."""
        arguments = self._training_arguments(generation_length, reconstruction=reconstruction)
        selection = (
            {
                "eval_dataset": dev_features,
                "compute_metrics": _dev_metrics(tokenizer, data.dev_golds, data.scorer),
                "callbacks": [
                    _SelectionMetric(),
                    transformers.EarlyStoppingCallback(early_stopping_patience=self.patience),
                ],
            }
            if self.dev_selection and not reconstruction
            else {}
        )
        adversarial: dict[str, Any] = {}
        trainer_class: type[_OrderedEvaluationTrainer] = _OrderedEvaluationTrainer
        if self.embedding_adversary is not None and not reconstruction:
            trainer_class, adversarial = _EmbeddingAdversarialTrainer, {"adversary": self.embedding_adversary}
        trainer = trainer_class(
            **adversarial,
            model=model,
            args=arguments,
            train_dataset=train_features,
            data_collator=transformers.DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100),
            processing_class=tokenizer,
            **selection,
        )
        if not arguments.disable_tqdm:
            trainer.remove_callback(transformers.ProgressCallback)
            trainer.add_callback(_ProgressWithDevAccuracy())
        return trainer

    def _training_arguments(
        self, generation_length: int, *, reconstruction: bool = False
    ) -> transformers.Seq2SeqTrainingArguments:
        """The ``Seq2SeqTrainer`` settings: optimiser, schedule, epoch checkpoints, model selection,
        precision (the ``reconstruction`` model's: its epochs and checkpoints, no selection)."""
        cuda = self.device.startswith("cuda")
        bf16 = cuda and torch.cuda.is_bf16_supported()
        select = self.dev_selection and not reconstruction
        return transformers.Seq2SeqTrainingArguments(
            output_dir=str(self.reconstruction_checkpoint_dir if reconstruction else self.checkpoint_dir),
            num_train_epochs=self.reconstruction_epochs if reconstruction else self.epochs,
            max_steps=self.max_steps,
            per_device_train_batch_size=self.batch_size,
            per_device_eval_batch_size=self.batch_size,
            group_by_length=True,
            learning_rate=self.learning_rate,
            warmup_steps=self.warmup_steps,
            lr_scheduler_type="linear",
            weight_decay=0.01,
            label_smoothing_factor=self.label_smoothing,
            eval_strategy="epoch" if select else "no",
            save_strategy="epoch",
            logging_strategy="epoch",
            save_total_limit=self.save_total_limit,
            load_best_model_at_end=select,
            metric_for_best_model=SELECTION_METRIC if select else None,
            greater_is_better=True if select else None,
            predict_with_generate=True,
            generation_max_length=generation_length,
            generation_num_beams=1,
            seed=self.seed,
            data_seed=self.seed,
            use_cpu=not cuda,
            bf16=bf16,
            fp16=cuda and not bf16,
            report_to="none",
            remove_unused_columns=False,
            dataloader_num_workers=0,
            save_safetensors=True,
        )

    def _train_reconstruction(self, tokenizer: Any, data: _TrainingData, *, resume: bool) -> dict[str, Any]:
        """Train the reconstruction model on the training questions' pairs turned around (output ->
        question), from its last checkpoint with ``resume`` when it has one, and save it with the
        parser's tokenizer in :data:`~textattack_semparse.victims.reconstruction_reranker.RECONSTRUCTION_DIR`;
        its epochs, steps and training loss."""
        from transformers.trainer_utils import get_last_checkpoint

        features = self._features(tokenizer, [(target, question) for question, target in data.question_pairs])
        generation_length = max(len(feature["labels"]) for feature in features) + 16
        model = self._model(tokenizer, generation_length)
        trainer = self._trainer(model, tokenizer, features, [], data, generation_length, reconstruction=True)
        checkpoints = self.reconstruction_checkpoint_dir
        last_checkpoint = get_last_checkpoint(str(checkpoints)) if resume and checkpoints.is_dir() else None
        result = trainer.train(resume_from_checkpoint=last_checkpoint)
        location = Path(self.output_dir) / RECONSTRUCTION_DIR
        trainer.model.save_pretrained(location)
        tokenizer.save_pretrained(location)
        return {
            "epochs_run": trainer.state.epoch,
            "global_step": trainer.state.global_step,
            "training_loss": result.training_loss,
        }

    def _save_output(self, model: Any, tokenizer: Any, data: _TrainingData) -> None:
        """Write the best model, its tokenizer, the anonymiser and (logical forms with a word-level
        vocabulary) the training outputs' grammar, which the parser decodes with, to ``output_dir``."""
        output_dir = Path(self.output_dir)
        model.save_pretrained(output_dir)
        tokenizer.save_pretrained(output_dir)
        if data.anonymizer is not None:
            data.anonymizer.save(output_dir)
        grammar = (
            OutputGrammar.fit((target for _, target in data.train_pairs), (question for question, _ in data.train_pairs))
            if self.tokenizer_kind == "word"
            else None
        )
        if grammar is not None:
            grammar.save(output_dir)

    def _report(
        self,
        data: _TrainingData,
        model: Any,
        state: transformers.TrainerState,
        training_loss: float,
        vocabulary: int,
        last_checkpoint: str | None,
    ) -> dict[str, Any]:
        """What was trained on, with which settings, and the selected checkpoint's dev scores."""
        best = _best_dev_metrics(state)
        return {
            "benchmark": self.benchmark,
            "split_type": self.split_type,
            "architecture": type(model).__name__,
            "settings": {key: getattr(self, key) for key in self.extra_repr_keys() if key != "output_dir"},
            "train_examples": len(data.train_examples),
            "extra_train_examples": data.extra_count,
            "extra_source": self.extra_source,
            "recombined_examples": data.recombined_count,
            "dev_examples": len(data.dev_examples),
            "dev_source": data.dev_source,
            "parameters": sum(parameter.numel() for parameter in model.parameters()),
            "vocabulary": vocabulary,
            "global_step": state.global_step,
            "epochs_run": state.epoch,
            "training_loss": training_loss,
            "best_epoch": best.get("epoch"),
            "best_dev_exact_match": best.get("eval_exact_match"),
            "best_dev_token_similarity": best.get("eval_token_similarity"),
            "best_dev_loss": best.get("eval_loss"),
            "best_checkpoint": state.best_model_checkpoint,
            "resumed_from": last_checkpoint,
        }

    def _config(self, tokenizer: Any) -> Any:
        """The small ``architecture`` config sized by the settings and the fitted vocabulary."""
        if self.architecture == "bart":
            # BART starts decoding from </s> (as facebook/bart-* do); there is no <s> here.
            return transformers.BartConfig(
                vocab_size=len(tokenizer),
                d_model=self.d_model,
                encoder_ffn_dim=self.d_ff,
                decoder_ffn_dim=self.d_ff,
                encoder_layers=self.num_layers,
                decoder_layers=self.num_layers,
                encoder_attention_heads=self.num_heads,
                decoder_attention_heads=self.num_heads,
                dropout=self.dropout,
                max_position_embeddings=self.max_length,
                pad_token_id=tokenizer.pad_token_id,
                eos_token_id=tokenizer.eos_token_id,
                bos_token_id=tokenizer.eos_token_id,
                decoder_start_token_id=tokenizer.eos_token_id,
                forced_eos_token_id=None,
                forced_bos_token_id=None,
                scale_embedding=True,
                tie_word_embeddings=True,
            )

        return transformers.T5Config(
            vocab_size=len(tokenizer),
            d_model=self.d_model,
            d_kv=self.d_model // self.num_heads,
            d_ff=self.d_ff,
            num_layers=self.num_layers,
            num_decoder_layers=self.num_layers,
            num_heads=self.num_heads,
            dropout_rate=self.dropout,
            feed_forward_proj="relu",
            pad_token_id=tokenizer.pad_token_id,
            eos_token_id=tokenizer.eos_token_id,
            decoder_start_token_id=tokenizer.pad_token_id,
            tie_word_embeddings=True,
        )

    def _load_benchmark(self) -> Benchmark:
        return load_benchmark(self.benchmark, data_dir=self.data_dir)

    @staticmethod
    def _pairs(anonymizer: EntityAnonymizer | None, examples: list[SemparseExample]) -> list[tuple[str, str]]:
        """(model input, target) per example: anonymised from the gold's values, or as they are."""
        if anonymizer is None:
            return [(example.question, example.gold) for example in examples]
        return [anonymizer.training_pair(example) for example in examples]

    def _features(self, tokenizer: Any, pairs: list[tuple[str, str]]) -> list[dict[str, list[int]]]:
        """Token ids of each pair's input and target, truncated to ``max_length``."""
        if not pairs:
            return []  # no dev without dev selection
        inputs = tokenizer([question for question, _ in pairs], truncation=True, max_length=self.max_length)
        targets = tokenizer(text_target=[gold for _, gold in pairs], truncation=True, max_length=self.max_length)
        return [
            {"input_ids": input_ids, "attention_mask": mask, "labels": labels}
            for input_ids, mask, labels in zip(inputs["input_ids"], inputs["attention_mask"], targets["input_ids"])
        ]
