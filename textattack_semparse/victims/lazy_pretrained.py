"""A tokenizer and model loaded together on first use and never pickled (victims over Hugging Face models).

Original to textattack-semparse. ``GoalFunction.__init__`` reads ``model_wrapper.model``, so the
first read of :attr:`LazyPretrained.model` loads; a pickled victim (a Ray worker's copy) leaves
both behind and loads its own.
"""

from __future__ import annotations

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
        return _no_such_directory(victim, location)
    return _not_cached(victim, location, f" ({reason})")


def unavailable(victim: str, location: str, file: str | None = None) -> VictimError | None:
    """The error loading ``location`` (and its ``file``, a GGUF file) would end in, found without
    loading it, or ``None`` when it may load: a path that does not exist, or, with ``HF_HUB_OFFLINE``
    set, a hub name missing from this machine's cache. Commands ask before they write their run
    directory, so a mistyped model leaves nothing that refuses the corrected command.

    Example:
        >>> print(unavailable("Seq2SeqParser", "/nonexistent/t5"))
        Seq2SeqParser could not load '/nonexistent/t5': there is no such local directory. ...
    """
    from textattack_semparse.offline import hub_offline

    path = Path(location).expanduser()
    if path.exists():
        if file is not None and not (path / file).is_file():
            return VictimError(f"{victim} could not load {str(path / file)!r}: there is no such file. Pass an existing file.")
        return None
    if _looks_like_a_path(location):
        return _no_such_directory(victim, location)
    if hub_offline():
        from huggingface_hub import try_to_load_from_cache

        if not isinstance(try_to_load_from_cache(location, file or "config.json"), str):
            return _not_cached(victim, location, "")
    return None


def _no_such_directory(victim: str, location: str) -> VictimError:
    return VictimError(
        f"{victim} could not load {location!r}: there is no such local directory. Pass the directory "
        "save_pretrained wrote (config.json, weights and tokenizer files), or a Hugging Face hub name."
    )


def _not_cached(victim: str, location: str, reason: str) -> VictimError:
    from textattack_semparse.offline import hub_offline

    offline = "; HF_HUB_OFFLINE is set, so nothing is downloaded" if hub_offline() else ""
    return VictimError(
        f"{victim} could not load {location!r}: it is not a local directory and not in this machine's Hugging Face "
        f"cache{offline}{reason}. Download it where there is network access (e.g. "
        f"`huggingface-cli download {location} --local-dir DIR`) and pass the local directory instead of the name."
    )


def _looks_like_a_path(location: str) -> bool:
    """Whether ``location`` is meant as a file-system path rather than a hub name (``owner/name``)."""
    return Path(location).is_absolute() or location.startswith((".", "~")) or location.count("/") > 1
