"""Loading a local GGUF file into transformers with its header read once.

transformers reads a GGUF file from the start for each thing it builds from it: the
tokenizer's class, the tokenizer, the config and the weights (``load_gguf_checkpoint``, four
times), and :class:`~textattack_semparse.victims.llm.causal_lm_parser.CausalLMParser` reads it
once more for ``tokenizer.ggml.add_bos_token``. Each read walks the whole header, one numpy view
per string (SmolLM2's 49,152 tokens and 48,900 merges), and the first three parse all of it into
the same config and tokenizer settings. Then it maps the weights' names with a new
``TensorNameMap`` for every module of the model (a few hundred, all the same). Those repeats took
most of the load. :func:`gguf_read_once` answers them from the first read.
"""

from __future__ import annotations

import copy
import functools
import importlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

_METADATA_READERS = (
    "transformers.configuration_utils",
    "transformers.tokenization_utils_fast",
    "transformers.models.auto.tokenization_auto",
)
"""The transformers modules that parse a GGUF header without its weights (``load_gguf_checkpoint``
imported by name; the weights' loader looks it up on ``transformers.modeling_gguf_pytorch_utils``)."""

_ONE_LOAD_AT_A_TIME = threading.RLock()
"""Held inside :func:`gguf_read_once`: two threads replacing and restoring the same names would
leave one's replacements in place."""


@contextmanager
def gguf_read_once(gguf_file: str | os.PathLike[str] | None) -> Iterator[None]:
    """While open, ``gguf.GGUFReader(path)`` returns one reader per file (read-only mode),
    ``gguf.get_tensor_name_map`` one map per (architecture, number of blocks), and transformers'
    parse of a header without its weights is made once per file (each caller gets a copy).

    The tokenizer, config and weights transformers builds are those of an ordinary load (the
    test compares them). Everything is itself again when the block ends; a block in another
    thread waits for it. With ``gguf_file`` ``None`` (a model directory or hub name, no GGUF
    file to load), or without the ``gguf`` package, nothing is changed (importing gguf alone
    takes about half a second).

    Example:
        >>> import gguf
        >>> with gguf_read_once("model.gguf"):
        ...     gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2) is gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2)
        True
        >>> with gguf_read_once(None):
        ...     gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2) is gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2)
        False
    """
    if gguf_file is None:
        yield
        return
    with _ONE_LOAD_AT_A_TIME, ExitStack() as stack:
        gguf = _module("gguf")
        if gguf is not None:
            _replace(stack, gguf, "GGUFReader", _one_reader_per_file)
            _replace(stack, gguf, "get_tensor_name_map", functools.lru_cache(maxsize=None))
            parse_once = _one_parse_per_file()
            for name in _METADATA_READERS:
                module = _module(name)
                if module is not None and hasattr(module, "load_gguf_checkpoint"):
                    _replace(stack, module, "load_gguf_checkpoint", parse_once)
        yield


def _module(name: str) -> Any:
    """The module ``name``, or ``None`` when it cannot be imported."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _replace(stack: ExitStack, owner: Any, name: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """``owner.name`` wrapped by ``wrap`` until ``stack`` closes."""
    original = getattr(owner, name)
    setattr(owner, name, wrap(original))
    stack.callback(setattr, owner, name, original)


def _one_reader_per_file(reader: Callable[..., Any]) -> Callable[..., Any]:
    """``reader(path, mode)``, made once per file for the read-only mode."""
    readers: dict[str, Any] = {}

    def read(path: os.PathLike[str] | str, mode: str = "r") -> Any:
        if mode != "r":
            return reader(path, mode)
        key = os.path.realpath(path)
        if key not in readers:
            readers[key] = reader(path, mode)
        return readers[key]

    return read


def _one_parse_per_file() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A wrapper of ``load_gguf_checkpoint`` that parses each file's header once (shared by every
    module it wraps) and gives each caller a copy; a call for the weights goes through."""
    parsed: dict[str, Any] = {}

    def wrap(load: Callable[..., Any]) -> Callable[..., Any]:
        def load_once(path: os.PathLike[str] | str, return_tensors: bool = False, model_to_load: Any = None) -> Any:
            if return_tensors or model_to_load is not None:
                return load(path, return_tensors=return_tensors, model_to_load=model_to_load)
            key = os.path.realpath(path)
            if key not in parsed:
                parsed[key] = load(path)
            return copy.deepcopy(parsed[key])

        return load_once

    return wrap
