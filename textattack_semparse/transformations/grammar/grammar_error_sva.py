"""SVA: subject-verb agreement errors (Yin et al. 2020, Table 1).

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

_IRREGULAR = {
    "VBZ": {"is": "are", "has": "have", "does": "do"},
    "VBP": {"am": "is", "are": "is", "have": "has", "do": "does"},
}
_SWAP = {"VBZ": ("3sg", "VBP", "non-3sg"), "VBP": ("non-3sg", "VBZ", "3sg")}


class GrammarErrorSVA(GrammarErrorTransformation):
    """Flip the agreement of a present-tense verb: 3rd person singular <-> not.

    Confusion set ``{3sg, non-3sg}`` of a present-tense verb or auxiliary (Penn ``VBZ`` or
    ``VBP``): ``is``/``are``, ``has``/``have``, ``does``/``do``, ``flows``/``flow``. Past,
    base and participle forms and modals are left alone. See
    :class:`GrammarErrorTransformation` for the arguments and modes.

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in GrammarErrorSVA()(AttackedText("The river flows into the sea."))]
        ['The river flow into the sea.']

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.
    """

    error_type = "SVA"

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        edits = []
        for token in doc:
            if token.tag_ not in _SWAP or token.pos_ not in ("VERB", "AUX") or not token.text.isalpha():
                continue
            source, tag, target = _SWAP[token.tag_]
            new = _IRREGULAR[token.tag_].get(token.lower_) or inflect(token.lemma_.lower(), tag)
            if new and new.isalpha() and new != token.lower_:
                edits.append(
                    GrammarEdit(self.error_type, (token.i,), (match_case(token.text, new),), source, target, token.i)
                )
        return edits
