"""Inflections and inflectional classes of English words with ``lemminflect``.

Used to generate the forms of the noun-number, agreement and verb-form errors and, without
sentence context, to classify the two sides of an M2 edit. Class names are those of the
error model's form sets: ``singular``/``plural``, ``3sg``/``non-3sg`` and
``present``/``past``/``progressive``/``perfect``.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

BE_FORMS = frozenset({"be", "am", "is", "are", "was", "were", "been", "being"})
HAVE_FORMS = frozenset({"have", "has", "had", "having"})
_THIRD_SINGULAR = frozenset({"is", "was", "has", "does"})
_NOT_THIRD_SINGULAR = frozenset({"am", "are", "were", "have", "do"})


def _lemminflect() -> ModuleType:
    """``lemminflect``, imported on first use (it imports spaCy, hence torch)."""
    import lemminflect

    return lemminflect


def inflect(lemma: str, tag: str, *, guess: bool = True) -> str | None:
    """The first ``lemminflect`` inflection of ``lemma`` for the Penn ``tag``, if any.

    ``guess=False`` refuses rule-based forms of words outside lemminflect's lexicon
    (which produce ``magnanimousest``).
    """
    forms = _lemminflect().getInflection(lemma, tag=tag, inflect_oov=guess)
    return forms[0] if forms else None


def inflections(lemma: str, tag: str) -> tuple[str, ...]:
    """Every ``lemminflect`` inflection of ``lemma`` for the Penn ``tag``."""
    return tuple(_lemminflect().getInflection(lemma, tag=tag, inflect_oov=True))


def lemmatize(word: str, upos: str) -> str:
    """The first ``lemminflect`` lemma of ``word`` as a ``upos`` (``NOUN``, ``VERB``, ...)."""
    lemmas = _lemminflect().getLemma(word.lower(), upos=upos, lemmatize_oov=True)
    return lemmas[0] if lemmas else word.lower()


def noun_number(word: str) -> str | None:
    """``singular`` or ``plural`` for an English noun, ``None`` when ``word`` is not a word."""
    lowered = word.lower()
    if not lowered.isalpha():
        return None
    lemmas = _lemminflect().getLemma(lowered, upos="NOUN", lemmatize_oov=True)
    return "singular" if not lemmas or lowered in lemmas else "plural"


def verb_agreement(word: str) -> str | None:
    """``3sg`` or ``non-3sg`` for a present-tense verb form (``was``/``were`` too), else ``None``."""
    lowered = word.lower()
    if lowered in _THIRD_SINGULAR:
        return "3sg"
    if lowered in _NOT_THIRD_SINGULAR:
        return "non-3sg"
    if not lowered.isalpha():
        return None
    lemma = lemmatize(lowered, "VERB")
    if lowered != lemma and lowered in inflections(lemma, "VBZ"):
        return "3sg"
    if lowered == lemma:
        return "non-3sg"
    return None


def verb_group_form(tokens: Sequence[str]) -> str | None:
    """Classify a verb group (auxiliaries + main verb) as one of the four Vform forms.

    ``present`` (``walks``), ``past`` (``walked``), ``progressive`` (``walking``,
    ``is walking``), ``perfect`` (``has walked``, ``has been walking``, a bare ``gone``);
    ``None`` for anything else (modals, infinitives, passives, non-verbs).
    """
    lowered = [token.lower() for token in tokens]
    if not lowered or not all(token.isalpha() for token in lowered):
        return None
    *auxiliaries, head = lowered
    lemma = lemmatize(head, "VERB")
    if auxiliaries:
        if auxiliaries[0] in HAVE_FORMS and (
            (len(auxiliaries) == 1 and head in inflections(lemma, "VBN"))
            or (auxiliaries[1:] == ["been"] and head in inflections(lemma, "VBG"))
        ):
            return "perfect"
        if len(auxiliaries) == 1 and auxiliaries[0] in BE_FORMS and head in inflections(lemma, "VBG"):
            return "progressive"
        return None
    if head in inflections(lemma, "VBD"):
        return "past"
    if head in inflections(lemma, "VBG"):
        return "progressive"
    if head in inflections(lemma, "VBZ") or head in inflections(lemma, "VBP") or head == lemma:
        return "present"
    if head in inflections(lemma, "VBN"):
        return "perfect"
    return None
