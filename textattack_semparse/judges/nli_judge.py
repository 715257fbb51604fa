"""The ``nli:`` judge: two questions are the same when each entails the other.

A natural-language-inference model classifies (premise, hypothesis) pairs as entailment, neutral or
contradiction; a rewrite is ``same`` when the original entails it and it entails the original,
``different`` when either direction is a contradiction or neutral, as bidirectional entailment is
used to test paraphrases. ``nli:`` alone takes ``roberta-large-mnli`` (Liu et al. 2019, fine-tuned on
MultiNLI) from the Hugging Face hub; ``nli:<name or directory>`` any sequence-classification NLI
model whose ``config.id2label`` names an entailment label. Batched, on CUDA in half precision when
present, on the CPU otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ResourceError
from textattack_semparse.judges.judgement import Judgement, RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import MeaningJudge

DEFAULT_NLI_MODEL = "roberta-large-mnli"
"""The NLI model of ``nli:`` without a name (online; pass a local directory offline)."""


class NLIJudge(MeaningJudge):
    """Registered as ``nli``: ``nli:<model name or directory>``.

    Args:
        target (str, default "roberta-large-mnli"): The NLI model.
        batch_size (int, default 32): (premise, hypothesis) inputs per forward pass; a rewrite is
            two inputs, one per direction.
        device (str | None, default None): ``None`` picks CUDA when present, else the CPU.
    """

    def __init__(self, target: str = "", *, batch_size: int = 32, device: str | None = None) -> None:
        from textattack_semparse.torch_device import resolve_device

        check_count("batch_size", batch_size)
        self.target = target.strip() or DEFAULT_NLI_MODEL
        self.name = f"nli:{self.target}"
        self.batch_size = batch_size
        self.device = resolve_device(device)

    @cached_property
    def _loaded(self) -> tuple[Any, Any, int]:
        """The tokenizer, the model and the index of its entailment label."""
        import transformers

        from textattack_semparse.torch_device import for_inference
        from textattack_semparse.victims.lazy_pretrained import LOAD_ERRORS, unloadable

        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(self.target)
            model = transformers.AutoModelForSequenceClassification.from_pretrained(self.target)
        except LOAD_ERRORS as error:
            raise unloadable("The nli judge", self.target, self.target, error) from error
        labels = {index: str(label).lower() for index, label in model.config.id2label.items()}
        entailment = next((index for index, label in labels.items() if label.startswith("entail")), None)
        if entailment is None:
            raise ResourceError(
                f"The NLI model {self.target!r} names no entailment label (id2label: {model.config.id2label}); "
                "pass a model fine-tuned for natural language inference, such as roberta-large-mnli."
            )
        return tokenizer, for_inference(model, self.device, half_precision=True), int(entailment)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_loaded", None)
        return state

    def entailments(self, premises: Sequence[str], hypotheses: Sequence[str]) -> list[bool]:
        """Whether each premise entails its hypothesis (the entailment label scores highest)."""
        import torch

        if len(premises) != len(hypotheses):
            raise ValueError(f"{len(premises)} premises but {len(hypotheses)} hypotheses; give one of each per input.")
        if not premises:
            return []  # nothing to judge: no model to load
        tokenizer, model, entailment = self._loaded
        entailed: list[bool] = []
        for start in range(0, len(premises), self.batch_size):
            batch = tokenizer(
                list(premises[start : start + self.batch_size]),
                list(hypotheses[start : start + self.batch_size]),
                padding=True,
                truncation=True,
                return_tensors="pt",
            ).to(self.device)
            with torch.inference_mode():
                logits = model(**batch).logits
            entailed.extend(bool(label == entailment) for label in logits.argmax(dim=-1).tolist())
        return entailed

    def judge(self, pairs: Sequence[RewritePair]) -> list[Judgement]:
        originals = [pair.original for pair in pairs]
        rewrites = [pair.rewrite for pair in pairs]
        both = self.entailments(originals + rewrites, rewrites + originals)  # both directions, batched together
        forward, backward = both[: len(pairs)], both[len(pairs) :]
        judgements = []
        for there, back in zip(forward, backward, strict=True):
            if there and back:
                judgements.append(Judgement(Verdict.SAME, "each question entails the other"))
            else:
                missing = (
                    "the original does not entail the rewrite"
                    if not there
                    else "the rewrite does not entail the original"
                )
                judgements.append(Judgement(Verdict.DIFFERENT, missing))
        return judgements
