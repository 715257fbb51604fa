"""Top-k by Sentence-BERT similarity
=====================================

Generate candidates with any transformation, keep the k closest to the input.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import torch
from textattack.transformations import Transformation

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings
from textattack_semparse.transformations.derived_text import question_text

if TYPE_CHECKING:
    from textattack.shared import AttackedText


def similarities_to_first(embeddings: torch.Tensor) -> torch.Tensor:
    """Cosine similarity of each embedding but the first to the first (1-D CPU tensor)."""
    return torch.nn.functional.cosine_similarity(embeddings[:1], embeddings[1:], dim=1)


def draw_order(rng: random.Random, count: int, sample_size: int) -> Iterator[int]:
    """Every index of ``range(count)`` once, in a random order whose first ``sample_size`` are
    ``rng.sample(range(count), sample_size)``, drawn as lazily.

    So a selection that draws candidates one by one, and skips some (the meaning judge's
    rejections), takes the very sample ``rng.sample`` takes when none is skipped. CPython's
    ``random.sample`` draws from a shrinking pool when ``count`` is small next to the set it
    would otherwise keep, else by rejection from a set of the indices drawn; both are continued
    past ``sample_size`` the same way (the tests compare the two on many sizes).

    Example:
        >>> list(itertools.islice(draw_order(random.Random(3), 50, 4), 4)) == random.Random(3).sample(range(50), 4)
        True
    """
    set_size = 21 if sample_size <= 5 else 21 + 4 ** math.ceil(math.log(sample_size * 3, 4))
    if count <= set_size:
        pool = list(range(count))
        for drawn in range(count):
            j = rng.randrange(count - drawn)
            yield pool[j]
            pool[j] = pool[count - drawn - 1]
        return
    selected: set[int] = set()
    while len(selected) < count:
        j = rng.randrange(count)
        while j in selected:
            j = rng.randrange(count)
        selected.add(j)
        yield j


class TopKBySimilarity(Transformation):
    """Keep the ``k`` candidates of ``transformation`` most similar to the input text.

    Calls ``transformation`` with the same ``indices_to_modify`` (so pre-transformation
    constraints such as ``PreserveLiterals`` reach it), optionally samples
    ``num_candidates`` of its outputs with an owned generator, scores them by the cosine
    similarity of their Sentence-BERT embeddings to the input question (first input
    column), and returns the ``k`` best, most similar first (ties keep the inner order).
    Each kept text records its score in ``attack_attrs["similarity_score"]``, the key
    TextAttack's sentence encoders use. Embeddings come from
    :class:`~textattack_semparse.linguistics.sentence_embeddings.SentenceEmbeddings` (lazy
    model, LRU cache), or from the ``encode`` of the encoder given (a
    ``SentenceBERTSimilarity`` constraint shares its cache this way).

    Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large
    Pre-trained Language Model: An Empirical Study on Codex", EACL 2023,
    https://arxiv.org/abs/2301.12868 (20 candidates per utterance, the 10 most
    similar kept), and Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
    EACL 2021, https://aclanthology.org/2021.eacl-main.292/ (the n most similar
    masked-LM substitutions, the best of the back-translation bridges).

    Args:
        transformation (Transformation): Generator of the candidates.
        k (int): Candidates kept. Default ``10``.
        num_candidates (int | None): Sample this many of the generated candidates before
            ranking; ``None`` (default) ranks all of them.
        encoder (Any | str | None): Embedding source: anything with
            ``encode(list[str]) -> Tensor`` (a ``SentenceEmbeddings``, or a
            ``SentenceBERTSimilarity`` constraint, whose cache is then shared), a
            sentence-transformers model name or path, or ``None`` (default) for the packaged
            all-MiniLM-L6-v2 (offline).
        seed (int | None): Seed of the sampler used when ``num_candidates`` is set.
            Default ``None``.

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
        >>> best = TopKBySimilarity(FunctionWordDeletion(), k=1)(AttackedText("what is the capital of texas"))
        >>> [t.text for t in best]
        ['what the capital of texas']
    """

    def __init__(
        self,
        transformation: Transformation,
        k: int = 10,
        num_candidates: int | None = None,
        encoder: Any = None,
        seed: int | None = None,
    ) -> None:
        if not isinstance(transformation, Transformation):
            raise ConfigurationTypeError(f"transformation must be a TextAttack Transformation, got {transformation!r}.")
        check_count("k", k)
        check_count("num_candidates", num_candidates, minimum=k, none_means="rank all")
        if isinstance(encoder, str):
            encoder = SentenceEmbeddings(encoder)
        if encoder is not None and not callable(getattr(encoder, "encode", None)):
            raise ConfigurationTypeError(
                f"encoder must have encode(list[str]) -> Tensor (SentenceEmbeddings, SentenceBERTSimilarity), "
                f"or be a sentence-transformers model name or path, or None; got {encoder!r}."
            )
        check_seed(seed)
        self.transformation = transformation
        self.k = k
        self.num_candidates = num_candidates
        self.encoder = encoder
        self.seed = seed
        self._encoder = encoder if encoder is not None else SentenceEmbeddings()
        self._rng = random.Random(seed)

    def similarities(self, reference: str, candidates: list[str]) -> torch.Tensor:
        """Cosine similarity of each of ``candidates`` to ``reference`` (1-D CPU tensor)."""
        if not candidates:
            return torch.empty(0)
        return similarities_to_first(self._encoder.encode([reference, *candidates]))

    def draw_order(self, count: int) -> Iterator[int]:
        """The order in which the sampler draws ``count`` candidates (:func:`draw_order` with
        the owned generator): its first ``num_candidates`` are the sample ranked."""
        return draw_order(self._rng, count, self.num_candidates or count)

    def rank(self, candidates: list[AttackedText], scores: list[float]) -> list[AttackedText]:
        """The ``k`` of ``candidates`` with the highest ``scores``, most similar first (ties keep
        their order), each with its score as ``attack_attrs["similarity_score"]``."""
        order = sorted(range(len(candidates)), key=lambda i: -scores[i])[: self.k]
        for i in order:
            candidates[i].attack_attrs["similarity_score"] = scores[i]
        return [candidates[i] for i in order]

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        candidates = list(self.transformation(current_text, indices_to_modify=set(indices_to_modify)))
        if self.num_candidates is not None and len(candidates) > self.num_candidates:
            chosen = sorted(itertools.islice(self.draw_order(len(candidates)), self.num_candidates))
            candidates = [candidates[i] for i in chosen]
        if not candidates:
            return []
        scores = self.similarities(question_text(current_text), [question_text(c) for c in candidates]).tolist()
        return self.rank(candidates, scores)

    @property
    def deterministic(self) -> bool:
        return self.transformation.deterministic and self.num_candidates is None

    def extra_repr_keys(self) -> list[str]:
        return ["transformation", "k", "num_candidates", "encoder", "seed"] + super().extra_repr_keys()
