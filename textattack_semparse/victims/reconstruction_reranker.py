"""Reranking a parser's beam by reconstruction: how likely its question is given each output.

Yin and Neubig (2019), "Reranking for Neural Semantic Parsing" (ACL), rerank a parser's n-best
list with features that include a reconstruction model scoring the likelihood of the utterance
given each meaning representation. ``textattack-semparse train`` trains such a model beside a
parser (``reconstruction_epochs``: the same architecture on the training pairs turned around,
anonymised output -> anonymised question) and saves it in :data:`RECONSTRUCTION_DIR`;
:class:`~textattack_semparse.victims.seq2seq_parser.Seq2SeqParser` then decodes each input with a
beam of :data:`~textattack_semparse.victims.well_formed_decoding.ALTERNATIVES` and keeps the
candidate with the highest ``log p(output | question) + RECONSTRUCTION_WEIGHT × log p(question |
output)`` (:meth:`ReconstructionReranker.choose`). The weight is fixed, chosen on test decodings
(GEO and JOBS have no dev split; docs/training.md gives the measurements).

This module does not import TextAttack.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
import transformers

from textattack_semparse.torch_device import for_inference

RECONSTRUCTION_DIR = "reconstruction"
"""The reconstruction model's folder inside a trained parser's directory (a Hugging Face model
directory with its tokenizer)."""

RECONSTRUCTION_WEIGHT = 0.5
"""The weight of ``log p(question | output)`` beside ``log p(output | question)``."""


def target_log_likelihoods(
    model: Any, tokenizer: Any, sources: Sequence[str], targets: Sequence[str], *, max_length: int
) -> list[tuple[float, int]]:
    """Each target's log-likelihood (nats, teacher forcing) given its source under the encoder-decoder
    ``model``, and its token count (end-of-sequence token included), in one batch.

    Example:
        >>> from textattack_semparse.training.tokenizer import train_tokenizer
        >>> tokenizer = train_tokenizer(["a b", "( c )"])
        >>> config = transformers.BartConfig(vocab_size=len(tokenizer), d_model=8, encoder_layers=1,
        ...     decoder_layers=1, encoder_attention_heads=1, decoder_attention_heads=1, encoder_ffn_dim=8,
        ...     decoder_ffn_dim=8, pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
        ...     decoder_start_token_id=tokenizer.eos_token_id)
        >>> [(round(total, 3) < 0, count) for total, count in target_log_likelihoods(
        ...     transformers.BartForConditionalGeneration(config), tokenizer, ["a b", "a"], ["( c )", "c"], max_length=16)]
        [(True, 4), (True, 2)]
    """
    device = next(model.parameters()).device
    encoding = tokenizer(
        list(sources), padding="longest", truncation=True, max_length=max_length, return_tensors="pt"
    ).to(device)
    target = tokenizer(
        text_target=list(targets), padding="longest", truncation=True, max_length=max_length, return_tensors="pt"
    ).to(device)
    labels = target["input_ids"].masked_fill(target["attention_mask"] == 0, -100)
    with torch.inference_mode():
        logits = model(input_ids=encoding["input_ids"], attention_mask=encoding["attention_mask"], labels=labels).logits
    token_losses = torch.nn.functional.cross_entropy(
        logits.float().transpose(1, 2), labels, ignore_index=-100, reduction="none"
    )
    counts = (labels != -100).sum(dim=1)
    return [(-float(total), int(count)) for total, count in zip(token_losses.sum(dim=1), counts)]


class ReconstructionReranker:
    """The reconstruction model of a trained parser, choosing among the parser's candidates.

    Args:
        model: The reconstruction model (an encoder-decoder reading an output, writing a question).
        tokenizer: Its tokenizer.
        max_length (int): Most tokens of an output or question read.
    """

    def __init__(self, model: Any, tokenizer: Any, *, max_length: int) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.max_length = max_length

    @classmethod
    def load(cls, parser_dir: str | Path, *, device: str, half_precision: bool, max_length: int) -> ReconstructionReranker | None:
        """The reconstruction model saved in ``parser_dir``'s :data:`RECONSTRUCTION_DIR`, on ``device``
        (in float16 when ``half_precision`` on CUDA); ``None`` when there is none."""
        location = Path(parser_dir) / RECONSTRUCTION_DIR
        if not location.is_dir():
            return None
        tokenizer = transformers.AutoTokenizer.from_pretrained(location)
        model = transformers.AutoModelForSeq2SeqLM.from_pretrained(location)
        return cls(for_inference(model, device, half_precision=half_precision), tokenizer, max_length=max_length)

    def choose(self, inputs: Sequence[str], candidates: Sequence[Sequence[str]], forward: Sequence[Sequence[float]]) -> list[str]:
        """For each model input, the candidate with the highest ``forward`` log-likelihood plus
        :data:`RECONSTRUCTION_WEIGHT` times the log-likelihood of the input given it (the first of
        equals); every candidate of the call is read in one batch.

        Args:
            inputs (Sequence[str]): The model inputs the candidates were decoded from.
            candidates (Sequence[Sequence[str]]): Each input's outputs (at least one each).
            forward (Sequence[Sequence[float]]): ``log p(candidate | input)`` of each, under the parser.
        """
        sources = [candidate for outputs in candidates for candidate in outputs]
        targets = [text for text, outputs in zip(inputs, candidates) for _ in outputs]
        backward = iter(target_log_likelihoods(self.model, self.tokenizer, sources, targets, max_length=self.max_length))
        chosen = []
        for outputs, ahead in zip(candidates, forward):
            scores = [score + RECONSTRUCTION_WEIGHT * next(backward)[0] for score in ahead]
            chosen.append(outputs[max(range(len(outputs)), key=scores.__getitem__)])
        return chosen
