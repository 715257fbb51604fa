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
import string
from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType

from textattack_semparse.errors import ConfigurationError, closest_match_hint

_RESOURCE = "function_words.txt"

WORD_LISTS: Mapping[str, str | None] = MappingProxyType(
    {"meaning-preserving": None, "huang-2021": "huang_2021_function_words.txt"}
)
"""Named word lists of the function-word transformations (``word_list=``) -> packaged file.

``"meaning-preserving"`` (``None``: the classes of ``function_words.txt``, see
:data:`MEANING_PRESERVING_CLASSES`) is the default; ``"huang-2021"``, the list of the robustness
setting named after Huang et al. (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
https://aclanthology.org/2021.eacl-main.292/, is NLTK's English stop words | scikit-learn's
``ENGLISH_STOP_WORDS`` | the ASCII punctuation marks (see :func:`load_word_list`); the
function-word transformations use only its words of their classes and its punctuation marks."""

PUNCTUATION: frozenset[str] = frozenset(string.punctuation)
"""The ASCII punctuation marks; TextAttack's ``AttackedText.words`` never contains them."""

MEANING_PRESERVING_CLASSES: tuple[str, ...] = ("articles", "forms of be", "function adverbs")
"""Classes whose insertion, deletion or substitution within the class rarely changes what a
question asks (the function adverbs are discourse words: *also*, *however*, *there*,
*therefore*, *thus*). Quantifiers, wh-words, negation, modals, conjunctions, prepositions
("rivers *in* texas" vs "rivers *near* texas"), focus, degree, time and place adverbs ("rivers
*just* in texas", "*then*") and have/do, which are often main verbs ("which state *has* the
most people"), do."""


@functools.lru_cache(maxsize=1)
def load_function_word_classes() -> Mapping[str, frozenset[str]]:
    """The packaged list by class: ``{"articles": {"a", "an", "the"}, ...}`` (cached).

    A class starts at a ``# <class>`` comment directly followed by a word; other comments
    and blank lines are skipped.

    Example:
        >>> sorted(load_function_word_classes()["articles"])
        ['a', 'an', 'the']
    """
    lines = [line.strip() for line in (resources.files("textattack_semparse") / "resources" / _RESOURCE).read_text("utf-8").splitlines()]
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


@functools.cache
def load_word_list(name: str) -> tuple[str, ...]:
    """The packaged flat word list ``name`` of :data:`WORD_LISTS`, in file order (cached).

    ``"huang-2021"``: NLTK's 179 English stop words (with their contraction stems "isn",
    "don", "ll", ...), scikit-learn's ``ENGLISH_STOP_WORDS`` and the 32 ASCII punctuation
    marks. A line that is exactly ``#`` is the punctuation mark; longer ``#`` lines are
    comments. ``"meaning-preserving"`` has no flat list (it is made of classes); ask
    :func:`load_function_word_classes`.

    Raises:
        ValueError: ``name`` has no flat list; the message suggests the closest name.

    Example:
        >>> words = load_word_list("huang-2021")
        >>> {"show", "isn", "the", "?"} <= set(words) and "texas" not in words
        True
    """
    resource = WORD_LISTS.get(name)
    if resource is None:
        flat = [key for key, value in WORD_LISTS.items() if value is not None]
        raise ConfigurationError(
            f"No flat function-word list {name!r}.{closest_match_hint(name, WORD_LISTS)} Lists: {', '.join(flat)}."
        )
    text = (resources.files("textattack_semparse") / "resources" / resource).read_text("utf-8")
    words: dict[str, None] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not (line.startswith("#") and line != "#"):
            words[line.lower()] = None
    return tuple(words)
