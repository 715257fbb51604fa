"""Back translation
====================

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/ (sentence-level perturbation by back translation).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.transformations.sentence_rewrite_transformation import SentenceRewriteTransformation
from textattack_semparse.transformations.seq2seq_generator import Seq2SeqGenerator

DEFAULT_BRIDGES: tuple[tuple[str, str], ...] = (
    ("Helsinki-NLP/opus-mt-en-ru", "Helsinki-NLP/opus-mt-ru-en"),
    ("Helsinki-NLP/opus-mt-en-fr", "Helsinki-NLP/opus-mt-fr-en"),
    ("Helsinki-NLP/opus-mt-en-jap", "Helsinki-NLP/opus-mt-jap-en"),
)
"""MarianMT (OPUS-MT) pairs for the paper's bridge languages: Russian, French, Japanese."""


class BackTranslation(SentenceRewriteTransformation):
    """Translate the question into each bridge language and back: one candidate per bridge.

    Each bridge is a pair of seq2seq models (English -> bridge, bridge -> English), given by
    Hub name or local directory and loaded on first use (:class:`Seq2SeqGenerator`:
    ``AutoModelForSeq2SeqLM`` + ``AutoTokenizer``, so any MarianMT, T5 or BART model fits).
    :meth:`rewrite` translates a whole batch of questions through each bridge in batches of
    ``batch_size``; ``_get_transformations`` does so for one question and keeps the distinct
    round trips that differ from it and keep the protected words (see
    :class:`SentenceRewriteTransformation`), in bridge order. Beam search, no sampling:
    deterministic.

    Huang et al. keep the best bridge by Sentence-BERT similarity: wrap this transformation
    in :class:`~textattack_semparse.transformations.top_k_by_similarity.TopKBySimilarity`
    with ``k=1``.

    Huang, Li, Qu and Pan (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/ (bridges Russian, French and Japanese, through
    the Google translation API).
    Default models: OPUS-MT (Tiedemann and Thottingal, 2020, "OPUS-MT -- Building open
    translation services for the World", EAMT, https://aclanthology.org/2020.eamt-1.61/);
    the Japanese pair is ``opus-mt-en-jap``/``opus-mt-jap-en``, the Hub's only OPUS-MT
    models for English into Japanese. No translation model is available offline here.

    Args:
        bridges (Iterable[tuple[str, str]] | None): ``(to_bridge, from_bridge)`` model
            names or paths; ``None`` (default) = :data:`DEFAULT_BRIDGES`.
        batch_size (int): Questions per ``generate`` call. Default ``16``.
        max_length (int): Input token limit. Default ``128``.
        max_new_tokens (int): Output token limit. Default ``128``.
        num_beams (int | None): Beam size; ``None`` (default) = each model's generation
            config.
        device (str | None): Torch device; ``None`` (default) = CUDA when available.
    """

    def __init__(
        self,
        bridges: Iterable[tuple[str, str]] | None = None,
        batch_size: int = 16,
        max_length: int = 128,
        max_new_tokens: int = 128,
        num_beams: int | None = None,
        device: str | None = None,
    ) -> None:
        pairs = None if bridges is None else _bridge_pairs(bridges)
        check_count("num_beams", num_beams, none_means="model default")
        self.bridges = pairs
        self.batch_size = batch_size
        self.max_length = max_length
        self.max_new_tokens = max_new_tokens
        self.num_beams = num_beams
        self.device = device
        generators: dict[str, Seq2SeqGenerator] = {}
        self._bridges = pairs or DEFAULT_BRIDGES
        for name in dict.fromkeys(model for pair in self._bridges for model in pair):
            generators[name] = Seq2SeqGenerator(
                name, batch_size=batch_size, max_length=max_length, max_new_tokens=max_new_tokens, device=device
            )
        self._generators = generators

    def translate(self, model_name_or_path: str, texts: Sequence[str]) -> list[str]:
        """Best translation of each of ``texts`` by one model of the bridges."""
        return [outputs[0] for outputs in self._generators[model_name_or_path].generate(texts, num_beams=self.num_beams)]

    def rewrite(self, questions: Sequence[str]) -> list[list[str]]:
        """Per question, its round trip through each bridge, in bridge order."""
        rewrites: list[list[str]] = [[] for _ in questions]
        for to_bridge, from_bridge in self._bridges:
            for outputs, back in zip(rewrites, self.translate(from_bridge, self.translate(to_bridge, questions))):
                outputs.append(back)
        return rewrites

    def extra_repr_keys(self) -> list[str]:
        return ["bridges", "batch_size", "max_length", "max_new_tokens", "num_beams", "device"] + super().extra_repr_keys()


def _bridge_pairs(bridges: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    pairs = tuple(pair if isinstance(pair, str) else tuple(pair) for pair in bridges)
    if not pairs or not all(isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(m, str) and m for m in pair) for pair in pairs):
        raise ConfigurationError(
            f"bridges must be a non-empty iterable of (to_bridge, from_bridge) model name or path pairs, "
            f"got {pairs!r}; pass None for the Russian, French and Japanese OPUS-MT models."
        )
    return tuple((to_bridge, from_bridge) for to_bridge, from_bridge in pairs)
