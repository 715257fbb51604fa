"""The torch device a model runs on: CUDA when present, else CPU, unless the user names one."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TypeVar

import torch

from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError


def resolve_device(device: str | None) -> str:
    """``device`` checked and normalised; ``None`` picks ``"cuda"`` when available, else ``"cpu"``.

    Raises:
        TypeError: ``device`` is neither a string nor ``None``.
        ValueError: ``device`` is not a torch device, or asks for CUDA on a machine without it.

    Example:
        >>> resolve_device("cpu")
        'cpu'
    """
    if device is None:
        return "cuda" if torch.cuda.is_available() else "cpu"
    if not isinstance(device, str):
        raise ConfigurationTypeError(f"device must be a str such as 'cpu' or 'cuda:0', or None, got {device!r}.")
    try:
        parsed = torch.device(device)
    except RuntimeError as error:
        raise ConfigurationError(
            f"device={device!r} is not a torch device; use 'cpu', 'cuda', 'cuda:<index>', 'mps', "
            "or None to pick CUDA when available."
        ) from error
    if parsed.type == "cuda" and not torch.cuda.is_available():
        raise ConfigurationError(
            f"device={device!r} asks for CUDA, but torch.cuda.is_available() is False on this machine. "
            "Pass device='cpu' or device=None."
        )
    return str(parsed)


def resolve_dtype(device: str, half_precision: bool) -> torch.dtype:
    """The weights' dtype on ``device``: float16 when ``half_precision`` and ``device`` is CUDA,
    else float32 (float16 on a CPU is slow or unsupported).

    Example:
        >>> resolve_dtype("cpu", True), resolve_dtype("cuda:0", True)
        (torch.float32, torch.float16)
    """
    return torch.float16 if half_precision and torch.device(device).type == "cuda" else torch.float32


ModelT = TypeVar("ModelT", bound=torch.nn.Module)


def for_inference(model: ModelT, device: str, *, half_precision: bool = False) -> ModelT:
    """``model`` on ``device`` in evaluation mode, its weights in :func:`resolve_dtype`'s dtype
    (float16 only on CUDA with ``half_precision``): how every network here is readied after
    ``from_pretrained`` (a causal LLM is loaded in float16 on CUDA already, to need half the memory).

    Example:
        >>> model = for_inference(torch.nn.Linear(2, 1).train(), "cpu", half_precision=True)
        >>> model.training, model.weight.dtype
        (False, torch.float32)
    """
    return model.to(device=device, dtype=resolve_dtype(device, half_precision)).eval()


@contextlib.contextmanager
def torch_threads(count: int) -> Iterator[None]:
    """Run the block with ``count`` intra-op torch threads, then restore the previous number.

    For work made of many small forward passes (a few short texts each): their threads cost
    more in synchronisation than they save, and on a shared machine each pass waits until every
    thread is scheduled (a pass of two questions through MiniLM: 53 ms on one thread, 511 ms on
    two, on a 2-core machine under load). Such work is parallelised by processes instead (the
    run backends' workers).

    Example:
        >>> before = torch.get_num_threads()
        >>> with torch_threads(1):
        ...     torch.get_num_threads()
        1
        >>> torch.get_num_threads() == before
        True
    """
    previous = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(previous)
