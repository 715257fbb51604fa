"""Nn: noun number errors (Yin et al. 2020, Table 1).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textattack_semparse.linguistics.inflection import inflect
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import (
    GrammarErrorTransformation,
    match_case,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

_NUMBER_OF_TAG = {"NN": ("singular", "NNS", "plural"), "NNS": ("plural", "NN", "singular")}


class GrammarErrorNn(GrammarErrorTransformation):
    """Change the number of a common noun: singular to plural or plural to singular.

    Confusion set ``{singular, plural}`` of a noun (spaCy ``NOUN`` tagged ``NN``/``NNS``;
    proper nouns are left alone); the other form comes from ``lemminflect``. See
    :class:`GrammarErrorTransformation` for the arguments and modes.

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in GrammarErrorNn()(AttackedText("what is the capital of texas"))]
        ['what is the capitals of texas']

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.
    """

    error_type = "Nn"

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        edits = []
        for token in doc:
            if token.pos_ != "NOUN" or token.tag_ not in _NUMBER_OF_TAG or not token.text.isalpha():
                continue
            source, tag, target = _NUMBER_OF_TAG[token.tag_]
            new = inflect(token.lemma_.lower(), tag)
            if new and new.isalpha() and new != token.lower_:
                edits.append(
                    GrammarEdit(self.error_type, (token.i,), (match_case(token.text, new),), source, target, token.i)
                )
        return edits
