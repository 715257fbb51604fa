"""From a ``--model`` value to a victim: registered names first, then local seq2seq directories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textattack_semparse.registry import get_registry


def is_plugin_victim(model: str) -> bool:
    """Whether ``model`` names a registered victim or a local seq2seq model directory."""
    from textattack_semparse.victims.seq2seq_parser import is_seq2seq_directory

    return ("victim", model) in get_registry() or is_seq2seq_directory(model)


def dataset_database(dataset: str | None) -> Path | None:
    """The database (or Spider-style directory of databases) of the benchmark a registered
    dataset comes from (its entry's ``benchmark`` option); ``None`` when unknown or absent."""
    from textattack_semparse.datasets.benchmark import load_benchmark

    registry = get_registry()
    if dataset is None or ("dataset", dataset) not in registry:
        return None
    benchmark = registry.get("dataset", dataset).options.get("benchmark")
    if benchmark is None:
        return None
    loaded = load_benchmark(benchmark)
    return loaded.database or loaded.database_root


def create_victim(model: str, *, dataset: str | None = None) -> tuple[Any, str | None]:
    """The victim for ``model`` and the dataset it is evaluated on by default (``None`` if none).

    A local seq2seq directory becomes a :class:`Seq2SeqParser` bound to the database of
    ``dataset`` (a registered dataset name), so its SQL is scored by execution. Unknown
    names raise ``RegistryError`` listing the registered victims.
    """
    from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser, is_seq2seq_directory

    registry = get_registry()
    if ("victim", model) not in registry and is_seq2seq_directory(model):
        return Seq2SeqParser(model, database=dataset_database(dataset)), dataset
    entry = registry.get("victim", model)
    return entry.create(), entry.dataset
