"""The words of a question that decide what it asks, which a meaning-preserving rewrite keeps.

A database question's meaning sits in a few words: the question word (*what*, *where*, *how many*),
quantifiers and negation (*most*, *all*, *not*), comparisons (*larger than*, *smallest*), numbers,
the prepositions and conjunctions that connect conditions (*rivers in* vs *near texas*), the
database values it names and, when the gold output is known, the words that name its predicates
(*capital*, *population*, *state*). The rest (articles, forms of *be*, a few filler adverbs) can
come and go without changing the question. Original to textattack-semparse: the word classes are
read off the failure classes of perturbations judged by people (docs/validation.md).

The perturbations that delete, swap, substitute or insert words leave the words of
:func:`question_protection` alone. The meaning judge reads the gold's predicates here
(:func:`gold_predicate_words`, :func:`names_predicate`) and its operator classes from the meaning
lexicon (:mod:`textattack_semparse.judges.lexicon`).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Sequence, Set

from textattack_semparse.linguistics.function_words import FUNCTION_WORDS, load_function_word_classes
from textattack_semparse.linguistics.inflection import BE_FORMS
from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE, parse_ahead, word_annotations
from textattack_semparse.tables.table import Table

WORD = re.compile(r"@*[^\W_]+(?:(?:['’-]|@+)[^\W_]+)*@*|_+[^\W_]*", re.UNICODE)
"""A word as the judge reads it: letters and digits, with inner apostrophes and hyphens, and the
*@* TextBugger writes for an *a* ("m@jor" is one word, a typo of "major")."""

ARTICLES: frozenset[str] = frozenset({"a", "an", "the"})
DISCOURSE_ADVERBS: frozenset[str] = frozenset(
    {"also", "please", "kindly", "really", "actually", "indeed", "truly", "exactly", "precisely"}
)
"""Adverbs of politeness and emphasis: they stress what the question asks and restrict nothing
(*what exactly is the capital*; unlike *only*, *just*, *mostly* or *formerly*, which restrict)."""

FREE_WORDS: frozenset[str] = ARTICLES | BE_FORMS | {"there"} | DISCOURSE_ADVERBS
"""Words a rewrite may add, drop or exchange for another of the same kind without changing the
question: articles, forms of *be*, existential *there* and :data:`DISCOURSE_ADVERBS`."""

FREE_CLASSES: tuple[frozenset[str], ...] = (ARTICLES, BE_FORMS)
"""Free words that may replace each other (an article by an article, *is* by *are*)."""

QUESTION_WORDS: frozenset[str] = frozenset(
    {"what", "which", "who", "whom", "whose", "where", "when", "why", "how", "whatever", "whichever", "whoever"}
)
QUANTIFIERS: frozenset[str] = frozenset(
    {
        "all", "any", "both", "each", "either", "enough", "every", "few", "fewer", "less", "least", "many", "more",
        "most", "much", "neither", "no", "none", "several", "some", "only", "than", "another", "other", "same",
        "total", "average", "number", "count", "sum", "maximum", "minimum", "highest", "lowest", "top",
    }
)  # fmt: skip
NEGATION: frozenset[str] = frozenset(
    {"not", "no", "never", "nor", "without", "except", "excluding", "cannot", "neither"}
)
NUMBER_WORDS: frozenset[str] = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million "
    "billion first second third fourth fifth sixth seventh eighth ninth tenth once twice half".split()
)
RELATIVE_WORDS: frozenset[str] = frozenset({"that", "which", "who", "whom", "whose", "where", "when"})

PROTECTED_CLASSES: tuple[tuple[str, frozenset[str]], ...] = (
    ("question word", QUESTION_WORDS),
    ("negation", NEGATION),
    ("quantifier", QUANTIFIERS),
    ("number", NUMBER_WORDS),
    ("relative word", RELATIVE_WORDS),
)
"""Word classes that carry the question's operators, in the order their name is reported."""

INTERCHANGEABLE_WORDS: tuple[tuple[str, frozenset[str], bool | None], ...] = (
    ("question words asking for the things themselves", frozenset({"what", "which"}), False),
    ("relative pronouns", frozenset({"that", "which"}), True),
    ("quantifiers over every member one by one", frozenset({"each", "every"}), None),
)
"""Operator words that may replace each other, with whether they must follow a noun (``True``:
as relative pronouns, *states that border* / *states which border*), must not (``False``: as
question words, *which rivers* / *what rivers*) or either (``None``)."""

COMPARISON_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})
"""Penn Treebank tags of comparatives and superlatives (*larger*, *smallest*, *most*)."""

OPERATOR_MARKS: frozenset[str] = frozenset("<>=+%$#&*/^|~@_")
"""Punctuation marks that read as an operator, a unit or a conjunction (*> 1000*, *5 %*, *$*,
*&*), and ``_``, which joins identifiers and is a word to :data:`WORD`. The judge reads words
only; perturbations that insert or delete punctuation leave these marks alone."""


def question_words(text: str) -> list[str]:
    """The lower-cased words of ``text`` as the judge reads them (punctuation dropped).

    Example:
        >>> question_words("What's the capital of Rhode Island? (US)")
        ["what's", 'the', 'capital', 'of', 'rhode', 'island', 'us']
    """
    return [word.lower().replace("’", "'") for word in WORD.findall(text)]


def has_digit(word: str) -> bool:
    """Whether ``word`` has a digit: a number (*42*, *3rd*) or a code (ATIS's *ci0*).

    Example:
        >>> has_digit("3rd"), has_digit("ci0"), has_digit("three")
        (True, True, False)
    """
    return any(character.isdigit() for character in word)


def operator_class(word: str) -> str | None:
    """The operator class of ``word`` (question word, negation, quantifier, number, relative word,
    preposition, conjunction, modal), or ``None`` for a word no class protects.

    Example:
        >>> operator_class("most"), operator_class("isn't"), operator_class("42"), operator_class("near")
        ('quantifier', 'negation', 'number', 'preposition')
        >>> operator_class("river") is None
        True
    """
    if has_digit(word):
        return "number"
    if word.endswith("n't"):
        return "negation"
    for name, words in PROTECTED_CLASSES:
        if word in words:
            return name
    classes = load_function_word_classes()
    for name, label in (("prepositions", "preposition"), ("conjunctions", "conjunction"), ("modals", "modal")):
        if word in classes.get(name, ()):
            return label
    return None


def interchangeable(first: str, second: str, *, after_noun: bool) -> str | None:
    """The class of :data:`INTERCHANGEABLE_WORDS` in which ``first`` may replace ``second``, given
    whether the word follows a noun; ``None`` when they may not.

    Example:
        >>> interchangeable("which", "what", after_noun=False), interchangeable("each", "every", after_noun=True)
        ('question words asking for the things themselves', 'quantifiers over every member one by one')
        >>> interchangeable("which", "that", after_noun=True), interchangeable("which", "that", after_noun=False)
        ('relative pronouns', None)
    """
    for name, words, needs_noun in INTERCHANGEABLE_WORDS:
        if first in words and second in words and first != second and needs_noun in (None, after_noun):
            return name
    return None


def is_operator_word(word: str) -> bool:
    """Whether ``word`` (lower case) belongs to an operator class whatever its context
    (:func:`operator_class`): a rewrite never adds, drops or exchanges it.

    Example:
        >>> is_operator_word("six"), is_operator_word("mightn't"), is_operator_word("the")
        (True, True, False)
    """
    return operator_class(word) is not None


def is_free(word: str) -> bool:
    """Whether a rewrite may add or drop ``word`` (:data:`FREE_WORDS`)."""
    return word in FREE_WORDS


def same_free_class(first: str, second: str) -> bool:
    """Whether two free words may replace each other (:data:`FREE_CLASSES`).

    Example:
        >>> same_free_class("the", "a"), same_free_class("is", "are"), same_free_class("the", "is")
        (True, True, False)
    """
    return any(first in words and second in words for words in FREE_CLASSES)


_SQL_ALIAS = re.compile(r"alias\d+$", re.IGNORECASE)
# The words of an identifier part: an upper-case run (not the capital of the next word), a
# capitalised or lower-case word (``petType`` -> ``pet``, ``Type``; ``PetID`` -> ``Pet``, ``ID``).
_IDENTIFIER = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def gold_predicate_words(gold: str | None) -> frozenset[str]:
    """The words the gold output names its predicates with: SQL table and column names and
    logical-form predicates, split at ``_``, ``.`` and case changes, lower-cased (``STATEalias0``
    is ``state``; ``population:<lo,i>`` is ``population``). Keywords and short fragments are left out.

    Example:
        >>> sorted(gold_predicate_words("SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE "
        ...                             "STATEalias0.STATE_NAME = 'texas'"))
        ['capital', 'name', 'state']
        >>> sorted(gold_predicate_words("(population:<lo,i> austin_tx:c)"))
        ['austin', 'population']
        >>> sorted(gold_predicate_words("SELECT max(weight), petType FROM Pets GROUP BY petType"))
        ['pet', 'pets', 'type', 'weight']
    """
    if not gold:
        return frozenset()
    text = re.sub(r"'[^']*'|\"[^\"]*\"", " ", gold)  # values are literals, protected as such
    return identifier_words(re.split(r"[^A-Za-z0-9_]+", text))


def identifier_words(identifiers: Iterable[str]) -> frozenset[str]:
    """The words identifiers name things with: split at ``_`` and case changes, lower-cased, SQL's
    aliases (``STATEalias0``), keywords and fragments of two letters or fewer left out.

    Example:
        >>> sorted(identifier_words(["petType", "STATE_NAME", "Pets", "COURSEalias0"]))
        ['course', 'name', 'pet', 'pets', 'state', 'type']
    """
    words: set[str] = set()
    for token in identifiers:
        for part in re.split(r"_+", _SQL_ALIAS.sub("", token)):
            for word in map(str.lower, _IDENTIFIER.findall(part)):
                if len(word) > 2 and word not in _GOLD_KEYWORDS:
                    words.add(word)
    return frozenset(words)


_GOLD_KEYWORDS: frozenset[str] = frozenset(
    "select from where and not distinct count max min sum avg order group having limit desc asc join inner outer left "
    "right union intersect except exists like between null lambda argmax argmin answer exists equals "
    "the".split()
)
"""SQL and lambda-calculus keywords, which name no predicate."""


def protected_positions(words: Sequence[str], tags: Sequence[str], literal_positions: set[int], predicates: frozenset[str],
                        lemmas: Sequence[str]) -> dict[int, str]:  # fmt: skip
    """Word position -> why a rewrite must keep it: its operator class, a comparison tag, a
    database value (``literal_positions``) or a gold predicate (:func:`names_predicate`; two
    neighbours spelling one identifier, "pet type" for ``pettype``, are both the predicate)."""
    protected: dict[int, str] = {}
    for index, word in enumerate(words):
        kind = operator_class(word)
        if kind is None and index < len(tags) and tags[index] in COMPARISON_TAGS:
            kind = "comparison"
        if kind is None and index in literal_positions:
            kind = "database value"
        if kind is None and names_predicate(word, lemmas[index] if index < len(lemmas) else word, predicates):
            kind = "the gold's predicate"
        if kind is not None:
            protected[index] = kind
    for index in range(len(words) - 1):
        if words[index] + words[index + 1] in predicates:
            for position in (index, index + 1):
                protected.setdefault(position, "the gold's predicate")
    # "how many" / "how much" ask for a count or an amount: both words carry it.
    for index in range(len(words) - 1):
        if words[index] == "how" and words[index + 1] in ("many", "much"):
            protected[index + 1] = "question word"
    return protected


SHARED_STEM = 6
"""Letters a question word and a predicate word must begin with alike (and three quarters of the
shorter of them) to name the same thing in two forms: "directors" and ``directed_by``."""


def names_predicate(word: str, lemma: str, predicates: frozenset[str]) -> bool:
    """Whether ``word`` (or its ``lemma``) names one of the gold's ``predicates``: the same word,
    or one of its derived forms (a shared beginning of :data:`SHARED_STEM` letters and three
    quarters of the shorter word: *directors* for ``directed_by``, which WordNet would otherwise
    replace by *managers*, a change three of three blind annotators rejected).

    Example:
        >>> names_predicate("directors", "director", frozenset({"directed", "title"}))
        True
        >>> names_predicate("dogs", "dog", frozenset({"dog"})), names_predicate("states", "state", frozenset({"statement"}))
        (True, False)
    """
    if word in predicates or lemma in predicates:
        return True
    for predicate in predicates:
        shared = len(os.path.commonprefix([word, predicate]))
        if shared >= SHARED_STEM and shared * 4 >= 3 * min(len(word), len(predicate)):
            return True
    return False


def table_words(table: Table | None) -> frozenset[str]:
    """The words a Table QA question can name its table's columns and values with: every word of
    the header and of the cells, lower-cased (function words and one-letter words left out). They
    are to a table what the gold's predicates and literals are to a database: "province" names the
    column *Province*, "album leaf" the cell *The Album Leaf*.

    Example:
        >>> sorted(table_words(Table(header=("Province", "Wine (hl)"), rows=(("New Brunswick", "The best"),))))
        ['best', 'brunswick', 'hl', 'new', 'province', 'wine']
    """
    if table is None:
        return frozenset()
    words = {
        word
        for text in (*table.header, *(cell for row in table.rows for cell in row))
        for word in re.findall(r"[a-z0-9]+", text.lower())
        if len(word) > 1
    }
    return frozenset(words - FUNCTION_WORDS)


def question_protection(
    words: Sequence[str],
    *,
    gold: str | None = None,
    literal_positions: Set[int] = frozenset(),
    spacy_pipeline: str = DEFAULT_PIPELINE,
    table: Table | None = None,
) -> dict[int, str]:
    """Word position -> why a rewrite must keep it, for the question ``words`` (TextAttack's words
    or :func:`question_words`): :func:`protected_positions` with the comparison tags and lemmas of
    the lower-cased words as the spaCy pipeline reads them, and the predicates of ``gold`` (SQL or
    a logical form; ``None`` protects no predicate); for a Table QA question, the words (or
    lemmas) of its ``table``'s header and cells (:func:`table_words`). Parses are cached, so the
    judge and a perturbation reading the same question parse it once.

    Example:
        >>> question_protection("how many people live in the smallest state".split())
        {0: 'question word', 1: 'question word', 4: 'preposition', 6: 'comparison'}
        >>> question_protection(["what", "is", "the", "capital"], gold="SELECT capital FROM state")
        {0: 'question word', 3: "the gold's predicate"}
    """
    lowered = tuple(word.lower() for word in words)
    if not lowered:
        return {}
    key = (lowered, gold, frozenset(literal_positions), spacy_pipeline)
    try:
        items, lemmas = _sql_protection(*key)
    except TypeError:  # a gold that is not a string (unhashable): read, not remembered
        items, lemmas = _sql_protection.__wrapped__(*key)
    protected = dict(items)
    if table is not None:
        named = table_words(table)
        for index, (word, lemma) in enumerate(zip(lowered, lemmas)):
            if index not in protected and (word in named or lemma in named):
                protected[index] = "the table's header or cell"
    return protected


def protected_word_positions(words: Sequence[str], *, gold: str | None = None) -> frozenset[int]:
    """The positions :func:`question_protection` protects in ``words`` (no table), as a set remembered
    for the words and ``gold``: a random perturbation asks for them at every step.

    Example:
        >>> sorted(protected_word_positions("how many people live in the smallest state".split()))
        [0, 1, 4, 6]
    """
    lowered = tuple(map(str.lower, words))
    try:
        return _protected_set(lowered, gold)
    except TypeError:  # a gold that is not a string (unhashable): read, not remembered
        return frozenset(question_protection(words, gold=gold))


def read_protection_ahead(word_lists: Sequence[Sequence[str]]) -> None:
    """Parse, in spaCy batches, the questions :func:`protected_word_positions` will be asked about:
    it reads each question's parse, and a batch is several times faster than one question at a
    time. The positions it then gives are the same.

    Example:
        >>> read_protection_ahead([["how", "many", "rivers", "are", "there"]])
        >>> sorted(protected_word_positions(["how", "many", "rivers", "are", "there"]))
        [0, 1]
    """
    parse_ahead(lowered for lowered in (tuple(map(str.lower, words)) for words in word_lists) if lowered)


@functools.lru_cache(maxsize=4096)
def _protected_set(lowered: tuple[str, ...], gold: str | None) -> frozenset[int]:
    if not lowered:
        return frozenset()
    return frozenset(index for index, _ in _sql_protection(lowered, gold, frozenset(), DEFAULT_PIPELINE)[0])


@functools.lru_cache(maxsize=4096)
def _sql_protection(
    lowered: tuple[str, ...], gold: str | None, literal_positions: frozenset[int], spacy_pipeline: str
) -> tuple[tuple[tuple[int, str], ...], tuple[str, ...]]:
    """:func:`question_protection` without a table, as items, and the words' lemmas; remembered, as
    a search reads each question again for every position it tries."""
    tags, _, lemmas = word_annotations(lowered, spacy_pipeline)
    protected = protected_positions(lowered, tags, set(literal_positions), gold_predicate_words(gold), lemmas)
    return tuple(protected.items()), lemmas
