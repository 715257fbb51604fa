"""Worder: word order errors (Yin et al. 2020, Table 1).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import GrammarErrorTransformation

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_ADVERB_TAGS = frozenset({"RB", "RBR", "RBS"})
_PARTICIPLE_OR_MODAL_TAGS = frozenset({"VBN", "VBG", "MD"})


def _swappable_neighbour(token: Token) -> bool:
    return token.pos_ == "ADJ" or token.tag_ in _PARTICIPLE_OR_MODAL_TAGS


class GrammarErrorWorder(GrammarErrorTransformation):
    """Swap an adverb with the adjective, participle or modal next to it.

    ``clearly presented`` -> ``presented clearly``, ``can easily`` -> ``easily can``. Adverbs
    are Penn ``RB``/``RBR``/``RBS`` words other than negations; neighbours are spaCy ``ADJ``
    words or words tagged ``VBN``, ``VBG`` or ``MD``. The edit covers both words, and every
    candidate weighs the same. See :class:`GrammarErrorTransformation` for the arguments and
    modes.

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in GrammarErrorWorder()(AttackedText("The results are clearly presented."))]
        ['The results are presented clearly.']

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.
    """

    error_type = "Worder"

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        edits = []
        for adverb in doc:
            if adverb.tag_ not in _ADVERB_TAGS or adverb.dep_ == "neg" or not adverb.text.isalpha():
                continue
            for neighbour_index in (adverb.i - 1, adverb.i + 1):
                if not 0 <= neighbour_index < len(doc) or not _swappable_neighbour(doc[neighbour_index]):
                    continue
                first, second = sorted((adverb.i, neighbour_index))
                edits.append(
                    GrammarEdit(
                        self.error_type,
                        (first, second),
                        (doc[second].text, doc[first].text),
                        adverb.lower_,
                        doc[neighbour_index].lower_,
                        adverb.i,
                    )
                )
        return edits
