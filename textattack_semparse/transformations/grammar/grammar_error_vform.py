"""Vform: verb form errors (Yin et al. 2020, Table 1).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textattack_semparse.linguistics.inflection import inflect
from textattack_semparse.transformations.grammar.error_model import FORM_SETS
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import (
    GrammarErrorTransformation,
    match_case,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_THIRD_SINGULAR_SUBJECTS = frozenset({"he", "she", "it", "this", "that"})
_BE = {"3sg": "is", "1sg": "am", "other": "are"}
_FINITE_BE = frozenset({"am", "is", "are", "was", "were"})
_FINITE_HAVE = frozenset({"has", "have", "had"})


def _person(verb: Token, finite: Token) -> str:
    """``3sg``, ``1sg`` or ``other``, from the finite word, else from the subject."""
    if finite.tag_ == "VBZ" or finite.lower_ in ("is", "has", "was"):
        return "3sg"
    subjects = [child for child in verb.children if child.dep_ == "nsubj"]
    if finite.lower_ == "am" or (subjects and subjects[0].lower_ == "i"):
        return "1sg"
    if finite.tag_ == "VBP" or not subjects:
        return "other"
    subject = subjects[0]
    return "3sg" if subject.tag_ in ("NN", "NNP") or subject.lower_ in _THIRD_SINGULAR_SUBJECTS else "other"


class GrammarErrorVform(GrammarErrorTransformation):
    """Put a verb group into another of the forms present, past, progressive, perfect.

    Confusion set ``{present, past, progressive, perfect}`` of a main verb (spaCy ``VERB``)
    whose group is recognisably one of them: ``flows``/``flow`` (present), ``flowed`` (past),
    ``is flowing`` (progressive), ``has flowed`` (perfect), with the auxiliary directly before
    the verb. Modal, *do*-support, passive and non-finite groups are left alone. The new group
    agrees with the subject (``is``/``am``/``are``, ``has``/``have``); auxiliaries are deleted
    or inserted in the verb's slot, so the edit covers the auxiliary and the verb.
    See :class:`GrammarErrorTransformation` for the arguments and modes.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.
    """

    error_type = "Vform"

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        edits = []
        for verb in doc:
            group = _verb_group(verb)
            if group is None:
                continue
            auxiliaries, form = group
            finite = auxiliaries[0] if auxiliaries else verb
            realised = _realisations(verb, _person(verb, finite))
            indices = tuple(token.i for token in auxiliaries) + (verb.i,)
            for target in FORM_SETS[self.error_type]:
                new = realised.get(target)
                if target == form or not new:
                    continue
                replacement = ("",) * len(auxiliaries) + (match_case(doc[indices[0]].text, new),)
                edits.append(GrammarEdit(self.error_type, indices, replacement, form, target, verb.i))
        return edits


def _verb_group(verb: Token) -> tuple[list[Token], str] | None:
    """The auxiliaries right before ``verb`` and the group's form, or ``None``."""
    if verb.pos_ != "VERB" or not verb.text.isalpha():
        return None
    auxiliaries = [child for child in verb.children if child.dep_ in ("aux", "auxpass")]
    if any(child.dep_ == "auxpass" for child in auxiliaries):
        return None
    if not auxiliaries:
        form = {"VBZ": "present", "VBP": "present", "VBD": "past"}.get(verb.tag_)
        return ([], form) if form else None
    if len(auxiliaries) != 1 or auxiliaries[0].i != verb.i - 1:
        return None
    auxiliary = auxiliaries[0].lower_
    if auxiliary in _FINITE_BE and verb.tag_ == "VBG":
        return auxiliaries, "progressive"
    if auxiliary in _FINITE_HAVE and verb.tag_ == "VBN":
        return auxiliaries, "perfect"
    return None


def _realisations(verb: Token, person: str) -> dict[str, str | None]:
    lemma = verb.lemma_.lower()
    participle = inflect(lemma, "VBN")
    gerund = inflect(lemma, "VBG")
    return {
        "present": inflect(lemma, "VBZ" if person == "3sg" else "VBP"),
        "past": inflect(lemma, "VBD"),
        "progressive": f"{_BE[person]} {gerund}" if gerund else None,
        "perfect": f"{'has' if person == '3sg' else 'have'} {participle}" if participle else None,
    }
