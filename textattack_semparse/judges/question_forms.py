"""Shapes of one question that ask the same thing, brought to one form before the default judge
compares two questions word by word.

* A word written twice in a row is read once: "the capital of of texas" is a slip.
* A request around an embedded question is not part of what it asks: "please tell me what rivers
  flow through colorado" asks "what rivers flow through colorado". The request is the words
  before the first question word when they are only verbs, pronouns, particles and interjections.
* A superlative said of the asked-for noun at the end asks what it asks before the noun: "which
  river in the us is the longest" is "which is the longest river in the us"; one right after its
  noun at the end is a slip of word order: "the population density smallest".

Each function returns its input unchanged when it does not apply. Original to textattack-semparse.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from textattack_semparse.linguistics.inflection import BE_FORMS
from textattack_semparse.linguistics.operator_words import QUESTION_WORDS

REQUEST_POS = frozenset({"VERB", "AUX", "PRON", "PART", "INTJ"})
"""spaCy's parts of speech of a request's words (*please*, *tell*, *me*, *can*, *you*, *to*, *know*)."""

ENTITY_QUESTION_WORDS = frozenset({"what", "which"})
"""Question words that take a noun: *which river*."""

SUPERLATIVE_TAGS = frozenset({"JJS", "RBS"})
"""Penn Treebank tags of superlatives."""


def read_once(words: Sequence[str]) -> list[str]:
    """``words`` with each word repeated next to itself read once.

    Example:
        >>> read_once(["the", "capital", "of", "of", "texas"])
        ['the', 'capital', 'of', 'texas']
    """
    return [word for index, word in enumerate(words) if index == 0 or word != words[index - 1]]


def without_request(words: Sequence[str], pos: Sequence[str]) -> list[str]:
    """``words`` from their first question word on, when the words before it are a request
    (parts of speech in :data:`REQUEST_POS`); ``pos`` are the words' spaCy parts of speech.

    Example:
        >>> without_request("please tell me what rivers flow".split(), ["INTJ", "VERB", "PRON", "PRON", "NOUN", "VERB"])
        ['what', 'rivers', 'flow']
        >>> without_request("in texas which rivers flow".split(), ["ADP", "PROPN", "DET", "NOUN", "VERB"])
        ['in', 'texas', 'which', 'rivers', 'flow']
    """
    first = _first_question_word(words)
    if not first or not all(tag in REQUEST_POS for tag in pos[:first]):
        return list(words)
    return list(words[first:])


def _first_question_word(words: Sequence[str]) -> int | None:
    """The position of the first question word of ``words`` (``None``: no question word)."""
    return next((index for index, word in enumerate(words) if word in QUESTION_WORDS), None)


def attributive_superlative(words: Sequence[str], tags: Sequence[str]) -> list[str]:
    """``what|which NOUN ... be the SUPERLATIVE`` as ``what|which be the SUPERLATIVE NOUN ...``;
    ``tags`` are the words' Penn Treebank tags. *most*/*least* and an adjective count as one
    superlative.

    Example:
        >>> attributive_superlative("which river in the us is the longest".split(),
        ...                         ["WDT", "NN", "IN", "DT", "PRP", "VBZ", "DT", "JJS"])
        ['which', 'is', 'the', 'longest', 'river', 'in', 'the', 'us']
        >>> attributive_superlative("which state is the most populous".split(), ["WDT", "NN", "VBZ", "DT", "RBS", "JJ"])
        ['which', 'is', 'the', 'most', 'populous', 'state']
    """
    last = len(words) - 1
    if last < 3 or words[0] not in ENTITY_QUESTION_WORDS:
        return list(words)
    if tags[last] in SUPERLATIVE_TAGS:
        start = last
    elif words[last - 1] in ("most", "least") and tags[last].startswith("JJ"):
        start = last - 1
    else:
        return list(words)
    verb = _be_before(words, start)
    if verb is None or not tags[1].startswith("NN"):
        return list(words)
    return [words[0], words[verb], "the", *words[start:], *words[1:verb]]


def postposed_superlative(words: Sequence[str], tags: Sequence[str]) -> list[str]:
    """``... the NOUN... SUPERLATIVE`` at the end of a question as ``... the SUPERLATIVE NOUN...``:
    a superlative after its noun is a slip of word order.

    Example:
        >>> postposed_superlative("which state has the population density smallest".split(),
        ...                       ["WDT", "NN", "VBZ", "DT", "NN", "NN", "JJS"])
        ['which', 'state', 'has', 'the', 'smallest', 'population', 'density']
    """
    last = len(words) - 1
    if last < 2 or tags[last] not in SUPERLATIVE_TAGS:
        return list(words)
    start = last - (words[last - 1] in ("most", "least"))
    article = start - 1
    while article >= 0 and tags[article].startswith("NN"):
        article -= 1
    if article == start - 1 or article < 0 or words[article] != "the":
        return list(words)
    return [*words[: article + 1], *words[start:], *words[article + 1 : start]]


def superlative_may_move(words: Sequence[str]) -> bool:
    """Whether :func:`attributive_superlative` or :func:`postposed_superlative` may change
    ``words``, whatever their tags: the one needs ``what|which`` first and a form of *be* before
    the last word (or before *most*/*least* and the last word), the other a *the* before the
    word ahead of the final superlative. When neither holds, the normal form needs no tags.

    Example:
        >>> superlative_may_move("which river is the longest".split()), superlative_may_move("how big is texas".split())
        (True, False)
    """
    last = len(words) - 1
    if last < 2:
        return False
    start = last - (words[last - 1] in ("most", "least"))
    if "the" in words[: start - 1]:
        return True
    starts = {last, start}
    return last >= 3 and words[0] in ENTITY_QUESTION_WORDS and any(_be_before(words, end) is not None for end in starts)


def _be_before(words: Sequence[str], start: int) -> int | None:
    """The position of the form of *be* before a superlative at ``start`` (a *the* may stand
    between them), when it is not one of the first two words."""
    verb = start - 1 - (words[start - 1] == "the")
    return verb if verb >= 2 and words[verb] in BE_FORMS else None


def normal_form(words: Sequence[str], *, pipeline: str) -> tuple[list[str], tuple[str, ...]]:
    """``words`` in the one form of their question (every rule above), and a note per rule that
    changed them. ``pipeline`` is the spaCy pipeline that tags them.

    Example:
        >>> from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE
        >>> normal_form("please tell me what river in the us is the longest".split(), pipeline=DEFAULT_PIPELINE)
        (['what', 'is', 'the', 'longest', 'river', 'in', 'the', 'us'], ('the request before the question word left out', 'the superlative put before its noun'))
    """
    form, notes = _normal_form(tuple(words), pipeline)
    return list(form), notes


def read_ahead(questions: Sequence[Sequence[str]], *, pipeline: str) -> None:
    """Read what :func:`normal_form` reads of ``questions`` in two spaCy batches: the parse of
    those with words before their question word (a request is told by parts of speech, which
    the parse decides), and the tags of those a superlative rule may change."""
    from textattack_semparse.linguistics.spacy_pipeline import parse_batch, tag_batch

    forms = [form for form in map(read_once, questions) if form]
    parse_batch([form for form in forms if _first_question_word(form)], name=pipeline)
    tag_batch([form for form in forms if superlative_may_move(form)], name=pipeline)


@functools.lru_cache(maxsize=4096)
def _normal_form(words: tuple[str, ...], pipeline: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """:func:`normal_form`, remembered per question: a judge meets each original once per candidate.
    Parses only a question with words before its question word, and tags only one whose words
    let a superlative move (:func:`superlative_may_move`)."""
    from textattack_semparse.linguistics.spacy_pipeline import word_annotations, word_tags

    notes: list[str] = []
    form = read_once(words)
    if len(form) < len(words):
        notes.append("a repeated word read once")
    if _first_question_word(form):
        shorter = without_request(form, word_annotations(tuple(form), pipeline).pos)
        if shorter != form:
            notes.append("the request before the question word left out")
            form = shorter
    if superlative_may_move(form):
        tags = word_tags(form, name=pipeline)
        turned = attributive_superlative(form, tags)
        if turned == form:
            turned = postposed_superlative(form, tags)
        if turned != form:
            notes.append("the superlative put before its noun")
            form = turned
    return tuple(form), tuple(notes)
