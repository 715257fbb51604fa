"""A tokenizer and model loaded together on first use and never pickled (victims over Hugging Face models).

Original to textattack-semparse. ``GoalFunction.__init__`` reads ``model_wrapper.model``, so the
first read of :attr:`LazyPretrained.model` loads; a pickled victim (a Ray worker's copy) leaves
both behind and loads its own.
"""

from __future__ import annotations

import os
from abc import abstractmethod
from pathlib import Path
from typing import Any

from textattack_semparse.errors import VictimError

LOADED = ("_model", "_tokenizer")
"""The ``__dict__`` keys :meth:`LazyPretrained._load` fills."""


class LazyPretrained:
    """Mixin: :attr:`model` and :attr:`tokenizer` come from :meth:`_load` on first access.

    :meth:`_load` stores the two under ``__dict__["_model"]`` and ``__dict__["_tokenizer"]``;
    ``__getstate__`` drops them (and whatever the next class in the MRO drops).
    """

    @property
    def model(self) -> Any:
        """The network, loaded (with its tokenizer) on first access."""
        if "_model" not in self.__dict__:
            self._load()
        return self.__dict__["_model"]

    @property
    def tokenizer(self) -> Any:
        """The tokenizer, loaded (with the model) on first access."""
        if "_tokenizer" not in self.__dict__:
            self._load()
        return self.__dict__["_tokenizer"]

    @abstractmethod
    def _load(self) -> None:
        """Load the tokenizer and the model into ``__dict__["_tokenizer"]`` and ``__dict__["_model"]``."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(super().__getstate__())  # type: ignore[misc]
        for name in LOADED:
            state.pop(name, None)
        return state


LOAD_ERRORS: tuple[type[BaseException], ...] = (OSError, ValueError, KeyError, TypeError)
"""What ``from_pretrained`` raises for a model it cannot load. Offline, some tokenizers
(``TapexTokenizer``, ``TapasTokenizer``) raise ``TypeError`` on a vocabulary path of ``None``."""


def unloadable(victim: str, location: str, tokenizer_location: str, error: BaseException) -> VictimError:
    """The error a victim raises for a model it cannot load: a local directory that does not hold
    one, a path that does not exist, or a hub name not on this machine (with how to give a local path)."""
    reason = f"{type(error).__name__}: {' '.join(str(error).split())}"
    if Path(location).is_dir():
        return VictimError(
            f"{victim} could not load {location!r} (tokenizer {tokenizer_location!r}): {reason}. Pass a local "
            "directory with config.json, weights and tokenizer files (save_pretrained writes them)."
        )
    if _looks_like_a_path(location):
        return VictimError(
            f"{victim} could not load {location!r}: there is no such local directory. Pass the directory "
            "save_pretrained wrote (config.json, weights and tokenizer files), or a Hugging Face hub name."
        )
    offline = "; HF_HUB_OFFLINE is set, so nothing is downloaded" if os.environ.get("HF_HUB_OFFLINE") else ""
    return VictimError(
        f"{victim} could not load {location!r}: it is not a local directory and not in this machine's Hugging Face "
        f"cache{offline} ({reason}). Download it where there is network access (e.g. "
        f"`huggingface-cli download {location} --local-dir DIR`) and pass the local directory instead of the name."
    )


def _looks_like_a_path(location: str) -> bool:
    """Whether ``location`` is meant as a file-system path rather than a hub name (``owner/name``)."""
    return Path(location).is_absolute() or location.startswith((".", "~")) or location.count("/") > 1
