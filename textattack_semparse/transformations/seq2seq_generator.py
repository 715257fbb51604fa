"""Batched sequence-to-sequence generation
===========================================

The model plumbing shared by back translation and paraphrase rewriting: any
``AutoModelForSeq2SeqLM`` (MarianMT, T5, BART, PEGASUS ...) with its ``AutoTokenizer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import torch

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.torch_device import for_inference, resolve_device

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase


class Seq2SeqGenerator:
    """Generate text with a Hugging Face seq2seq model, loaded lazily, in batches.

    The model and tokenizer load on first use from a Hub name or local directory, go to
    ``device`` (CUDA when available by default) and are dropped when the object is
    pickled. Inputs are encoded ``batch_size`` at a time, padded to the longest input of the
    batch and truncated to ``max_length`` tokens; only ``input_ids`` and ``attention_mask``
    reach ``generate``. Decoding uses beam search (``num_beams``; ``None`` = the model's
    generation config) and no sampling, so outputs are reproducible.

    Original to textattack-semparse.

    Args:
        model_name_or_path (str): Seq2seq model name on the Hub or local directory.
        batch_size (int): Inputs per ``generate`` call. Default ``16``.
        max_length (int): Input token limit. Default ``128``.
        max_new_tokens (int): Output token limit. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = ``"cuda"`` when available,
            else ``"cpu"``.
    """

    def __init__(
        self,
        model_name_or_path: str,
        *,
        batch_size: int = 16,
        max_length: int = 128,
        max_new_tokens: int = 128,
        device: str | None = None,
    ) -> None:
        if not isinstance(model_name_or_path, str) or not model_name_or_path:
            raise ConfigurationTypeError(f"model_name_or_path must be a seq2seq model name or path string, got {model_name_or_path!r}.")
        for name, value in (("batch_size", batch_size), ("max_length", max_length), ("max_new_tokens", max_new_tokens)):
            check_count(name, value)
        if device is not None and not isinstance(device, str):
            raise ConfigurationTypeError(f"device must be a torch device string such as 'cpu' or None (auto), got {device!r}.")
        self.model_name_or_path = model_name_or_path
        self.batch_size = batch_size
        self.max_length = max_length
        self.max_new_tokens = max_new_tokens
        self.device = device
        self._model: PreTrainedModel | None = None
        self._tokenizer: PreTrainedTokenizerBase | None = None

    def _loaded(self) -> tuple[PreTrainedTokenizerBase, PreTrainedModel]:
        if self._tokenizer is None or self._model is None:
            from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

            device = resolve_device(self.device)
            tokenizer = AutoTokenizer.from_pretrained(self.model_name_or_path)
            model = for_inference(AutoModelForSeq2SeqLM.from_pretrained(self.model_name_or_path), device)
            self._tokenizer, self._model = tokenizer, model
        return self._tokenizer, self._model

    @property
    def model(self) -> PreTrainedModel:
        """The seq2seq model, loaded on first access."""
        return self._loaded()[1]

    def generate(
        self, texts: Sequence[str], *, num_return_sequences: int = 1, num_beams: int | None = None
    ) -> list[list[str]]:
        """``num_return_sequences`` outputs per text, best first, whitespace-normalised.

        ``num_beams`` is raised to ``num_return_sequences`` when smaller.
        """
        check_count("num_return_sequences", num_return_sequences)
        tokenizer, model = self._loaded()
        beams = num_beams if num_beams is not None else (model.generation_config.num_beams or 1)
        beams = max(beams, num_return_sequences)
        outputs: list[list[str]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            encoding = tokenizer(batch, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
            with torch.inference_mode():
                generated = model.generate(
                    input_ids=encoding["input_ids"].to(model.device),
                    attention_mask=encoding["attention_mask"].to(model.device),
                    num_beams=beams,
                    num_return_sequences=num_return_sequences,
                    do_sample=False,
                    max_new_tokens=self.max_new_tokens,
                )
            decoded = [" ".join(t.split()) for t in tokenizer.batch_decode(generated, skip_special_tokens=True)]
            outputs.extend(decoded[i : i + num_return_sequences] for i in range(0, len(decoded), num_return_sequences))
        return outputs

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.update(_model=None, _tokenizer=None)
        return state

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.model_name_or_path!r}, batch_size={self.batch_size}, "
            f"max_length={self.max_length}, max_new_tokens={self.max_new_tokens}, device={self.device!r})"
        )
