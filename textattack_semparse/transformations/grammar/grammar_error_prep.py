"""Prep: preposition errors (Yin et al. 2020, Table 1).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import GrammarErrorTransformation

if TYPE_CHECKING:
    from spacy.tokens import Doc

_PREPOSITION_DEPS = frozenset({"prep", "agent", "dative", "prt"})


class GrammarErrorPrep(GrammarErrorTransformation):
    """Replace or delete a preposition, or insert one before a direct object.

    Confusion set: the 29 prepositions of the paper's Table 1 plus ``∅``. A preposition
    (spaCy ``ADP``, or a ``prep``/``agent``/``dative``/``prt`` dependent, not a conjunction)
    in the set becomes another one or is deleted; a preposition is inserted before a noun
    chunk that is the direct object of a verb ("discuss about the plan"), the insertion
    belonging to the chunk's first word. See :class:`GrammarErrorTransformation` for the
    arguments and modes.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.
    """

    error_type = "Prep"

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        sources = [
            token.i
            for token in doc
            if (token.pos_ == "ADP" or token.dep_ in _PREPOSITION_DEPS) and token.pos_ not in ("CCONJ", "SCONJ")
        ]
        anchors = [
            chunk.start
            for chunk in doc.noun_chunks
            if chunk.root.dep_ == "dobj"
            and chunk.root.head.pos_ == "VERB"
            and (chunk.start == 0 or doc[chunk.start - 1].pos_ != "ADP")
        ]
        return self._closed_class_edits(doc, self.error_type, sources, anchors)
