"""What WordNet says about the words of a question, as the default judge asks it: a word's base
forms, its common senses and their synonyms, the classes a name is an instance of, and whether a
name is a place.

Every answer is cached: a judge asks about the same few thousand words again and again.
Original to textattack-semparse (WordNet 3.0, Fellbaum 1998, through NLTK; sense frequencies
are WordNet's SemCor tag counts).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import Synset, WordNetCorpusReader

WORDNET_POS = {"NOUN": "n", "PROPN": "n", "VERB": "v", "AUX": "v", "ADJ": "a", "ADV": "r"}
"""spaCy's universal part of speech -> WordNet's."""

COMMON_SENSE_SHARE = 0.5
"""A sense of a word other than its first is common when SemCor tags the word in it at least this
share as often as in its most frequent sense (*flow* is "flow, flux" 13 times and "run, flow,
feed, course" 10 times; *population* is "population, universe" 3 times in 27) ..."""

COMMON_SENSE_TAGS = 5
"""... and at least this many times: fewer tags rank nothing (*elevation* is tagged twice in one
sense and once in each of two others)."""

LOCATION = "location.n.01"
"""WordNet's class of places: "a point or extent in space"."""


def _wordnet() -> WordNetCorpusReader:
    from textattack_semparse.linguistics.wordnet import load_wordnet

    return load_wordnet()


@functools.cache
def base_forms(word: str) -> frozenset[str]:
    """``word`` and its WordNet base forms in every part of speech.

    Example:
        >>> sorted(base_forms("rivers")), sorted(base_forms("largest"))
        (['river', 'rivers'], ['large', 'largest'])
    """
    wordnet = _wordnet()
    return frozenset({word} | {form for pos in "nvar" if (form := wordnet.morphy(word, pos)) is not None})


@functools.cache
def is_word(word: str) -> bool:
    """Whether WordNet knows ``word`` in some inflection.

    Example:
        >>> is_word("mist"), is_word("texsa")
        (True, False)
    """
    wordnet = _wordnet()
    return any(wordnet.morphy(word, pos) is not None for pos in "nvar")


@functools.cache
def has_sense(word: str, pos: str | None) -> bool:
    """Whether WordNet knows ``word`` (in some inflection) in the part of speech ``pos`` (``n``,
    ``v``, ``a``, ``r``); ``None``, a part of speech WordNet lacks (a preposition, a determiner),
    none of its words has.

    Example:
        >>> has_sense("mist", "n"), has_sense("mist", "a"), has_sense("main", "n"), has_sense("main", None)
        (True, False, True, False)
    """
    return pos is not None and bool(_wordnet().synsets(word, pos))


@functools.cache
def common_senses(lemma: str, pos: str) -> tuple[Synset, ...]:
    """The senses of ``lemma`` (WordNet part of speech ``pos``) a question uses it in: the first
    (WordNet orders senses by frequency) and any other tagged about as often
    (:data:`COMMON_SENSE_SHARE`, :data:`COMMON_SENSE_TAGS`). A WordNet without sense counts gives
    the first sense only.

    Example:
        >>> [sense.name() for sense in common_senses("flow", "v")]
        ['flow.v.01', 'run.v.06']
        >>> [sense.name() for sense in common_senses("population", "n")]
        ['population.n.01']
    """
    from textattack_semparse.linguistics.wordnet import tag_count

    senses = _wordnet().synsets(lemma, pos)
    counts = [tag_count(sense, lemma) for sense in senses]
    most = max(counts, default=0)
    return tuple(
        sense for index, (sense, count) in enumerate(zip(senses, counts, strict=True))
        if index == 0 or (count >= COMMON_SENSE_TAGS and count >= COMMON_SENSE_SHARE * most)
    )  # fmt: skip


def shared_common_sense(lemma: str, other: str, pos: str) -> Synset | None:
    """The common sense of ``lemma`` in which ``other`` (or its base form) is a synonym, if any.

    Example:
        >>> shared_common_sense("big", "large", "a").name()
        'large.a.01'
        >>> shared_common_sense("population", "universe", "n") is None
        True
    """
    forms = {other} | ({form} if (form := _wordnet().morphy(other, pos)) else set())
    for sense in common_senses(lemma, pos):
        if forms & {name.lower() for name in sense.lemma_names()}:
            return sense
    return None


@functools.cache
def name_classes(name: str) -> frozenset[str]:
    """The classes WordNet makes ``name`` (words joined by ``_``) an instance of, and their direct
    hypernyms: Boston is a state capital, and a state capital is a city. Farther classes
    (*area*, *location*) are too general to stand for the name.

    Example:
        >>> sorted(name_classes("boston"))
        ['capital.n.03', 'city.n.01', 'state_capital.n.01']
    """
    classes: set[str] = set()
    for sense in _wordnet().synsets(name, "n"):
        for kind in sense.instance_hypernyms():
            classes.add(kind.name())
            classes.update(parent.name() for parent in kind.hypernyms())
    return frozenset(classes)


def is_instance_of(name: str, noun: str) -> bool:
    """Whether ``name`` is an instance of a class ``noun`` names (in any of its senses).

    Example:
        >>> is_instance_of("ohio", "state"), is_instance_of("rio_grande", "rivers"), is_instance_of("texas", "capital")
        (True, True, False)
    """
    classes = name_classes(name)
    return bool(classes) and any(sense.name() in classes for sense in _wordnet().synsets(noun, "n"))


@functools.cache
def is_place(name: str) -> bool:
    """Whether ``name`` (words joined by ``_``) is a place: an instance of a kind of place (Ohio,
    New York), or a noun whose common sense is a kind of place (*state*, *city*; not *river*).

    Example:
        >>> is_place("ohio"), is_place("new_york"), is_place("states"), is_place("capital"), is_place("river")
        (True, True, True, False, False)
    """
    wordnet = _wordnet()
    kinds = [kind for sense in wordnet.synsets(name, "n") for kind in sense.instance_hypernyms()]
    lemma = wordnet.morphy(name, "n")
    if lemma is not None:
        kinds += common_senses(lemma, "n")
    return any(
        parent.name() == LOCATION for kind in kinds for parent in kind.closure(lambda synset: synset.hypernyms())
    )
