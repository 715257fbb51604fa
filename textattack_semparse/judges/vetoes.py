"""The meaning judge's first layer: vetoes grounded in the gold, each a small rule object.

A rewrite is ``different`` when it drops or changes what the gold output is made of: a value the
question names (a SQL literal, a logical-form constant), a number, an operator (a superlative or
comparison turned around or dropped, a negation added or dropped, an aggregation dropped, a
quantifier of another group), or a predicate (a table, column or logical-form predicate the
question names, replaced by a word that names another one or a value, or dropped without
trace). The operators are read at the level of what they mean (:mod:`.lexicon`): *biggest* for
*largest* keeps the superlative, *smallest* turns it around. A synonym of a predicate's word
(*vocalists* for *singers*, Spider's ``singer``) is no veto: the reader
(:mod:`~textattack_semparse.judges.reader`) decides what no veto settles.

Before any rule, the rewrite's typos of the original's words are read as the words they misspell
(*texsa* is *texas*, *largset* is *largest*), as people read them.

:data:`VETOES` is the ordered list; a rule reports one reason, the first that fires is the
verdict's. Original to textattack-semparse.

Example:
    >>> veto_reason(RewritePair("which is the largest state", "which is the smallest state"))
    "turned 'largest' into 'smallest' (superlative)"
    >>> veto_reason(RewritePair("which is the largest state", "which is the biggest state")) is None
    True
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from textattack_semparse.judges.judgement import RewritePair
from textattack_semparse.judges.lexicon import Mark, lexicon, operator_marks, operator_words, word_groups, words_of
from textattack_semparse.linguistics.operator_words import gold_predicate_words, names_predicate, question_words
from textattack_semparse.linguistics.visual_characters import looks_like


@dataclass(frozen=True)
class GoldFacts:
    """What the gold output is made of, as the question names it: the values (word spans of the
    original), the words of its predicates, and the operator classes it uses (``None``: no gold,
    or one that cannot be read, so every class counts)."""

    value_spans: tuple[tuple[int, int], ...]
    predicates: frozenset[str]
    operators: frozenset[str] | None


@dataclass(frozen=True)
class PairReading:
    """A pair as the vetoes read it: the original's words, the rewrite's with its typos of the
    original's words read back (``rewrite``), the word alignment of the two, the operators each
    names and the gold's facts."""

    original: tuple[str, ...]
    rewrite: tuple[str, ...]
    opcodes: tuple[tuple[str, int, int, int, int], ...]
    original_marks: tuple[Mark, ...]
    rewrite_marks: tuple[Mark, ...]
    gold: GoldFacts
    schema: frozenset[str] = frozenset()

    @property
    def local(self) -> bool:
        """Whether the rewrite is a local edit of the original (at most :data:`LOCAL_WORDS`
        words changed, or :data:`LOCAL_EDIT` of its words), where the word alignment says what
        replaced what; a paraphrase says the same in other words, which the alignment cannot pair up."""
        changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in self.opcodes if tag != "equal")
        return changed <= max(LOCAL_WORDS, LOCAL_EDIT * len(self.original))


LOCAL_EDIT = 0.35
"""Share of the original's words up to which changed words make a local edit (an edit counts the
longer of what it removes and what it adds)."""

LOCAL_WORDS = 3
"""Changed words that always make a local edit, however short the question."""


class Veto(Protocol):
    """A rule of the first layer: the reason a pair asks another question, or ``None``."""

    @property
    def name(self) -> str: ...

    def __call__(self, reading: PairReading) -> str | None: ...


# --- reading a pair ---------------------------------------------------------------------------


def read_pair(pair: RewritePair) -> PairReading:
    """The vetoes' reading of ``pair`` (the gold's facts are read once per original and gold)."""
    original = tuple(_without_possessive(question_words(pair.original)))
    written = tuple(_without_possessive(question_words(pair.rewrite)))
    facts = gold_facts(original, pair.gold)
    rewrite = _typos_read_back(original, written)
    opcodes = tuple(difflib.SequenceMatcher(None, original, rewrite, autojunk=False).get_opcodes())
    return PairReading(
        original, rewrite, opcodes, tuple(_marks(original)), tuple(_marks(rewrite)), facts, pair.schema
    )


def _without_possessive(words: Sequence[str]) -> list[str]:
    """``words`` with the possessive *'s* taken off (*colorado's* names *colorado*)."""
    return [word[:-2] if word.endswith("'s") and len(word) > 3 else word for word in words]


@functools.lru_cache(maxsize=8192)
def _marks(words: tuple[str, ...]) -> tuple[Mark, ...]:
    return tuple(operator_marks(words))


SQL_START = re.compile(r"\s*\(*\s*(select|with)\b", re.IGNORECASE)
"""How a SQL gold begins; a gold that is neither SQL nor a logical form is an answer."""

DERIVED_VALUE = 5
"""Letters from which a question word beginning with a one-word value names it ('europe', 'european')."""


@functools.lru_cache(maxsize=4096)
def gold_facts(original: tuple[str, ...], gold: str | None) -> GoldFacts:
    """The values, predicates and operators of ``gold`` (SQL or a logical form) that the question
    ``original`` names; without a gold, nothing is known and every operator class counts."""
    if not gold:
        return GoldFacts((), frozenset(), None)
    from textattack_semparse.datasets.logical_form import is_logical_form, logical_form_literals
    from textattack_semparse.sql.literals import literal_spellings, phrase_starts, sql_literals

    logical = is_logical_form(gold)
    if not logical and not SQL_START.match(gold):  # an answer (Table QA), not a program: nothing is known
        return GoldFacts((), frozenset(), None)
    if logical:
        literals = logical_form_literals(" ".join(original), gold)
    else:
        try:
            literals = sql_literals(gold)
        except Exception:  # noqa: BLE001 - a gold that is not SQL names no values
            literals = []
    spans: set[tuple[int, int]] = set()
    for literal in literals:
        phrases = literal_spellings(literal)
        for phrase in phrases:
            for start in phrase_starts(original, phrase):
                spans.add((start, start + len(phrase)))
        if len(phrases) and len(phrases[0]) == 1 and len(phrases[0][0]) >= DERIVED_VALUE:
            # A value named by a derived word: 'Europe' in "European countries".
            stem = phrases[0][0]
            spans.update((i, i + 1) for i, word in enumerate(original) if word != stem and word.startswith(stem))
    # A span inside a longer one ('york' in 'new york') is the longer value.
    kept = tuple(sorted(span for span in spans if not any(o != span and o[0] <= span[0] and span[1] <= o[1] for o in spans)))
    operators = logical_form_operators(gold) if logical else sql_operators(gold)
    return GoldFacts(kept, gold_predicate_words(gold), operators)


def sql_operators(sql: str) -> frozenset[str] | None:
    """The operator classes a SQL query uses (``None`` when it cannot be parsed).

    Example:
        >>> sorted(sql_operators("SELECT name FROM singer WHERE age > 30 ORDER BY age DESC LIMIT 1"))
        ['comparative', 'number', 'superlative']
        >>> sorted(sql_operators("SELECT count(*) FROM pets WHERE NOT pettype = 'dog'"))
        ['aggregation', 'negation']
    """
    import sqlglot
    from sqlglot import expressions

    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except Exception:  # noqa: BLE001 - sqlglot raises several kinds on golds it cannot read
        return None
    if tree is None:
        return None
    kinds: set[str] = set()
    for node in tree.walk():
        if isinstance(node, expressions.Max | expressions.Min) or (
            isinstance(node, expressions.Select) and node.args.get("order") and node.args.get("limit")
        ):
            kinds.add("superlative")
        elif isinstance(node, expressions.GT | expressions.GTE | expressions.LT | expressions.LTE | expressions.Between):
            kinds.add("comparative")
        elif isinstance(node, expressions.Not | expressions.NEQ | expressions.Except):
            kinds.add("negation")
        elif isinstance(node, expressions.Count | expressions.Sum | expressions.Avg):
            kinds.add("aggregation")
        elif isinstance(node, expressions.Group | expressions.All | expressions.Any):
            kinds.add("quantifier")
        elif isinstance(node, expressions.Literal) and node.is_number:
            kinds.add("number")
    return frozenset(kinds)


_LOGICAL_OPERATORS = {
    "superlative": re.compile(r"\b(argmax|argmin|max|min|most|fewest|largest|smallest|highest|lowest|longest|shortest)\b"),
    "comparative": re.compile(r"(?<![<\w])[<>](?![\w<,])|\b(greater|less|larger|smaller|more|fewer)\b"),
    "negation": re.compile(r"\\\+|\bnot\b"),
    "aggregation": re.compile(r"\b(count|sum|avg|average)\b"),
    "quantifier": re.compile(r"\b(forall|all|every|exists_all)\b"),
    "number": re.compile(r"(?<![\w$])\d+(?:\.\d+)?(?![\w])"),
}


def logical_form_operators(logical_form: str) -> frozenset[str]:
    """The operator classes a logical form uses (lambda calculus, FunQL or Prolog style).

    Example:
        >>> sorted(logical_form_operators("(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (state:<s,t> $0)) (lambda $0:e (size:<lo,i> $0)))"))
        ['superlative']
        >>> sorted(logical_form_operators("( count $0 ( and ( river:t $0 ) ( not ( loc:t $0 s0 ) ) ) )"))
        ['aggregation', 'negation']
    """
    without_types = re.sub(r":<[^\s()]*>", "", logical_form)
    return frozenset(kind for kind, pattern in _LOGICAL_OPERATORS.items() if pattern.search(without_types))


TYPO_SHORT = 4
"""Words of at most this many letters are misspelt by one edit; longer words by up to two."""

MIN_TYPO_LENGTH = 3
"""Shorter words are never read as typos: one letter for another is another word (*L* and *R*)."""


def is_typo_of(written: str, word: str) -> bool:
    """Whether ``written`` reads as a misspelling of ``word``: within one edit (two for words of
    more than :data:`TYPO_SHORT` letters, adjacent swaps counting one), the same first letter or
    the same length, and no number on either side (a number misspelt is another number).

    Example:
        >>> is_typo_of("texsa", "texas"), is_typo_of("largset", "largest"), is_typo_of("ohio", "iowa")
        (True, True, False)
        >>> is_typo_of("3", "5"), is_typo_of("r1ver", "river"), is_typo_of("most", "least"), is_typo_of("r", "l")
        (False, True, False, False)
        >>> is_typo_of("0f", "of")
        True
    """
    if looks_like(written, word):
        return True
    if written == word or len(word) < MIN_TYPO_LENGTH or any(c.isdigit() for c in word) or written.isdigit():
        return False
    limit = 1 if len(word) <= TYPO_SHORT else 2
    if abs(len(written) - len(word)) > limit:
        return False
    if written[:1] != word[:1] and len(written) != len(word):
        return False
    return edit_distance(written, word) <= limit


@functools.lru_cache(maxsize=16384)
def is_english_word(word: str) -> bool:
    """Whether WordNet knows ``word`` in some inflection, or it is a function word.

    Example:
        >>> is_english_word("fountain"), is_english_word("mountian"), is_english_word("the")
        (True, False, True)
    """
    from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
    from textattack_semparse.linguistics.wordnet import load_wordnet

    if word in FUNCTION_WORDS:
        return True
    wordnet = load_wordnet()
    return any(wordnet.morphy(word, pos) is not None for pos in "nvar")


def edit_distance(first: str, second: str) -> int:
    """Damerau-Levenshtein distance (adjacent swaps count one), as typos are measured.

    Example:
        >>> edit_distance("texas", "txeas"), edit_distance("river", "rivers"), edit_distance("ab", "ba")
        (1, 1, 1)
    """
    rows = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i in range(len(first) + 1):
        rows[i][0] = i
    for j in range(len(second) + 1):
        rows[0][j] = j
    for i in range(1, len(first) + 1):
        for j in range(1, len(second) + 1):
            cost = 0 if first[i - 1] == second[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and first[i - 1] == second[j - 2] and first[i - 2] == second[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[-1][-1]


def _typos_read_back(original: tuple[str, ...], rewrite: tuple[str, ...]) -> tuple[str, ...]:
    """``rewrite`` with each word that replaces one word of ``original`` and misspells it (a
    look-alike, *r1ver*, or a near miss that is no English word: *mountian*, but not *fountain*
    for *mountain*, nor *most* for *least*), and each run of pieces that join to a word (*riv
    er*), read as that word."""
    words = list(rewrite)
    operators = operator_words()
    matcher = difflib.SequenceMatcher(None, original, rewrite, autojunk=False)
    replaced: dict[int, tuple[int, int, str]] = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        j = j1
        for old in original[i1:i2]:  # left to right: a misspelling, or pieces that join to the word
            if j >= j2:
                break
            new = rewrite[j]
            pieces = next((end for end in range(j + 2, min(j2, j + 3) + 1) if "".join(rewrite[j:end]) == old), None)
            if pieces is not None:
                replaced[j] = (j, pieces, old)
                j = pieces
            elif looks_like(new, old) or (new not in operators and is_typo_of(new, old) and not is_english_word(new)):
                replaced[j] = (j, j + 1, old)
                j += 1
            elif i2 - i1 == j2 - j1:
                j += 1
            else:
                break
    result: list[str] = []
    j = 0
    while j < len(words):
        if j in replaced:
            start, end, word = replaced[j]
            result.append(word)
            j = end
        else:
            result.append(words[j])
            j += 1
    return tuple(result)


# --- the rules ----------------------------------------------------------------------------------


def _contains(words: Sequence[str], phrase: Sequence[str]) -> bool:
    span = len(phrase)
    return any(tuple(words[i : i + span]) == tuple(phrase) for i in range(len(words) - span + 1))


def _replacement(reading: PairReading, start: int, end: int) -> tuple[str, ...]:
    """The rewrite's words that stand where ``original[start:end]`` stood (empty: dropped)."""
    for tag, i1, i2, j1, j2 in reading.opcodes:
        if tag in ("replace", "delete") and i1 <= start and end <= i2:
            return reading.rewrite[j1:j2]
    return ()


@dataclass(frozen=True)
class ValueVeto:
    """A value the gold compares with, named in the question, must be named in the rewrite."""

    name: str = "value"

    def __call__(self, reading: PairReading) -> str | None:
        for start, end in reading.gold.value_spans:
            value = reading.original[start:end]
            if _contains(reading.rewrite, value) or _contains(reading.rewrite, _plural(value)):
                continue
            if len(value) == 1 and any(_derived(word, value[0]) for word in reading.rewrite):
                continue
            instead = _replacement(reading, start, end)
            shown = " ".join(value)
            if instead:
                return f"changed the value {shown!r} to {' '.join(instead)!r}"
            return f"dropped the value {shown!r}"
        return None


def _derived(word: str, value: str) -> bool:
    """Whether ``word`` and the one-word ``value`` are forms of one word ('europe', 'european')."""
    shorter, longer = sorted((word, value), key=len)
    return len(shorter) >= DERIVED_VALUE and longer.startswith(shorter)


def _plural(words: Sequence[str]) -> tuple[str, ...]:
    return (*words[:-1], words[-1] + "s") if words else ()


@dataclass(frozen=True)
class NumberVeto:
    """The numbers of the question (digits or words: *3* is *three*) are the rewrite's numbers."""

    name: str = "number"

    def __call__(self, reading: PairReading) -> str | None:
        before = Counter(value for mark in reading.original_marks if mark.kind == "number" for value in mark.senses)
        after = Counter(value for mark in reading.rewrite_marks if mark.kind == "number" for value in mark.senses)
        if before == after:
            return None
        missing, extra = before - after, after - before
        text = {value: mark.text for mark in (*reading.original_marks, *reading.rewrite_marks) if mark.kind == "number"
                for value in mark.senses}  # fmt: skip
        if missing and extra:
            return f"changed the number {text[next(iter(missing))]!r} to {text[next(iter(extra))]!r}"
        if missing:
            return f"dropped the number {text[next(iter(missing))]!r}"
        return f"added the number {text[next(iter(extra))]!r}"


@dataclass(frozen=True)
class OperatorVeto:
    """An operator of class ``kind`` (:mod:`.lexicon`) is kept at the level of its meaning: one of
    the other end of its scale (or another quantifier group) turns it around; one fewer drops it
    (vetoed when the gold uses the class, or no gold is known; quantifiers are never vetoed for
    that); one more adds it (superlatives and comparisons; negations and aggregations in a
    local edit)."""

    kind: str
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.name or self.kind)

    def _senses(self, mark: Mark) -> frozenset[Any]:
        return frozenset({"not"}) if self.kind == "negation" else mark.senses

    def _counts(self, mark: Mark) -> bool:
        """Whether ``mark`` is one of this class (a negated comparison is a negation too)."""
        if mark.kind == self.kind:
            return True
        return self.kind == "negation" and mark.kind == "comparative" and mark.text.split()[0] in words_of("negation")

    DROPS_NOT_VETOED = frozenset({"quantifier"})
    ADDITIONS_VETOED = frozenset({"superlative", "comparative"})
    LOCAL_ADDITIONS_VETOED = frozenset({"negation", "aggregation"})
    """Classes whose addition is vetoed in a local edit only: a paraphrase may say "nonstop" as
    "without stopping", or a population as "how many people"."""

    def __call__(self, reading: PairReading) -> str | None:
        before = [mark for mark in reading.original_marks if self._counts(mark)]
        after = [mark for mark in reading.rewrite_marks if self._counts(mark)]
        unmatched = list(after)
        lost = []
        for mark in before:
            match = next((other for other in unmatched if self._senses(mark) & self._senses(other)), None)
            if match is not None:
                unmatched.remove(match)
            else:
                lost.append(mark)
        for mark in lost:
            opposite = next((other for other in unmatched if mark.kind == other.kind and mark.opposes(other)), None)
            if opposite is not None:
                return f"turned {mark.text!r} into {opposite.text!r} ({self.kind})"
        gold_uses = reading.gold.operators is None or self.kind in reading.gold.operators
        if lost and len(after) < len(before) and gold_uses and self.kind not in self.DROPS_NOT_VETOED:
            return f"dropped {lost[0].text!r} ({self.kind})"
        added = [mark for mark in unmatched if not (self.kind == "aggregation" and _counts_a_predicate(reading, mark))]
        if len(after) > len(before) and added and (
            self.kind in self.ADDITIONS_VETOED or (self.kind in self.LOCAL_ADDITIONS_VETOED and reading.local)
        ):
            return f"added {added[0].text!r} ({self.kind})"
        return None


def _counts_a_predicate(reading: PairReading, mark: Mark) -> bool:
    """Whether the rewrite's aggregation ``mark`` and the words after it stand in place of one word
    naming a predicate of the gold: a quantity said as a count ("the population" -> "the number
    of people", "enrollment" -> "number of students")."""
    for tag, i1, i2, j1, j2 in reading.opcodes:
        if tag == "replace" and i2 - i1 == 1 and j1 == mark.start and mark.end < j2:
            word = reading.original[i1]
            return bool(_named(word, reading.gold.predicates)) and word not in words_of("answer_nouns")
    return False


@dataclass(frozen=True)
class PredicateVeto:
    """A word of the question that names one of the gold's predicates must still name it: the
    veto fires when it is replaced by a word naming another predicate of the gold or another
    table or column of the schema (``RewritePair.schema``), or a value of the gold, or dropped
    while no word of the rewrite names the predicate, unless it is a class noun beside a value of
    its class ("the state of texas") or a noun of how the answer is shown ("the names of"). Read
    in local edits only (:attr:`PairReading.local`); a synonym, and a paraphrase, are left to
    the reader."""

    name: str = "predicate"

    def __call__(self, reading: PairReading) -> str | None:
        # Without a program for a gold (a Table QA answer), the schema's words are what the question names.
        predicates = reading.gold.predicates or (reading.schema if reading.gold.operators is None else frozenset())
        if not predicates or not reading.local:
            return None
        operator_positions = {i for mark in reading.original_marks for i in range(mark.start, mark.end)}
        value_positions = {i for start, end in reading.gold.value_spans for i in range(start, end)}
        value_words = {reading.original[i] for i in value_positions}
        rewrite_names = [_named(word, predicates) for word in reading.rewrite]
        for index, word in enumerate(reading.original):
            if index in operator_positions or index in value_positions:
                continue
            named = _named(word, predicates)
            if not named:
                continue
            instead = _replacement(reading, index, index + 1)
            if instead:
                if any(named & _named(new, predicates) for new in instead):
                    continue
                # Another part of speech of the word ("describing" for "descriptions") keeps it, unless it names another.
                everything = predicates | reading.schema
                if any(_wordnet_derives(word, new) and not _named(new, everything) - named for new in instead):
                    continue
                # A phrase put for this one word names what its last word names ("text file" for a document).
                alone = any(i1 == index and i2 == index + 1 for tag, i1, i2, _, _ in reading.opcodes if tag == "replace")
                naming = instead[-1:] if alone else instead
                others = set().union(*(_named(new, everything) for new in naming)) - named
                others -= words_of("answer_nouns")
                if others:
                    return f"replaced {word!r} (the gold's {sorted(named)[0]}) by {' '.join(instead)!r}, which names {sorted(others)[0]}"
                if value_words & set(instead):
                    return f"replaced {word!r} (the gold's {sorted(named)[0]}) by the value {' '.join(instead)!r}"
                continue
            if any(named & other for other in rewrite_names):
                continue
            if word in words_of("answer_nouns") or _beside_value(index, value_positions, reading.original):
                continue
            return f"dropped {word!r}, which names the gold's {sorted(named)[0]}"
        return None


@dataclass(frozen=True)
class GroupVeto:
    """In a local edit, a word of one of ``kind``'s groups (:mod:`.lexicon`) replaced by a word
    of another: ``relation`` (from, to, through, leave, arrive: the value is now the other end of
    the trip) and ``question_words`` (what, where, who, when, how: another kind of answer; or the
    question word dropped with no request in its place)."""

    kind: str
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.name or self.kind.replace("_", "-").rstrip("s"))

    def __call__(self, reading: PairReading) -> str | None:
        if not reading.local:
            return None
        groups = word_groups(self.kind)
        for tag, i1, i2, j1, j2 in reading.opcodes:
            if tag != "replace":
                continue
            before = [(word, groups[word]) for word in reading.original[i1:i2] if word in groups]
            after = {groups[word]: word for word in reading.rewrite[j1:j2] if word in groups}
            for word, group in before:
                if group not in after and after:
                    other = next(iter(after.values()))
                    return f"replaced {word!r} ({group}) by {other!r} ({groups[other]})"
        if self.kind == "question_words":
            asked = next((word for word in reading.original if word in groups), None)
            requests = set(lexicon()["question_words"]["requests"])
            if asked is not None and not (set(reading.rewrite) & (set(groups) | requests)):
                return f"dropped {asked!r} (question word): no question or request is left"
        return None


@dataclass(frozen=True)
class ExchangeVeto:
    """Two words of one kind that trade places: two values ("from boston to denver" -> "from denver
    to boston"), two words naming the gold's predicates or the schema ("rivers through states" ->
    "states through rivers"), two operators ("the largest city in the smallest state" -> "the
    smallest city in the largest state"). Each now says what the other said; words of two kinds
    swapped make a scramble people read through, which is left to the reader."""

    name: str = "exchange"

    def __call__(self, reading: PairReading) -> str | None:
        values = [" ".join(reading.original[start:end]) for start, end in reading.gold.value_spans]
        before, after = _with_values_joined(reading.original, values), _with_values_joined(reading.rewrite, values)
        if len(before) != len(after):
            return None
        differ = [i for i, (old, new) in enumerate(zip(before, after)) if old != new]
        if len(differ) != 2 or before[differ[0]] != after[differ[1]] or before[differ[1]] != after[differ[0]]:
            return None
        old, new = before[differ[0]], before[differ[1]]
        operators = {mark.text for mark in reading.original_marks}
        for kind, members in (("values", set(values)), ("operators", operators)):
            if old in members and new in members:
                return f"exchanged the {kind} {old!r} and {new!r}"
        names = reading.gold.predicates | reading.schema
        if _named(old, names) and _named(new, names):
            return f"exchanged {old!r} and {new!r}, which name {sorted(_named(old, names))[0]} and {sorted(_named(new, names))[0]}"
        return None


def _with_values_joined(words: Sequence[str], values: Sequence[str]) -> list[str]:
    """``words`` with each occurrence of a (multi-word) value read as one word."""
    joined: list[str] = []
    index = 0
    phrases = sorted((value.split() for value in values), key=len, reverse=True)
    while index < len(words):
        for phrase in phrases:
            if phrase and list(words[index : index + len(phrase)]) == phrase:
                joined.append(" ".join(phrase))
                index += len(phrase)
                break
        else:
            joined.append(words[index])
            index += 1
    return joined


def unrelated_replacement(reading: PairReading) -> tuple[str, str] | None:
    """In a local edit, the first content word replaced by a word WordNet knows but gives no sense
    in common with it ("length" -> "location", "teammate" -> "rival"), as ``(old, new)``; ``None``
    when every replaced word is another form of its word, shares a synset with it (*vocalists* for
    *singers*, *surround* for *border*), or is a word WordNet does not know (a name, ATIS's stems
    *serv*, *stopov*). The reader reads such a pair with a stricter threshold
    (:class:`~textattack_semparse.judges.grounded_judge.GroundedJudge`): it tells paraphrases apart
    better than near misses."""
    if not reading.local:
        return None
    from textattack_semparse.linguistics.function_words import FUNCTION_WORDS

    values = {reading.original[i] for start, end in reading.gold.value_spans for i in range(start, end)}
    operators = operator_words()
    for tag, i1, i2, j1, j2 in reading.opcodes:
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for old, new in zip(reading.original[i1:i2], reading.rewrite[j1:j2]):
            if old in FUNCTION_WORDS or new in FUNCTION_WORDS or old in operators or new in operators:
                continue
            if old in values or any(character.isdigit() for character in old + new) or len(old) < 3:
                continue
            if not _wordnet_relates(old, new):
                return old, new
    return None


@functools.lru_cache(maxsize=16384)
def _wordnet_relates(old: str, new: str) -> bool:
    """Whether ``new`` may stand for ``old``: another form of it, a word WordNet does not know
    (left to the reader), or one sharing a synset with it."""
    from textattack_semparse.linguistics.wordnet import load_wordnet

    wordnet = load_wordnet()
    lemmas = {word: _lemmas(word) for word in (old, new)}
    if not lemmas[old] or not lemmas[new] or lemmas[old] & lemmas[new]:
        return True
    senses = {word: {synset for lemma in lemmas[word] for synset in wordnet.synsets(lemma)} for word in (old, new)}
    return bool(senses[old] & senses[new])


@functools.lru_cache(maxsize=16384)
def _lemmas(word: str) -> frozenset[str]:
    """The WordNet lemmas ``word`` is an inflection of, over nouns, verbs, adjectives and adverbs."""
    from textattack_semparse.linguistics.wordnet import load_wordnet

    wordnet = load_wordnet()
    return frozenset(lemma for pos in "nvar" for lemma in [wordnet.morphy(word, pos)] if lemma)


@functools.lru_cache(maxsize=16384)
def _wordnet_derives(old: str, new: str) -> bool:
    """Whether WordNet relates a lemma of ``new`` to one of ``old`` by derivation (*describing*
    for *descriptions*): another part of speech of the same word names the same thing."""
    from textattack_semparse.linguistics.wordnet import load_wordnet

    wordnet = load_wordnet()
    new_lemmas = _lemmas(new)
    for pos in "nvar":
        lemma = wordnet.morphy(old, pos)
        if lemma is None:
            continue
        for synset in wordnet.synsets(lemma, pos):
            for form in synset.lemmas():
                if form.name() == lemma and {d.name() for d in form.derivationally_related_forms()} & new_lemmas:
                    return True
    return False


CLASS_NOUN_GAP = frozenset({"of", "the", "in"})
"""Words that may stand between a class noun and its value ("the state of texas")."""


def _beside_value(index: int, value_positions: set[int], words: Sequence[str]) -> bool:
    for step in (-1, 1):
        position = index + step
        while 0 <= position < len(words) and words[position] in CLASS_NOUN_GAP:
            position += step
        if position in value_positions:
            return True
    return False


@functools.lru_cache(maxsize=16384)
def _named_cached(word: str, predicates: frozenset[str]) -> frozenset[str]:
    lemmas = {word}
    if word.endswith("ies") and len(word) > 4:
        lemmas.add(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        lemmas.add(word[:-2])
    if word.endswith("s") and len(word) > 3:
        lemmas.add(word[:-1])
    return frozenset(
        predicate for predicate in predicates if any(names_predicate(lemma, lemma, frozenset({predicate})) for lemma in lemmas)
    )


def _named(word: str, predicates: frozenset[str]) -> frozenset[str]:
    """The gold predicates ``word`` names (itself, its singular, or a derived form)."""
    if len(word) < 3:
        return frozenset()
    return _named_cached(word, predicates)


VETOES: tuple[Veto, ...] = (
    ValueVeto(),
    NumberVeto(),
    OperatorVeto("negation"),
    OperatorVeto("superlative"),
    OperatorVeto("comparative"),
    OperatorVeto("aggregation"),
    OperatorVeto("quantifier"),
    GroupVeto("question_words"),
    GroupVeto("relation"),
    ExchangeVeto(),
    PredicateVeto(),
)
"""The first layer, in the order its reasons are reported."""


def veto_reason(pair: RewritePair, vetoes: Sequence[Veto] = VETOES) -> str | None:
    """The reason of the first veto that fires on ``pair``, or ``None``."""
    reading = read_pair(pair)
    for veto in vetoes:
        found = veto(reading)
        if found is not None:
            return found
    return None
