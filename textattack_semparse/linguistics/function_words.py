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
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType

_RESOURCE = "function_words.txt"

MEANING_PRESERVING_CLASSES: tuple[str, ...] = ("articles", "forms of be", "function adverbs")
"""Classes whose insertion, deletion or substitution within the class rarely changes what a
question asks. Quantifiers, wh-words, negation, modals, conjunctions, prepositions
("rivers *in* texas" vs "rivers *near* texas") and have/do, which are often main verbs
("which state *has* the most people"), do."""


@functools.lru_cache(maxsize=1)
def load_function_word_classes() -> Mapping[str, frozenset[str]]:
    """The packaged list by class: ``{"articles": {"a", "an", "the"}, ...}`` (cached).

    A class starts at a ``# <class>`` comment directly followed by a word; other comments
    and blank lines are skipped.

    Example:
        >>> sorted(load_function_word_classes()["articles"])
        ['a', 'an', 'the']
    """
    lines = [line.strip() for line in resources.files("textattack_semparse").joinpath("resources", _RESOURCE).read_text("utf-8").splitlines()]
    classes: dict[str, set[str]] = {}
    current: str | None = None
    for line, following in zip(lines, lines[1:] + [""]):
        if line.startswith("#"):
            if following and not following.startswith("#"):
                current = line.lstrip("#").strip()
                classes[current] = set()
        elif line and current is not None:
            classes[current].add(line.lower())
    return MappingProxyType({name: frozenset(words) for name, words in classes.items()})


@functools.lru_cache(maxsize=1)
def load_function_words() -> frozenset[str]:
    """Every packaged function word, whatever its class (cached)."""
    return frozenset().union(*load_function_word_classes().values())


FUNCTION_WORDS: frozenset[str] = load_function_words()
