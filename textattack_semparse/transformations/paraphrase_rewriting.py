"""Paraphrase rewriting
=========================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (RB).
"""

from __future__ import annotations

from collections.abc import Sequence

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.transformations.sentence_rewrite_transformation import SentenceRewriteTransformation
from textattack_semparse.transformations.seq2seq_generator import Seq2SeqGenerator

DEFAULT_MODEL = "tuner007/pegasus_paraphrase"
"""A public PEGASUS model fine-tuned for sentence paraphrasing (no task prefix)."""


class ParaphraseRewriting(SentenceRewriteTransformation):
    """Rewrite the question with a seq2seq paraphrase model: the top beams are the candidates.

    ``prefix + question`` goes to the model (:class:`Seq2SeqGenerator`, any
    ``AutoModelForSeq2SeqLM``; T5 paraphrasers usually want ``prefix="paraphrase: "``),
    and the ``num_candidates`` best beams are returned, best first, after dropping copies
    of the question, duplicates and rewrites that lose a protected word (see
    :class:`SentenceRewriteTransformation`). Beam search, no sampling: deterministic.

    Zhuo et al. generate 20 candidates and keep the 10 most similar to the question by
    Sentence-BERT: ``TopKBySimilarity(ParaphraseRewriting(), k=10)``.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868 (sentence-level rewriting, RB).
    Deviation: the default model is the public PEGASUS paraphraser
    ``tuner007/pegasus_paraphrase`` (Zhang et al., 2020, PEGASUS, ICML,
    https://arxiv.org/abs/1912.08777), chosen here; pass the paraphraser of your choice.
    No paraphrase model is available offline here.

    Args:
        model_name_or_path (str): Seq2seq paraphrase model (Hub name or local directory).
            Default ``"tuner007/pegasus_paraphrase"``.
        num_candidates (int): Beams returned per question (also the beam size). Default
            ``20``.
        prefix (str): Text put before the question, e.g. ``"paraphrase: "``. Default ``""``.
        batch_size (int): Questions per ``generate`` call. Default ``8``.
        max_length (int): Input token limit. Default ``128``.
        max_new_tokens (int): Output token limit. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = CUDA when available.
    """

    def __init__(
        self,
        model_name_or_path: str = DEFAULT_MODEL,
        num_candidates: int = 20,
        prefix: str = "",
        batch_size: int = 8,
        max_length: int = 128,
        max_new_tokens: int = 128,
        device: str | None = None,
    ) -> None:
        check_count("num_candidates", num_candidates)
        if not isinstance(prefix, str):
            raise ConfigurationTypeError(f"prefix must be a string such as 'paraphrase: ' or '', got {prefix!r}.")
        self.generator = Seq2SeqGenerator(
            model_name_or_path,
            batch_size=batch_size,
            max_length=max_length,
            max_new_tokens=max_new_tokens,
            device=device,
        )
        self.model_name_or_path = model_name_or_path
        self.num_candidates = num_candidates
        self.prefix = prefix
        self.batch_size = batch_size
        self.max_length = max_length
        self.max_new_tokens = max_new_tokens
        self.device = device

    def rewrite(self, questions: Sequence[str]) -> list[list[str]]:
        """Per question, its ``num_candidates`` best paraphrases."""
        return self.generator.generate(
            [self.prefix + question for question in questions],
            num_return_sequences=self.num_candidates,
            num_beams=self.num_candidates,
        )

    def extra_repr_keys(self) -> list[str]:
        return [
            "model_name_or_path", "num_candidates", "prefix", "batch_size", "max_length", "max_new_tokens", "device",
        ] + super().extra_repr_keys()
