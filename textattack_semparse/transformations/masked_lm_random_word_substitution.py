"""Masked-LM random word substitution
======================================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (CS).
"""

from __future__ import annotations

from textattack.shared import AttackedText

from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.linguistics.wordnet import are_synonyms
from textattack_semparse.transformations.derived_text import edit_words, match_case, question_text
from textattack_semparse.transformations.masked_lm_random_words_transformation import (
    DEFAULT_MODEL,
    MaskedLMRandomWordsTransformation,
)
from textattack_semparse.transformations.word_edits import replace_words_at_indices


class MaskedLMRandomWordSubstitution(MaskedLMRandomWordsTransformation):
    """Replace ``num_words`` random modifiable words by masked-LM words in context (CS).

    The chosen words are replaced one after the other, left to right: each is masked in the
    question as edited so far and replaced by a word drawn from the masked LM's ``top_k``
    whole-word fillers in proportion to their probabilities, never the original word (any
    case); with ``synonyms_only`` (the default) only the fillers WordNet lists as synonyms of
    the original word (:func:`~textattack_semparse.linguistics.wordnet.are_synonyms`) are drawn
    from. The original's capitalisation is kept.

    Paper rule (Zhuo et al. 2023, CS, as issue 25 quotes it): "substitute two random words with
    their synonyms", the substitutes coming from RoBERTa. WordNet decides what a synonym is here
    (the paper does not say how); a word whose ``top_k`` fillers hold no synonym cannot be
    substituted, so fewer candidates come out than with any filler (``synonyms_only=False``,
    the masked LM's context-aware words alone). Each round is one batched masked-LM pass
    over all candidates (:class:`MaskedLMCandidates`). A candidate whose mask gets no filler
    is dropped, so every candidate differs from the input in exactly ``num_words`` words.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868 (context-aware substitution with
    RoBERTa, CS).

    Args:
        model_name_or_path (str): Masked LM (Hub name or local directory). Default
            ``"roberta-base"``.
        num_words (int): Words substituted per candidate. Default ``2``.
        num_candidates (int): Candidates per input. Default ``20``.
        top_k (int): Fillers a replacement is drawn from. Default ``10``.
        batch_size (int): Masked texts per forward pass. Default ``32``.
        max_length (int): Token limit per text. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = CUDA when available.
        seed (int | None): Seed of the owned generator (positions and draws). Default ``None``.
        synonyms_only (bool): Keep only fillers that are WordNet synonyms of the replaced word.
            Default ``True`` (the paper's rule).
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
        *,
        synonyms_only: bool = True,
    ) -> None:
        if not isinstance(synonyms_only, bool):
            raise ConfigurationTypeError(f"synonyms_only must be a bool, got {synonyms_only!r}.")
        super().__init__(model_name_or_path, num_words, num_candidates, top_k, batch_size, max_length, device, seed)
        self.synonyms_only = synonyms_only

    def extra_repr_keys(self) -> list[str]:
        return [*super().extra_repr_keys(), "synonyms_only"]

    def _apply(self, current_text: AttackedText, position_sets: list[tuple[int, ...]]) -> list[AttackedText | None]:
        words = current_text.words
        question = AttackedText(question_text(current_text))
        mask = self.masked_lm.mask_token
        chosen: list[dict[int, str]] = [{} for _ in position_sets]
        failed: set[int] = set()
        for round_index in range(self.num_words):
            live = [n for n in range(len(position_sets)) if n not in failed]
            targets = [position_sets[n][round_index] for n in live]
            masked = [
                replace_words_at_indices(question, [*chosen[n], target], [*chosen[n].values(), mask]).text
                for n, target in zip(live, targets)
            ]
            fillers = self.masked_lm.top_words(masked, self.top_k, exclude=[[words[t]] for t in targets])
            for n, target, candidates in zip(live, targets, fillers):
                if self.synonyms_only:
                    candidates = [(word, p) for word, p in candidates if are_synonyms(words[target], word)]
                if not candidates:
                    failed.add(n)
                    continue
                word = self._rng.choices([w for w, _ in candidates], weights=[p for _, p in candidates])[0]
                chosen[n][target] = match_case(words[target], word)
        return [None if n in failed else edit_words(current_text, list(c.items())) for n, c in enumerate(chosen)]
