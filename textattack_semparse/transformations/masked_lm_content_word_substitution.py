"""Masked-LM content-word substitution
=======================================

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/ (substitution of non-function words).
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import WordSwap

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.operator_words import table_words
from textattack_semparse.tables.table_text import table_of
from textattack_semparse.transformations.derived_text import (
    check_question_length,
    match_case,
    question_text,
    question_word_count,
)
from textattack_semparse.transformations.masked_lm_candidates import MaskedLMCandidates
from textattack_semparse.transformations.word_edits import replace_word_at_index

DEFAULT_MODEL = "google/electra-base-generator"
"""ELECTRA's masked-LM generator (Clark et al., 2020), the model family Huang et al. use."""


class MaskedLMContentWordSubstitution(WordSwap):
    """Replace one non-function word by each of a masked LM's top-k words in its context.

    For every modifiable word of the question that is not a function word (nor, in a Table QA
    question, a word of its table's header or cells: the question's links to the table), the word is
    masked and the masked LM's ``top_k`` most probable whole words fill the gap, excluding
    the original word (any case) and word-piece artefacts; each candidate gives one
    perturbed question, with the original's capitalisation. All masks of a question are
    scored in batches (:class:`MaskedLMCandidates`). Deterministic.

    Huang et al. keep the n most similar of these by Sentence-BERT: wrap this transformation
    in :class:`~textattack_semparse.transformations.top_k_by_similarity.TopKBySimilarity`
    (``TopKBySimilarity(MaskedLMContentWordSubstitution(), k=n)``).

    Huang, Li, Qu and Pan (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/. The paper uses ELECTRA; the model size is
    ours (base generator). No offline masked LM exists on this project's machines; the
    offline alternative is
    :class:`~textattack_semparse.transformations.wordnet_synonym_substitution.WordNetSynonymSubstitution`.

    Args:
        model_name_or_path (str): Masked LM (Hub name or local directory). Default
            ``"google/electra-base-generator"``.
        top_k (int): Candidates per word. Default ``10``.
        function_words (Iterable[str] | None): Words never substituted; default ``None`` =
            the packaged function-word list.
        batch_size (int): Masked texts per forward pass. Default ``32``.
        max_length (int): Token limit per text. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = CUDA when available.
    """

    def __init__(
        self,
        model_name_or_path: str = DEFAULT_MODEL,
        top_k: int = 10,
        function_words: Iterable[str] | None = None,
        batch_size: int = 32,
        max_length: int = 128,
        device: str | None = None,
    ) -> None:
        super().__init__()
        check_count("top_k", top_k)
        if isinstance(function_words, str):
            raise ConfigurationTypeError(f"function_words must be an iterable of words, not the string {function_words!r}.")
        self.masked_lm = MaskedLMCandidates(
            model_name_or_path, batch_size=batch_size, max_length=max_length, device=device
        )
        self.model_name_or_path = model_name_or_path
        self.top_k = top_k
        self.function_words = None if function_words is None else tuple(sorted({w.lower() for w in function_words}))
        self.batch_size = batch_size
        self.max_length = max_length
        self.device = device
        self._function_words = frozenset(self.function_words) if self.function_words is not None else FUNCTION_WORDS

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        check_question_length(current_text, self)
        words = current_text.words
        count = question_word_count(current_text)
        named = table_words(table_of(current_text))  # a Table QA question's links to its table stay
        indices = [
            i for i in sorted(indices_to_modify)
            if i < count and words[i].lower() not in self._function_words and words[i].lower() not in named
        ]
        if not indices:
            return []
        mask = self.masked_lm.mask_token
        questions = [question_text(replace_word_at_index(current_text, i, mask)) for i in indices]
        fillers = self.masked_lm.top_words(questions, self.top_k, exclude=[[words[i]] for i in indices])
        return [
            replace_word_at_index(current_text, i, match_case(words[i], word))
            for i, candidates in zip(indices, fillers)
            for word, _ in candidates
        ]

    def extra_repr_keys(self) -> list[str]:
        return [
            "model_name_or_path", "top_k", "function_words", "batch_size", "max_length", "device",
        ] + super().extra_repr_keys()
