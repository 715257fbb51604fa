"""Nouns the tagger may have read as verbs, after a question's opening determiner.

The packaged spaCy tagger reads a lower-cased question's noun after an opening *which*, *what*,
*whose* or *how many* as a verb when a verb may follow it: "which states border texas" tags
*states* VBZ, and so do "which flights depart ...", "what stops does DL 838 make" and "which
countries' tv channels ...". Read as a verb, *states* has the synonyms *says* and *tells*, and
"which says border texas" passed for the same question. A word in that place is read in both
ways: a synonym must hold in each.
"""

from __future__ import annotations

from collections.abc import Sequence

from textattack_semparse.linguistics.function_words import FUNCTION_WORDS

OPENING_DETERMINERS = frozenset({"which", "what", "whose"})
"""Words that, opening a question (or after a preposition: "through which states"), determine the noun after them."""

QUANTITY_OPENERS = (("how", "many"), ("how", "much"))
"""Two words that determine the noun after them wherever they stand."""


def may_be_noun(words: Sequence[str], tags: Sequence[str], index: int) -> bool:
    """Whether word ``index`` (of the lower-cased ``words``, Penn ``tags``) is tagged as a verb
    right after an opening determiner while WordNet knows it as a noun, and is no function word
    ("what is", "which does"): the tagger's verb may be the noun the determiner asks about.

    Example:
        >>> may_be_noun(["which", "states", "border", "texas"], ["WDT", "VBZ", "NNP", "NNP"], 1)
        True
        >>> may_be_noun(["the", "state", "which", "borders", "texas"], ["DT", "NN", "WDT", "VBZ", "NNP"], 3)
        False
        >>> may_be_noun(["what", "is", "the", "capital"], ["WP", "VBZ", "DT", "NN"], 1)
        False
    """
    from textattack_semparse.linguistics.wordnet import load_wordnet

    if index < 1 or not tags[index].startswith("VB") or words[index] in FUNCTION_WORDS:
        return False
    before = words[index - 1]
    opening = before in OPENING_DETERMINERS and (index == 1 or _is_preposition(words[index - 2], tags[index - 2]))
    quantity = index >= 2 and (words[index - 2], before) in QUANTITY_OPENERS
    if not (opening or quantity):
        return False
    return bool(load_wordnet().synsets(words[index], "n"))


def _is_preposition(word: str, tag: str) -> bool:
    """A preposition the tagger's IN names, and a function word (the tagger also reads "TW", an
    airline code, as IN)."""
    return tag == "IN" and word in FUNCTION_WORDS
