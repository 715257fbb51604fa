"""Loading a local GGUF file into transformers with its header read once.

transformers reads a GGUF file from the start for each thing it builds from it: the
tokenizer's class, the tokenizer, the config and the weights (``load_gguf_checkpoint``, four
times), and :class:`~textattack_semparse.victims.llm.causal_lm_parser.CausalLMParser` reads it
once more for ``tokenizer.ggml.add_bos_token``. Each read walks the whole header, one numpy view
per string: SmolLM2's 49,152 tokens and 48,900 merges. Then it maps the weights' names with a
new ``TensorNameMap`` for every module of the model (a few hundred, all the same). Those repeats
took most of the load. :func:`gguf_read_once` answers them from the first read.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def gguf_read_once() -> Iterator[None]:
    """While open, ``gguf.GGUFReader(path)`` returns one reader per file (read-only mode), and
    ``gguf.get_tensor_name_map`` one map per (architecture, number of blocks).

    transformers looks both names up on the ``gguf`` module when it loads a GGUF file, so the
    tokenizer, config and weights it builds are those of an ordinary load (the test compares
    them). gguf's own functions are back when the block ends. Without the ``gguf`` package
    nothing is changed (transformers then says that it needs it).

    Example:
        >>> import gguf
        >>> with gguf_read_once():
        ...     gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2) is gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2)
        True
        >>> gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2) is gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA, 2)
        False
    """
    try:
        import gguf
    except ImportError:
        yield
        return
    reader, name_map = gguf.GGUFReader, gguf.get_tensor_name_map
    gguf.GGUFReader = _one_reader_per_file(reader)
    gguf.get_tensor_name_map = functools.lru_cache(maxsize=None)(name_map)
    try:
        yield
    finally:
        gguf.GGUFReader, gguf.get_tensor_name_map = reader, name_map


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
