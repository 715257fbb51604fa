"""From a ``--model`` value to a victim: registered names first, then local seq2seq directories."""

from __future__ import annotations

from typing import Any

from textattack_semparse.registry import get_registry


def is_plugin_victim(model: str) -> bool:
    """Whether ``model`` names a registered victim or a local seq2seq model directory."""
    from textattack_semparse.victims.seq2seq_parser import is_seq2seq_directory

    return ("victim", model) in get_registry() or is_seq2seq_directory(model)


def create_victim(model: str) -> tuple[Any, str | None]:
    """The victim for ``model`` and the dataset it is evaluated on by default (``None`` if none).

    Unknown names raise ``RegistryError`` listing the registered victims.
    """
    from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser, is_seq2seq_directory

    registry = get_registry()
    if ("victim", model) not in registry and is_seq2seq_directory(model):
        return Seq2SeqParser(model), None
    entry = registry.get("victim", model)
    return entry.create(), entry.dataset
