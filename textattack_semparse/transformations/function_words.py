"""The packaged English function-word list.

``resources/function_words.txt`` is the single source of truth: textattack-semparse's own
list of closed-class English words (articles, determiners, pronouns, wh-words,
prepositions, conjunctions, auxiliaries and modals, particles, function adverbs and
contractions). It feeds the function-word transformations and serves as the offline
English stopword list. This module imports nothing heavy, so the TextAttack shim may use
it before ``textattack`` is imported.

Example:
    >>> "the" in FUNCTION_WORDS and "don't" in FUNCTION_WORDS
    True
    >>> "texas" in FUNCTION_WORDS
    False
"""

from __future__ import annotations

import functools
from importlib import resources

_RESOURCE = "function_words.txt"


@functools.lru_cache(maxsize=1)
def load_function_words() -> frozenset[str]:
    """Read the packaged list (cached): lowercase words, ``#`` comments and blanks skipped."""
    text = resources.files("textattack_semparse").joinpath("resources", _RESOURCE).read_text("utf-8")
    words = (line.strip().lower() for line in text.splitlines())
    return frozenset(word for word in words if word and not word.startswith("#"))


FUNCTION_WORDS: frozenset[str] = load_function_words()
