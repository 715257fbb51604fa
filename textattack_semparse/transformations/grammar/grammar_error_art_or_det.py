"""ArtOrDet: article/determiner errors (Yin et al. 2020, Table 1).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import GrammarErrorTransformation

if TYPE_CHECKING:
    from spacy.tokens import Doc

# Tags and dependencies of words that already fill (or exclude) the determiner slot.
_DETERMINER_TAGS = frozenset({"DT", "PDT", "WDT", "WP", "WP$", "WRB", "PRP", "PRP$", "CD", "EX"})
_DETERMINER_DEPS = frozenset({"det", "poss", "predet", "nummod"})


class GrammarErrorArtOrDet(GrammarErrorTransformation):
    """Replace or delete an article, or insert one before a bare noun phrase.

    Confusion set ``{a, an, the, ∅}``: an article (spaCy ``DET`` in the set) becomes another
    article or is deleted; a noun chunk headed by a common noun with no determiner, possessive,
    numeral or wh-word gets an article inserted before its first word (the word the insertion
    belongs to). See :class:`GrammarErrorTransformation` for the arguments and modes.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.
    """

    error_type = "ArtOrDet"

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        sources = [token.i for token in doc if token.pos_ == "DET"]
        anchors = []
        for chunk in doc.noun_chunks:
            if chunk.root.pos_ != "NOUN":
                continue
            if any(token.tag_ in _DETERMINER_TAGS or token.dep_ in _DETERMINER_DEPS for token in chunk):
                continue
            if chunk.start > 0 and doc[chunk.start - 1].pos_ == "DET":
                continue
            anchors.append(chunk.start)
        return self._closed_class_edits(doc, self.error_type, sources, anchors)
