"""Edits of a question's words that leave what it asks unchanged, as the default judge recognises
them. Each function gets the words of the question that holds the edited words (lower-cased, as
:func:`~.operator_words.question_words` reads them; with their Penn Treebank tags where it needs
them) and returns the reason the edit is harmless, in words a person checks quickly, or ``None``
when it does not apply.

Original to textattack-semparse.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from textattack_semparse.judges.question_forms import ENTITY_QUESTION_WORDS, SUPERLATIVE_TAGS
from textattack_semparse.judges.word_senses import base_forms, is_instance_of, is_place
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.inflection import BE_FORMS
from textattack_semparse.linguistics.operator_words import (
    ARTICLES,
    QUESTION_WORDS,
    RELATIVE_WORDS,
    has_digit,
    is_free,
    operator_class,
)

MAX_NAME_WORDS = 3
"""The longest name the judge looks up in WordNet (*salt lake city*)."""

COORDINATORS = frozenset({"and", "but"})
"""Conjunctions that may join an appended statement to the question or to another statement."""

BACK_REFERENCES = RELATIVE_WORDS | frozenset(
    {"it", "its", "they", "them", "their", "this", "these", "those", "he", "she", "his", "her", "there", "here"}
)
"""Words that refer back to the question: a clause they start says something about its things."""

ANSWER_NAMES = frozenset({"name", "names"})
"""*The name(s) of X* asks for X: a database answers with the names of its things."""

FINITE_VERB_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
"""Tags of a finite verb or modal, which begins a predicate: a phrase before one has ended."""

MODIFIER_TAGS = frozenset({"DT", "PDT", "JJ", "JJR", "JJS", "RBS", "CD"})
"""Tags of the words before a noun phrase's head: determiners, adjectives, numbers."""

NOUN_PHRASE_END_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS", "PRP", "CD"})
"""Tags that can end a noun phrase."""


def appended_statement(original: Sequence[str], rewrite: Sequence[str], mentioned: Collection[str]) -> str | None:
    """The rewrite is the original followed by statements that cannot restrict its answer: each
    is a clause *X is (not) Y* with a subject of its own that neither refers back to the question
    nor asks a question of its own (or is a tautology, *who is who*), with no digit or quantifier
    and no content word in ``mentioned`` (the base forms of the words the question names). A
    condition on the question attaches to it instead (*that is not in alaska*, *and have a
    coastline*, *with more than 10000 people*). Zhuo et al. (2023) test parsers with such
    distraction statements, after Naik et al.'s (2018) NLI stress tests (*and true is true*).

    Example:
        >>> question = "what is the area of alaska".split()
        >>> appended_statement(question, question + "true is true and false is not true".split(), {"area", "alaska"})
        "appended 'true is true and false is not true': a statement about nothing the question asks"
        >>> appended_statement(question, question + "that is not in anchorage".split(), {"area", "alaska"}) is None
        True
    """
    if len(rewrite) <= len(original) or list(rewrite[: len(original)]) != list(original):
        return None
    suffix = list(rewrite[len(original) :])
    if not _statements(suffix, frozenset(mentioned)):
        return None
    return f"appended {' '.join(suffix)!r}: a statement about nothing the question asks"


def _statements(words: list[str], mentioned: frozenset[str]) -> bool:
    """Whether ``words`` split into statements of :func:`appended_statement`."""
    if not words:
        return True
    if words[0] in COORDINATORS:
        words = words[1:]
    for verb in range(1, len(words) - 1):
        if words[verb] not in BE_FORMS:
            continue
        negated = words[verb + 1] == "not"
        start = verb + 1 + negated
        for end in range(start + 1, len(words) + 1):
            if _false_of_truth(words[:verb], words[start:end], negated):
                continue
            if _says_nothing_of(words[:verb], words[start:end], mentioned) and _statements(words[end:], mentioned):
                return True
    return False


TRUTH_VALUES = frozenset({"true", "false"})


def _false_of_truth(subject: list[str], complement: list[str], negated: bool) -> bool:
    """Whether the statement is a false one about truth values (*true is false*, *true is not
    true*): joined to the question by *and*, it would make the question ask for nothing."""
    if len(subject) != 1 or len(complement) != 1 or not {subject[0], complement[0]} <= TRUTH_VALUES:
        return False
    return (subject[0] == complement[0]) == negated


def _says_nothing_of(subject: list[str], complement: list[str], mentioned: frozenset[str]) -> bool:
    """Whether *subject is complement* is a statement that restricts nothing the question asks."""
    if subject == complement:
        return True
    if subject[0] in BACK_REFERENCES or subject[0] in QUESTION_WORDS or operator_class(subject[0]) == "preposition":
        return False
    for word in subject + complement:
        if has_digit(word) or operator_class(word) == "quantifier":
            return False
        if word not in FUNCTION_WORDS and base_forms(word) & mentioned:
            return False
    return True


def class_noun_apposition(words: Sequence[str], start: int, end: int) -> str | None:
    """``words[start:end]``, added or dropped, is a noun naming the class of a name next to it,
    with articles and *of*: "the state of ohio" is Ohio, "the rio grande river" the Rio Grande.
    WordNet must make the name an instance of the class (:func:`~.word_senses.is_instance_of`):
    "the capital of texas" is not Texas.

    Example:
        >>> class_noun_apposition("which rivers run through the state of ohio".split(), 4, 7)
        "'the state of' names the class of 'ohio'"
        >>> class_noun_apposition("how long is the rio grande river".split(), 6, 7)
        "'river' names the class of 'rio grande'"
        >>> class_noun_apposition("what is the population of the capital of texas".split(), 6, 8) is None
        True
    """
    block = list(words[start:end])
    nouns = [word for word in block if word not in ARTICLES and word != "of"]
    if len(nouns) != 1 or block.count("of") > 1:
        return None
    if "of" in block:  # "the state of" + "ohio", or "of the state" + "of texas"
        if block[-1] == "of":
            name_start = end
        elif block[0] == "of" and end < len(words) and words[end] == "of":
            name_start = end + 1
        else:
            return None
        candidates = [words[name_start : name_start + length] for length in range(MAX_NAME_WORDS, 0, -1)]
    else:  # "river" after "rio grande", or before a name
        candidates = [words[end : end + length] for length in range(MAX_NAME_WORDS, 0, -1)]
        candidates += [words[max(0, start - length) : start] for length in range(MAX_NAME_WORDS, 0, -1)]
    for name in candidates:
        if name and is_instance_of("_".join(name), nouns[0]):
            return f"{' '.join(block)!r} names the class of {' '.join(name)!r}"
    return None


def answer_phrase(words: Sequence[str], tags: Sequence[str], start: int, end: int) -> str | None:
    """``words[start:end]``, added or dropped, is *all* or *the name(s) of* at the head of the
    phrase the question asks for (after *what is*, *which are* or a request such as *give me*,
    *list*): a question for a set already asks for all of it, and by name.

    Example:
        >>> answer_phrase("what are all the cities in montana".split(), ["WP", "VBP", "PDT", "DT", "NNS", "IN", "NNP"], 2, 3)
        "'all' on the phrase the question asks for: it asks for all of it, by name"
        >>> answer_phrase("which states border all the states".split(), ["WDT", "NNS", "VBP", "PDT", "DT", "NNS"], 3, 4) is None
        True
    """
    block = [word for word in words[start:end] if word not in ARTICLES]
    if block not in (["all"], ["name", "of"], ["names", "of"], ["all", "names", "of"]):
        return None
    if not _asks_for_what_follows(words[:start], tags[:start]):
        return None
    return f"{' '.join(words[start:end])!r} on the phrase the question asks for: it asks for all of it, by name"


def _asks_for_what_follows(words: Sequence[str], tags: Sequence[str]) -> bool:
    """Whether ``words`` (without articles) are *what/which* and a form of *be*, or a request verb
    (a base-form verb first, with *me*/*us*): what follows them is what the question asks for."""
    kept = [(word, tag) for word, tag in zip(words, tags, strict=True) if word not in ARTICLES]
    if len(kept) == 2 and kept[0][0] in ENTITY_QUESTION_WORDS and kept[1][0] in BE_FORMS:
        return True
    return bool(kept) and kept[0][1] == "VB" and all(word in ("me", "us") for word, _ in kept[1:])


def superlative_scope(words: Sequence[str], tags: Sequence[str], start: int, end: int) -> str | None:
    """``words[start:end]``, added or dropped, is *of all* after a superlative: a superlative
    already compares with all ("the smallest area of all" is "the smallest area").

    Example:
        >>> superlative_scope("which state has the smallest area of all".split(),
        ...                   ["WDT", "NN", "VBZ", "DT", "JJS", "NN", "IN", "DT"], 6, 8)
        "'of all' after the superlative 'smallest': it compares with all already"
    """
    if [word for word in words[start:end] if word not in ARTICLES] != ["of", "all"]:
        return None
    for index in range(start - 1, max(-1, start - 4), -1):
        if tags[index] in SUPERLATIVE_TAGS or words[index] in ("most", "least"):
            return f"'of all' after the superlative {words[index]!r}: it compares with all already"
    return None


def place_preposition(words: Sequence[str], tags: Sequence[str], index: int, new: str) -> str | None:
    """*in* and *of* exchanged after a noun, before a place: both say the thing lies in the place
    ("the largest city in texas", "the largest city of texas"). Not after a verb (*live in*) or an
    operator word (*the number of*), nor before something that is not a place (WordNet,
    :func:`~.word_senses.is_place`: a place's name, or a noun such as *state*).

    Example:
        >>> tags = ["WP", "VBZ", "DT", "JJS", "NN", "IN", "NNP"]
        >>> place_preposition("what is the largest city in texas".split(), tags, 5, "of")
        "'in' and 'of' both place 'city' in 'texas'"
        >>> place_preposition("what is the largest city in the smallest state".split(), tags[:6] + ["DT", "JJS", "NN"], 5, "of")
        "'in' and 'of' both place 'city' in 'state'"
        >>> place_preposition("what is the length of the river".split(), ["WP", "VBZ", "DT", "NN", "IN", "DT", "NN"], 4, "in") is None
        True
    """
    old, head = words[index], index - 1
    if {old, new} != {"in", "of"} or head < 0 or not tags[head].startswith("NN") or operator_class(words[head]):
        return None
    after = index + 1
    while after < len(words) and tags[after] in MODIFIER_TAGS:
        after += 1
    for length in range(MAX_NAME_WORDS, 0, -1):
        name = words[after : after + length]
        if len(name) == length and is_place("_".join(name)):
            return f"{old!r} and {new!r} both place {words[head]!r} in {' '.join(name)!r}"
    return None


def adjacent_slips(original: Sequence[str], rewrite: Sequence[str]) -> str | None:
    """The rewrite swaps neighbouring words, each swap moving a function word past one word, so
    the content words keep their order: a slip a reader undoes ("mountain alaska in").

    Example:
        >>> adjacent_slips("the highest mountain in alaska".split(), "the highest mountain alaska in".split())
        "swapped 'in alaska': the content words kept their order"
        >>> adjacent_slips("which states border kansas".split(), "which border states kansas".split()) is None
        True
    """
    if len(original) != len(rewrite):
        return None
    swaps: list[str] = []
    index = 0
    while index < len(original):
        if original[index] == rewrite[index]:
            index += 1
            continue
        pair = original[index : index + 2]
        if len(pair) < 2 or list(rewrite[index : index + 2]) != pair[::-1]:
            return None
        if not any(word in FUNCTION_WORDS or is_free(word) for word in pair):
            return None
        swaps.append(" ".join(pair))
        index += 2
    return f"swapped {', '.join(map(repr, swaps))}: the content words kept their order" if swaps else None


@dataclass(frozen=True)
class MovedPhrase:
    """A prepositional phrase moved to an edge of the question: the reason, its preposition (whose
    attachment the judge checks in the parse when the phrase moved to the end) and the edge."""

    reason: str
    preposition: str
    place: str


def moved_phrase(original: Sequence[str], rewrite: Sequence[str], tags: Sequence[str]) -> MovedPhrase | None:
    """The rewrite moves one complete prepositional phrase of the original (``tags`` are the
    original's) to the front or the end of the question, where it restricts the question as a
    whole: "in texas, which rivers are there". A phrase is complete when it is a preposition and a
    noun phrase (prepositional phrases inside it allowed; no verb, conjunction, question or
    relative word) and it ends the original or a finite verb or question word follows it: "in
    states" is not complete in "in states that border texas".

    Example:
        >>> tags = ["WDT", "NNS", "IN", "NNP", "VBP", "DT", "JJS", "NN"]
        >>> moved_phrase("which cities in texas have the largest population".split(),
        ...              "which cities have the largest population in texas".split(), tags).reason
        "moved 'in texas' to the end of the question"
    """
    if len(original) != len(rewrite):
        return None
    for start, end, place in _moves_to_an_edge(original, rewrite):
        if _complete_phrase(original, tags, start, end):
            return MovedPhrase(f"moved {' '.join(original[start:end])!r} to the {place} of the question", original[start], place)
    return None


def _moves_to_an_edge(original: Sequence[str], rewrite: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every ``(start, end, "front"|"end")``: moving ``original[start:end]`` there gives ``rewrite``."""
    moves = []
    for start in range(len(original)):
        for end in range(start + 1, len(original) + 1):
            block, rest = list(original[start:end]), list(original[:start]) + list(original[end:])
            if start > 0 and block + rest == list(rewrite):
                moves.append((start, end, "front"))
            if end < len(original) and rest + block == list(rewrite):
                moves.append((start, end, "end"))
    return moves


def _complete_phrase(words: Sequence[str], tags: Sequence[str], start: int, end: int) -> bool:
    """Whether ``words[start:end]`` is a complete prepositional phrase (see :func:`moved_phrase`)."""
    if end - start < 2 or operator_class(words[start]) != "preposition" or tags[end - 1] not in NOUN_PHRASE_END_TAGS:
        return False
    for word, tag in zip(words[start + 1 : end], tags[start + 1 : end], strict=True):
        if tag.startswith("VB") or operator_class(word) in ("conjunction", "question word", "relative word", "modal"):
            return False
    return end == len(words) or tags[end] in FINITE_VERB_TAGS or words[end] in QUESTION_WORDS
