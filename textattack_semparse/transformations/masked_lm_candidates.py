"""Masked-language-model word candidates
=========================================

The masked-LM machinery shared by the context-aware substitutions and insertions: fill one
mask token per text, batched, and keep whole words only.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import torch

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError
from textattack_semparse.torch_device import for_inference, resolve_device
from textattack_semparse.transformations.derived_text import is_single_word

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

# Word-initial markers of byte-level BPE (RoBERTa, GPT-2) and SentencePiece vocabularies.
_SPACE_MARKERS = ("Ġ", "▁")


class MaskedLMCandidates:
    """Whole-word fillers for a mask token, from any Hugging Face masked language model.

    The model and tokenizer are loaded on first use (``AutoModelForMaskedLM`` and
    ``AutoTokenizer`` from a Hub name or a local directory), placed on ``device`` (CUDA
    when available by default), and dropped when the object is pickled. Texts are encoded
    in batches of ``batch_size`` with padding to the longest text of the batch.

    A prediction counts as a word when it begins a word and TextAttack reads it as one word
    (no punctuation, no special token). Word-pieces that continue a word are skipped:
    ``##``-prefixed WordPiece tokens (BERT, ELECTRA) and, in byte-level BPE and SentencePiece
    vocabularies (RoBERTa, ALBERT), tokens without the ``Ġ``/``▁`` word-start marker unless
    the mask opens the text. Case variants of one word count once.

    Original to textattack-semparse (the shared scorer of the masked-LM perturbations of
    Huang et al., 2021, and Zhuo et al., 2023).

    Args:
        model_name_or_path (str): Masked LM name on the Hub or local directory.
        batch_size (int): Texts per forward pass. Default ``32``.
        max_length (int): Token limit per text; a mask cut off by truncation gets no
            candidates. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = ``"cuda"`` when available,
            else ``"cpu"``.
    """

    def __init__(
        self,
        model_name_or_path: str,
        *,
        batch_size: int = 32,
        max_length: int = 128,
        device: str | None = None,
    ) -> None:
        if not isinstance(model_name_or_path, str) or not model_name_or_path:
            raise ConfigurationTypeError(f"model_name_or_path must be a masked-LM name or path string, got {model_name_or_path!r}.")
        for name, value in (("batch_size", batch_size), ("max_length", max_length)):
            check_count(name, value)
        if device is not None and not isinstance(device, str):
            raise ConfigurationTypeError(f"device must be a torch device string such as 'cpu' or None (auto), got {device!r}.")
        self.model_name_or_path = model_name_or_path
        self.batch_size = batch_size
        self.max_length = max_length
        self.device = device
        self._model: PreTrainedModel | None = None
        self._tokenizer: PreTrainedTokenizerBase | None = None
        self._words: dict[int, tuple[str | None, bool]] = {}
        self._marks_word_starts = False

    def _loaded(self) -> tuple[PreTrainedTokenizerBase, PreTrainedModel]:
        """The tokenizer and model, loaded on first use."""
        if self._tokenizer is None or self._model is None:
            from transformers import AutoModelForMaskedLM, AutoTokenizer

            device = resolve_device(self.device)
            tokenizer = AutoTokenizer.from_pretrained(self.model_name_or_path)
            if tokenizer.mask_token_id is None:
                raise ConfigurationError(
                    f"The tokenizer of {self.model_name_or_path!r} has no mask token; pass a masked language "
                    "model (BERT, RoBERTa, an ELECTRA generator ...)."
                )
            model = for_inference(AutoModelForMaskedLM.from_pretrained(self.model_name_or_path), device)
            vocabulary = tokenizer.get_vocab()
            self._marks_word_starts = any(token.startswith(_SPACE_MARKERS) for token in vocabulary)
            self._tokenizer, self._model = tokenizer, model
        return self._tokenizer, self._model

    @property
    def tokenizer(self) -> PreTrainedTokenizerBase:
        """The tokenizer, loaded on first access."""
        return self._loaded()[0]

    @property
    def model(self) -> PreTrainedModel:
        """The masked LM, loaded on first access."""
        return self._loaded()[1]

    @property
    def mask_token(self) -> str:
        """The tokenizer's mask token, e.g. ``[MASK]`` or ``<mask>``."""
        return str(self.tokenizer.mask_token)

    def _word_of(self, token_id: int) -> tuple[str | None, bool]:
        """``(word, starts_a_word)`` for a vocabulary id; ``word`` is None for non-words."""
        cached = self._words.get(token_id)
        if cached is not None:
            return cached
        tokenizer = self.tokenizer
        token = tokenizer.convert_ids_to_tokens(token_id)
        result: tuple[str | None, bool]
        if token_id in tokenizer.all_special_ids or not token or token.startswith("##"):
            result = (None, False)  # special token or WordPiece continuation
        else:
            marked = token.startswith(_SPACE_MARKERS)
            word = tokenizer.convert_tokens_to_string([token]).strip()
            valid = is_single_word(word) and not all(c in string.punctuation for c in word)
            result = (word if valid else None, marked or not self._marks_word_starts)
        self._words[token_id] = result
        return result

    def top_words(
        self,
        masked_texts: Sequence[str],
        top_k: int,
        exclude: Sequence[Iterable[str]] | None = None,
    ) -> list[list[tuple[str, float]]]:
        """The ``top_k`` most probable whole words for the single mask of each text.

        Args:
            masked_texts: Texts each containing :attr:`mask_token` exactly once.
            top_k: Words returned per text (fewer when the vocabulary runs out).
            exclude: Per text, words never to return (compared case-insensitively),
                e.g. the word that was masked.

        Returns:
            Per text, ``(word, probability)`` pairs, most probable first; an empty list for a
            text whose mask was truncated away or that has no single mask.
        """
        check_count("top_k", top_k)
        if exclude is not None and len(exclude) != len(masked_texts):
            raise ValueError(f"exclude has {len(exclude)} entries for {len(masked_texts)} texts; give one per text.")
        excluded = [{word.casefold() for word in words} for words in (exclude or [()] * len(masked_texts))]
        results: list[list[tuple[str, float]]] = []
        for start in range(0, len(masked_texts), self.batch_size):
            batch = list(masked_texts[start : start + self.batch_size])
            results.extend(self._top_words_batch(batch, top_k, excluded[start : start + self.batch_size]))
        return results

    def _top_words_batch(self, texts: list[str], top_k: int, excluded: list[set[str]]) -> list[list[tuple[str, float]]]:
        tokenizer, model = self.tokenizer, self.model
        encoding = tokenizer(texts, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
        input_ids = encoding["input_ids"].to(model.device)
        attention_mask = encoding["attention_mask"].to(model.device)
        with torch.inference_mode():
            logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
        special_ids = set(tokenizer.all_special_ids)
        results: list[list[tuple[str, float]]] = []
        for row, ids in enumerate(input_ids.tolist()):
            positions = [p for p, token_id in enumerate(ids) if token_id == tokenizer.mask_token_id]
            if len(positions) != 1:
                results.append([])
                continue
            position = positions[0]
            opens_text = all(token_id in special_ids for token_id in ids[:position])
            probabilities = torch.softmax(logits[row, position].float(), dim=-1)
            results.append(self._collect(probabilities, top_k, excluded[row], opens_text))
        return results

    def _collect(self, probabilities: torch.Tensor, top_k: int, excluded: set[str], opens_text: bool) -> list[tuple[str, float]]:
        # Valid words are near the top; a generous prefix avoids sorting the whole vocabulary.
        values, ids = torch.topk(probabilities.cpu(), min(probabilities.numel(), max(256, 32 * top_k)))
        words: list[tuple[str, float]] = []
        seen = set(excluded)
        for probability, token_id in zip(values.tolist(), ids.tolist()):
            word, starts_word = self._word_of(token_id)
            if word is None or not (starts_word or opens_text) or word.casefold() in seen:
                continue
            seen.add(word.casefold())
            words.append((word, probability))
            if len(words) == top_k:
                break
        return words

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.update(_model=None, _tokenizer=None, _words={}, _marks_word_starts=False)
        return state

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.model_name_or_path!r}, batch_size={self.batch_size}, "
            f"max_length={self.max_length}, device={self.device!r})"
        )
