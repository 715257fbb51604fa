"""Masked-LM random words base
===============================

Shared set-up of Zhuo et al.'s context-aware perturbations (CS and CI).
"""

from __future__ import annotations

from textattack_semparse.arguments import check_count
from textattack_semparse.transformations.masked_lm_candidates import MaskedLMCandidates
from textattack_semparse.transformations.random_words_transformation import RandomWordsTransformation

DEFAULT_MODEL = "roberta-base"
"""RoBERTa (Liu et al., 2019), the masked LM of Zhuo et al.'s context-aware perturbations."""


class MaskedLMRandomWordsTransformation(RandomWordsTransformation):
    """Base of the transformations that fill ``num_words`` random positions with a masked LM.

    Holds the masked-LM scorer (:class:`MaskedLMCandidates`) and the ``top_k`` fillers a word
    is chosen from; subclasses decide whether a position is replaced (CS, a word drawn from
    the ``top_k``) or gets a word inserted before it (CI, always the most probable word:
    ``top_k=1``). Zhuo et al. (2023), "On Robustness of Prompt-based Semantic
    Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    https://arxiv.org/abs/2301.12868.

    Args:
        model_name_or_path (str): Masked LM (Hub name or local directory). Default
            ``"roberta-base"``.
        num_words (int): Words changed per candidate. Default ``2``.
        num_candidates (int): Candidates per input. Default ``20``.
        top_k (int): Fillers a word is chosen from. Default ``10``.
        batch_size (int): Masked texts per forward pass. Default ``32``.
        max_length (int): Token limit per text. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = CUDA when available.
        seed (int | None): Seed of the owned generator (positions and draws). Default ``None``.
    """

    def __init__(
        self,
        model_name_or_path: str = DEFAULT_MODEL,
        num_words: int = 2,
        num_candidates: int = 20,
        top_k: int = 10,
        batch_size: int = 32,
        max_length: int = 128,
        device: str | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(num_words=num_words, num_candidates=num_candidates, seed=seed)
        check_count("top_k", top_k)
        self.masked_lm = MaskedLMCandidates(
            model_name_or_path, batch_size=batch_size, max_length=max_length, device=device
        )
        self.model_name_or_path = model_name_or_path
        self.top_k = top_k
        self.batch_size = batch_size
        self.max_length = max_length
        self.device = device

    def extra_repr_keys(self) -> list[str]:
        return ["model_name_or_path", "top_k", "batch_size", "max_length", "device"] + super().extra_repr_keys()
