"""Trans: link word/phrase errors (Yin et al. 2020, Table 1).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import GrammarErrorTransformation

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_LINKING_ADVERBS = frozenset({"however", "thus", "also", "therefore", "moreover", "besides"})
_WH_TAGS = frozenset({"WDT", "WP", "WRB"})


def _is_link_word(token: Token) -> bool:
    if token.tag_ in _WH_TAGS:  # relative pronouns link clauses; question words do not
        return token.head.dep_ == "relcl"
    if token.pos_ in ("CCONJ", "SCONJ"):
        return True
    return token.pos_ == "ADV" and token.lower_ in _LINKING_ADVERBS


class GrammarErrorTrans(GrammarErrorTransformation):
    """Replace or delete a link word, or insert one at the start of a sentence.

    Confusion set: the 17 link words of the paper's Table 1 plus ``∅``. A set member used as
    a linker (coordinating or subordinating conjunction, linking adverb such as *however*, or
    relative *which/that/where*; never a question word) becomes another one or is deleted.
    As in the authors' released code, insertions go at the start of a sentence (before its
    first word). See :class:`GrammarErrorTransformation` for the arguments and modes.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.
    """

    error_type = "Trans"

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        sources = [token.i for token in doc if _is_link_word(token)]
        anchors = [sentence.start for sentence in doc.sents]
        return self._closed_class_edits(doc, self.error_type, sources, anchors)
