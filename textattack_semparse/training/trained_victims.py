"""Registered trained victims: a small parser trained on first use into the plugin's cache.

``seq2seq-<benchmark>`` (see :func:`textattack_semparse.registry.derived_entries`) calls
:func:`trained_parser`, which trains a :class:`ParserTrainer` model once, in
``<cache>/trained/<benchmark>-<split type>-<hash>``, and loads it from there afterwards.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse import __version__
from textattack_semparse.cache import cache_dir
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.entity_anonymization import ANONYMIZATION_REVISION
from textattack_semparse.registry import benchmark_key
from textattack_semparse.training.parser_trainer import CHECKPOINT_FOLDER, TRAINING_FILE, ParserTrainer
from textattack_semparse.victims.output_grammar import GRAMMAR_REVISION
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

TRAINED_VICTIM_SETTINGS: Mapping[str, Any] = MappingProxyType({"seed": 42})
"""The :class:`ParserTrainer` keywords the registered ``seq2seq-*`` victims train with (beside its
defaults): seed 42, the one their documented figures were measured with (the trainer's default
was 42 then). Changing them (or the defaults) changes the cache directory: the next use trains
again, and the old model stays where it was."""

TRAINED_FOLDER = "trained"
"""Sub-folder of :func:`~textattack_semparse.cache.cache_dir` that holds the trained victims."""

_UNHASHED_SETTINGS = frozenset({"output_dir", "data_dir", "device", "save_total_limit"})
"""Trainer settings that do not change the model (the data is hashed itself, not its folder)."""

# Measured: seq2seq-geo at the default sizes (2 layers, d_model 128, FFN 512; 549 training
# examples) ran 46 epochs (early stopping) in 167 s on 2 CPU cores (docs/training.md).
_MEASURED_SECONDS = 167.0
_MEASURED_EXAMPLE_EPOCHS = 549 * 46
_MEASURED_SIZE = 2 * 128 * (128 + 512)
_TYPICAL_EPOCHS = 70


def trained_victim_dir(
    benchmark: str,
    *,
    split_type: str = "question",
    data_dir: str | os.PathLike[str] | None = None,
    **trainer_settings: Any,
) -> Path:
    """Where :func:`trained_parser` keeps the model for these arguments (nothing is created).

    ``<cache>/trained/<benchmark>-<split type>-<hash>``; the hash covers the benchmark, the
    split type, every :class:`ParserTrainer` setting that shapes the model (defaults,
    :data:`TRAINED_VICTIM_SETTINGS` and ``trainer_settings`` alike), the training and dev
    examples themselves (``geo`` is geo-mini without a data directory), the anonymiser's
    revision and the package version.

    Args:
        benchmark (str): A registered benchmark with a ``train`` split.
        split_type (str, default "question"): ``"question"`` or ``"query"``.
        data_dir (str | os.PathLike | None, default None): The real-data folder; default
            ``$SEMPARSE_DATA_DIR``.
        **trainer_settings: :class:`ParserTrainer` keywords over :data:`TRAINED_VICTIM_SETTINGS`.

    Raises:
        ValueError: A bad trainer setting.
        DatasetError: The benchmark's training split cannot be loaded.
    """
    trainer = _trainer(benchmark, Path("unused"), split_type, data_dir, trainer_settings)
    return _model_dir(trainer)


def trained_parser(
    benchmark: str,
    *,
    split_type: str = "question",
    data_dir: str | os.PathLike[str] | None = None,
    victim_name: str | None = None,
    **trainer_settings: Any,
) -> Seq2SeqParser:
    """A :class:`Seq2SeqParser` trained on ``benchmark``, from the cache or trained into it now.

    A finished model (its ``semparse_training.json`` written) is loaded from
    :func:`trained_victim_dir`. Otherwise one line on stderr says which victim trains, where,
    and roughly how long it takes; the model trains in a hidden sibling directory, resuming
    from its last epoch checkpoint if an earlier first use was interrupted, and is renamed into
    place when done, so an interrupted run never leaves a model that loads. A lock file makes
    a second process wait for the first and then load its model.

    Original to textattack-semparse.

    Args:
        benchmark (str): A registered benchmark with a ``train`` split.
        split_type (str, default "question"): ``"question"`` or ``"query"``; attack the victim
            on the test part of the same split.
        data_dir (str | os.PathLike | None, default None): The real-data folder; default
            ``$SEMPARSE_DATA_DIR``.
        victim_name (str | None, default None): The registered name, for the announcement.
        **trainer_settings: :class:`ParserTrainer` keywords over :data:`TRAINED_VICTIM_SETTINGS`
            (tests train tiny models with ``d_model=16`` and the like). ``device`` also
            places the returned parser.

    Returns:
        Seq2SeqParser: Bound to the loaded benchmark (scored as it is), with ``split_type``
        set as :meth:`KNNTemplateParser.from_benchmark` sets it.

    Raises:
        ValueError: A bad trainer setting.
        DatasetError: The benchmark's training split cannot be loaded.
    """
    placeholder = _trainer(benchmark, Path("unused"), split_type, data_dir, trainer_settings)
    model_dir = _model_dir(placeholder)
    if not (model_dir / TRAINING_FILE).is_file():
        _train_into(model_dir, benchmark, split_type, data_dir, trainer_settings, victim_name)
    parser = Seq2SeqParser(
        model_dir,
        benchmark=load_benchmark(benchmark, data_dir=data_dir),
        device=trainer_settings.get("device", TRAINED_VICTIM_SETTINGS.get("device")),
    )
    parser.split_type = split_type
    return parser


def estimated_minutes(trainer: ParserTrainer, train_examples: int) -> float:
    """Rough CPU training time of ``trainer`` on ``train_examples`` examples, the recombined pairs it
    adds and its reconstruction model's epochs over the examples, scaled from the measured
    ``seq2seq-geo`` run (default sizes, 549 examples, 46 epochs in 167 s on 2 cores) by examples x
    epochs x layer size; ``_TYPICAL_EPOCHS`` when early stopping decides.

    Example:
        >>> trainer = ParserTrainer("geo-mini", "unused", device="cpu")
        >>> round(estimated_minutes(trainer, 549))
        4
    """
    pairs = train_examples + trainer.recombined_examples
    if trainer.max_steps > 0:
        example_epochs = trainer.max_steps * trainer.batch_size
        example_epochs += min(example_epochs, train_examples * trainer.reconstruction_epochs)
    else:
        epochs = min(trainer.epochs, _TYPICAL_EPOCHS) if trainer.dev_selection else trainer.epochs
        example_epochs = pairs * epochs + train_examples * trainer.reconstruction_epochs
    size = trainer.num_layers * trainer.d_model * (trainer.d_model + trainer.d_ff) / _MEASURED_SIZE
    return _MEASURED_SECONDS * example_epochs / _MEASURED_EXAMPLE_EPOCHS * size / 60.0


def _trainer(
    benchmark: str,
    output_dir: Path,
    split_type: str,
    data_dir: str | os.PathLike[str] | None,
    trainer_settings: Mapping[str, Any],
) -> ParserTrainer:
    settings = {**TRAINED_VICTIM_SETTINGS, **trainer_settings}
    return ParserTrainer(benchmark, output_dir, split_type=split_type, data_dir=data_dir, **settings)


def _examples(trainer: ParserTrainer) -> tuple[list[Any], list[Any]]:
    """The examples ``trainer`` trains and selects on (with a defence's extra training
    examples, where the trainer takes them)."""
    train, dev, _ = trainer.training_examples()
    return train, dev


def _model_dir(trainer: ParserTrainer) -> Path:
    train, dev = _examples(trainer)
    data = hashlib.sha256()
    for part in (train, dev):
        data.update(json.dumps([(example.question, example.gold) for example in part]).encode("utf-8"))
    key = {
        "benchmark": trainer.benchmark,
        "split_type": trainer.split_type,
        "settings": {
            name: getattr(trainer, name) for name in trainer.extra_repr_keys() if name not in _UNHASHED_SETTINGS
        },
        "data": data.hexdigest(),
        "anonymization": ANONYMIZATION_REVISION,
        "grammar": GRAMMAR_REVISION,
        "version": __version__,
    }
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:12]
    name = benchmark_key(trainer.benchmark)
    return cache_dir() / TRAINED_FOLDER / f"{name}-{trainer.split_type}-{digest}"


def _train_into(
    model_dir: Path,
    benchmark: str,
    split_type: str,
    data_dir: str | os.PathLike[str] | None,
    trainer_settings: Mapping[str, Any],
    victim_name: str | None,
) -> None:
    partial = model_dir.with_name(f".{model_dir.name}.partial")
    with _locked(model_dir.with_name(f".{model_dir.name}.lock"), model_dir):
        if (model_dir / TRAINING_FILE).is_file():
            return  # another process trained it while this one waited
        if not (partial / TRAINING_FILE).is_file():
            trainer = _trainer(benchmark, partial, split_type, data_dir, trainer_settings)
            resume = _has_checkpoint(partial)
            _announce(trainer, victim_name, model_dir, resume)
            if not resume:
                shutil.rmtree(partial, ignore_errors=True)
            try:
                trainer.train(resume=resume)
            except Exception as error:
                if not resume:
                    raise
                _say(f"Could not resume from {partial} ({type(error).__name__}: {error}); training from the start.")
                shutil.rmtree(partial, ignore_errors=True)
                trainer.train()
        shutil.rmtree(partial / CHECKPOINT_FOLDER, ignore_errors=True)
        os.replace(partial, model_dir)


def _has_checkpoint(directory: Path) -> bool:
    checkpoints = directory / CHECKPOINT_FOLDER
    return checkpoints.is_dir() and any(path.name.startswith("checkpoint-") for path in checkpoints.iterdir())


def _announce(trainer: ParserTrainer, victim_name: str | None, model_dir: Path, resume: bool) -> None:
    train_examples = len(_examples(trainer)[0])
    minutes = estimated_minutes(trainer, train_examples)
    duration = "under a minute" if minutes < 1 else f"about {round(minutes)} minutes"
    victim = f"victim {victim_name!r}" if victim_name else "a seq2seq victim"
    action = "Resuming the interrupted training of" if resume else "Training"
    _say(
        f"{action} {victim} on benchmark {trainer.benchmark!r} ({trainer.split_type} split, {train_examples} "
        f"training examples) into {model_dir}: a one-off that takes {duration} on this CPU, much less on a GPU "
        "(later uses load it from there)."
    )


def _say(message: str) -> None:
    print(f"textattack-semparse: {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def _locked(lock_path: Path, model_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` (released when the process ends, however it ends)."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # not POSIX: concurrent first uses are not serialised
        yield
        return
    with lock_path.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _say(f"Waiting for another process that is training {model_dir} ...")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
