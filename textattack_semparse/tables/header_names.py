"""Meaning-preserving alternative names of a table header (column) name.

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321)
perturbs table headers two ways: *synonym replacement* and *abbreviation replacement*.
This module gives the candidate names for one header; table perturbations and the
text-to-SQL schema renaming both draw on it, so it imports no TextAttack.

* :func:`header_synonyms` replaces one word or phrase of the name by an entry of the packaged
  domain lexicon ``resources/table_header_synonyms.json`` (written for the frequent header
  words of WikiTableQuestions), or, for a word the lexicon does not list, by a WordNet 3.0
  synonym of its most frequent noun sense whose own most frequent sense is that same sense.
* :func:`header_abbreviations` replaces one word or phrase by an entry of the packaged table
  ``resources/header_abbreviations.json`` ("number" -> "no.", "population" -> "pop."), or, for
  a word of five letters or more the table does not list, by two rules -- truncation with a
  period at a syllable boundary ("Constructor" -> "Constr.") and dropped vowels ("Nationality"
  -> "Ntnlty") -- and abbreviates a multi-word name by its initialism ("Games played" -> "GP").

Both keep the capitalisation style of the replaced words, never return the name itself (nor a
case variant of it), and list candidates in a fixed order. Original to textattack-semparse.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources

from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.wordnet import MIN_SENSE_COUNT, tag_count

SYNONYM_RESOURCE = "table_header_synonyms.json"
ABBREVIATION_RESOURCE = "header_abbreviations.json"

# A word of a header: letters, inner apostrophes or hyphens ("Runner-up"), an optional final
# period ("Avg.", which marks it as already abbreviated).
_WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*\.?")
_MAX_PHRASE_WORDS = 4
_VOWELS = frozenset("aeiou")
_ARTICLES = frozenset({"a", "an", "the"})
_MIN_RULE_LENGTH = 5
_MIN_ABBREVIATION_LENGTH = 3
_INITIALISM_WORDS = (2, 5)
_PLURAL_MARKER = "(s)"


@dataclass(frozen=True)
class _Word:
    text: str
    start: int
    end: int


def _load_lexicon(resource: str, key: str) -> Mapping[str, tuple[str, ...]]:
    record = json.loads((resources.files("textattack_semparse") / "resources" / resource).read_text("utf-8"))
    return {entry.lower(): tuple(values) for entry, values in record[key].items()}


@functools.lru_cache(maxsize=1)
def synonym_lexicon() -> Mapping[str, tuple[str, ...]]:
    """The packaged domain lexicon: lower-case header word or phrase -> synonyms (may be empty)."""
    return _load_lexicon(SYNONYM_RESOURCE, "synonyms")


@functools.lru_cache(maxsize=1)
def abbreviation_table() -> Mapping[str, tuple[str, ...]]:
    """The packaged abbreviation table: lower-case header word or phrase -> abbreviations."""
    return _load_lexicon(ABBREVIATION_RESOURCE, "abbreviations")


def _words(name: str) -> list[_Word]:
    return [_Word(match.group(), match.start(), match.end()) for match in _WORD.finditer(name)]


def _phrase_spans(name: str, words: list[_Word], lexicon: Mapping[str, object]) -> list[tuple[int, int]]:
    """For each word, the longest run of space-separated words from it that ``lexicon`` lists.

    A word the lexicon does not start any entry with gives the one-word span ``(i, i + 1)``.
    """
    spans = []
    for first in range(len(words)):
        end = first + 1
        for last in range(first + 1, min(len(words), first + _MAX_PHRASE_WORDS)):
            if name[words[last - 1].end : words[last].start] != " ":
                break
            if _key(words[first : last + 1]) in lexicon:
                end = last + 1
        spans.append((first, end))
    return spans


def _key(words: Iterable[_Word]) -> str:
    return " ".join(word.text.lower() for word in words)


def _styled(template: list[str], replacement: str) -> str:
    """``replacement`` written in the capitalisation style of the replaced words ``template``.

    All capitals stay all capitals, Title Case phrases give Title Case (function words
    excepted), a capitalised first word gives a capitalised first letter; letters the
    replacement already capitalises ("TV", "GP") are kept.
    """
    letters = "".join(template)
    if len(letters) > 1 and letters.isupper():
        return replacement.upper()
    if len(template) > 1 and all(word[:1].isupper() for word in template if word.lower() not in FUNCTION_WORDS):
        return " ".join(
            part if part.lower() in FUNCTION_WORDS else part[:1].upper() + part[1:] for part in replacement.split(" ")
        )
    if template[0][:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _replacements(
    name: str,
    lexicon: Mapping[str, tuple[str, ...]],
    fallback: Callable[[str], list[str]],
) -> list[str]:
    """Names made by replacing one lexicon phrase or one word (by ``fallback``) of ``name``.

    A span followed by a plural marker ("Producer(s)") takes one-word alternatives only.
    """
    words = _words(name)
    names: dict[str, None] = {}
    for first, end in _phrase_spans(name, words, lexicon):
        span = words[first:end]
        key = _key(span)
        alternatives = lexicon[key] if key in lexicon else fallback(span[0].text)
        one_word = name.startswith(_PLURAL_MARKER, span[-1].end)
        for alternative in alternatives:
            if one_word and " " in alternative:
                continue
            text = _styled([word.text for word in span], alternative)
            names[name[: span[0].start] + text + name[span[-1].end :]] = None
    return [candidate for candidate in names if candidate.lower() != name.lower()]


def _is_plain_word(word: str) -> bool:
    """A lower-case or capitalised alphabetic word that is not a function word or acronym."""
    return (
        word.isalpha()
        and (word.islower() or (word[:1].isupper() and word[1:].islower()))
        and word.lower() not in FUNCTION_WORDS
    )


@functools.lru_cache(maxsize=4096)
def wordnet_header_synonyms(word: str) -> tuple[str, ...]:
    """Lower-case WordNet synonyms of a header word, in the word's number.

    WordNet's synonyms of a word out of context are often wrong in a table header, so only
    well-attested ones are kept, judged by the counts of WordNet's sense-tagged corpus: the
    word's most frequent noun sense must be its most frequent sense of any part of speech and
    be tagged at least :data:`MIN_SENSE_COUNT` times, and a synonym must be tagged in that sense
    as often, have it as its own most frequent noun sense ("film" -> "movie", but not "score" ->
    "mark", a mark being first of all something else), be one word and have no capitals.
    Plural words get plural synonyms (``lemminflect``); one it cannot inflect is left out.
    """
    if not _is_plain_word(word) or len(word) < 4:
        return ()
    from textattack_semparse.linguistics.inflection import inflect
    from textattack_semparse.linguistics.wordnet import load_wordnet

    wordnet = load_wordnet()
    lowered = word.lower()
    lemma = wordnet.morphy(lowered, "n")
    senses = wordnet.synsets(lowered, pos="n")
    if lemma is None or not senses:
        return ()
    sense = senses[0]
    own = tag_count(sense, lemma)
    others = (
        entry.count()
        for synset in wordnet.synsets(lowered)
        for entry in synset.lemmas()
        if entry.name() in {lowered, wordnet.morphy(lowered, synset.pos())}
    )
    if own < MIN_SENSE_COUNT or own < max(others, default=0):
        return ()
    synonyms: dict[str, None] = {}
    for entry in sense.lemmas():
        candidate = entry.name()
        if candidate == lemma or not candidate.isalpha() or not candidate.islower():
            continue
        if tag_count(sense, candidate) < MIN_SENSE_COUNT or wordnet.synsets(candidate, pos="n")[:1] != [sense]:
            continue
        form = candidate if lemma == lowered else inflect(candidate, "NNS", guess=False)
        if form is not None:
            synonyms[form] = None
    return tuple(synonyms)


def header_synonyms(name: str) -> list[str]:
    """Names meaning the same as the header ``name``, one word or phrase replaced each.

    Phrases of the packaged domain lexicon are matched longest first ("Date of birth" ->
    "Birth date"); a word the lexicon does not list takes its WordNet synonyms
    (:func:`wordnet_header_synonyms`). Lexicon entries with no synonyms ("Score", "Time")
    are left alone. The order is by position in the name, then lexicon order.

    Example:
        >>> header_synonyms("Attendance")
        ['Crowd', 'Spectators', 'Turnout']
        >>> header_synonyms("Date of birth"), header_synonyms("Home Team")
        (['Birth date'], ['Host Team', 'Hosts', 'Home Squad', 'Home Side'])
    """
    return _replacements(name, synonym_lexicon(), lambda word: list(wordnet_header_synonyms(word)))


def _is_dictionary_word(text: str) -> bool:
    from textattack_semparse.linguistics.wordnet import load_wordnet

    return bool(load_wordnet().synsets(text))


def truncations(word: str) -> list[str]:
    """``word`` cut after a consonant cluster that follows a vowel, with a period.

    The shortest cut of at least three letters that leaves at least two letters out and is
    not itself an English word (WordNet) wins: "Attendance" -> "Att.", "Manufacturer" ->
    "Manuf." ("man" is a word). Words shorter than five letters are not truncated.
    """
    lowered = word.lower()
    if not _is_plain_word(word) or len(lowered) < _MIN_RULE_LENGTH:
        return []
    for end in range(_MIN_ABBREVIATION_LENGTH, len(lowered) - 1):
        after_cluster = lowered[end] in _VOWELS and lowered[end - 1] not in _VOWELS
        if after_cluster and any(c in _VOWELS for c in lowered[: end - 1]) and not _is_dictionary_word(lowered[:end]):
            return [lowered[:end] + "."]
    return []


def dropped_vowels(word: str) -> list[str]:
    """``word`` without its vowels after the first letter, doubled letters merged.

    "Nationality" -> "Ntnlty", "Number" -> "Nmbr"; none when fewer than three letters remain
    or the result is an English word.
    """
    lowered = word.lower()
    if not _is_plain_word(word) or len(lowered) < _MIN_RULE_LENGTH:
        return []
    kept = lowered[0] + "".join(c for c in lowered[1:] if c not in _VOWELS)
    merged = re.sub(r"(.)\1+", r"\1", kept)
    if len(merged) < _MIN_ABBREVIATION_LENGTH or _is_dictionary_word(merged):
        return []
    return [merged]


def initialism(name: str) -> str | None:
    """The initials of a name of two to five space-separated words, articles left out.

    "Games played" -> "GP", "Date of birth" -> "DOB"; ``None`` for other names and for names
    with fewer than two words that are not function words ("To par").
    """
    parts = name.split()
    if not _INITIALISM_WORDS[0] <= len(parts) <= _INITIALISM_WORDS[1]:
        return None
    if not all(_WORD.fullmatch(part) for part in parts):
        return None
    if sum(part.lower() not in FUNCTION_WORDS for part in parts) < _INITIALISM_WORDS[0]:
        return None
    return "".join(part[0].upper() for part in parts if part.lower() not in _ARTICLES)


def _rule_abbreviations(word: str) -> list[str]:
    return truncations(word) + dropped_vowels(word)


def header_abbreviations(name: str) -> list[str]:
    """Abbreviated forms of the header ``name``, one word or phrase abbreviated each, then its initialism.

    Phrases and words of the packaged abbreviation table come first (longest match: "Games
    played" -> "GP", "Number" -> "No."); words it does not list are truncated or lose their
    vowels (:func:`truncations`, :func:`dropped_vowels`); words already abbreviated ("Avg."),
    acronyms, function words and numbers are kept. Multi-word names also give their
    :func:`initialism`.

    Example:
        >>> header_abbreviations("Number"), header_abbreviations("Manufacturer")
        (['No.', 'Num.'], ['Manuf.', 'Mnfctr'])
        >>> header_abbreviations("Avg. Attendance")
        ['Avg. Att.', 'AA']
    """
    candidates = _replacements(name, abbreviation_table(), _rule_abbreviations)
    short = initialism(name)
    if short is not None and short.lower() != name.lower() and short not in candidates:
        candidates.append(short)
    return candidates
