"""A tokenizer and model loaded together on first use and never pickled (victims over Hugging Face models).

Original to textattack-semparse. ``GoalFunction.__init__`` reads ``model_wrapper.model``, so the
first read of :attr:`LazyPretrained.model` loads; a pickled victim (a Ray worker's copy) leaves
both behind and loads its own.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

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
