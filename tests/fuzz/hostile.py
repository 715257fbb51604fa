"""Hypothesis strategies for hostile semantic-parsing inputs, and the literal check.

A generated :class:`HostileExample` is a question (empty or whitespace-only; a 10,000-word
question; GeoQuery-style words mixed with combining marks, right-to-left text and direction
overrides, emoji sequences, control characters, SQL and HTML; free Unicode text) with a gold
output whose literals the question spells out, sometimes twice, and a small table whose
headers and cells are as hostile as the question.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.sql.literals import literal_words, sql_literals
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_input
from textattack_semparse.transformations.derived_text import MAX_QUESTION_WORDS

GEO_WORDS = (
    "what is the capital of texas population new york rivers run through state with largest how many people "
    "live in city border longest river which states does colorado flow a an are there highest point"
).split()
HOSTILE_PIECES = (
    "e\u0301", "cafe\u0301", "n\u0303o\u0308\u0327", "\u05de\u05d4 \u05d4\u05d1\u05d9\u05e8\u05d4", "\u0645\u0627 \u0647\u064a",
    "\u200f", "\u200e", "\u202e", "\u202c", "\u2067x\u2069", "\U0001f1fa\U0001f1f8", "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\U0001f937\U0001f3fd", "\u2764\ufe0f", "\x00", "\x07", "\x1b[31m", "\x7f", "\u2028", "\u0085", "\ufeff", "\u200b",
    "\t", "\r\n", "'; DROP TABLE state; --", '" OR 1=1 --', "SELECT * FROM city WHERE 1=1", "UNION SELECT",
    "<script>alert(1)</script>", "<b>", "&amp;", "</td><tr>", "%s", "{0}", "\\", "[[x]]", "$0", "( lambda", "--",
    "...", "?!", "''", '"', "@", "*", "_", "-", "'s",
)
LITERALS = ("texas", "new york", "150000", "st. louis", "o'brien", "mississippi", "2.5", "cafe\u0301", "\u5317\u4eac", "\u00f1and\u00fa")
LONG_WORDS = 10_000

FUZZ_SETTINGS = dict(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def fuzz_settings(max_examples: int) -> settings:
    """Reproducible settings (fixed seed, no example database, no deadline: hangs are bounded by the ledger)."""
    return settings(max_examples=max_examples, **FUZZ_SETTINGS)


@dataclass(frozen=True)
class HostileExample:
    """One generated input: question, gold output (``None``: nothing recorded) and a table."""

    question: str
    gold: str | None
    table: Table

    @property
    def blank(self) -> bool:
        return not self.question.strip()

    @property
    def long(self) -> bool:
        return len(self.question.split()) > MAX_QUESTION_WORDS

    def refused_clearly(self, error: Exception) -> bool:
        """Whether ``error`` is a documented refusal: a blank or over-long question, said so."""
        message = str(error)
        return (self.blank and "empty" in message) or (self.long and "words" in message)

    def attacked_text(self, *, with_table: bool = False) -> AttackedText:
        """The TextAttack input (question alone, or question and table columns), gold recorded."""
        text = AttackedText(table_input(self.question, self.table)) if with_table else AttackedText(self.question)
        if with_table:
            record_gold_output(text, format_answer([self.table.rows[0][0]]))
        elif self.gold is not None:
            record_gold_output(text, self.gold)
        return text


def _gold_sql(literals: list[str]) -> str:
    numbers = [lit for lit in literals if lit.replace(".", "", 1).isdigit()]
    strings = [lit for lit in literals if lit not in numbers]
    conditions = [f'state_name = "{lit}"' for lit in strings] + [f"population > {lit}" for lit in numbers]
    return "SELECT capital FROM state" + (" WHERE " + " AND ".join(conditions) if conditions else "")


piece = st.one_of(st.sampled_from(GEO_WORDS), st.sampled_from(HOSTILE_PIECES), st.text(max_size=8))


@st.composite
def hostile_examples(draw: st.DrawFn) -> HostileExample:
    """A question of one of the hostile kinds, with a gold query on literals it spells out."""
    # 3 inputs in 40 are blank, 4 in 40 free Unicode, the rest mixed; LONG_EXAMPLE is given explicitly.
    roll = draw(st.integers(0, 39))
    kind = "blank" if roll < 3 else "unicode" if roll < 7 else "mixed"
    if kind == "blank":
        question = draw(st.sampled_from(("", " ", "\t", "\n\n", "\u3000", " \r\n ", "\u200b", "\x00")))
    elif kind == "unicode":
        question = draw(st.text(min_size=1, max_size=60))
    else:
        pieces = draw(st.lists(piece, min_size=1, max_size=25))
        question = draw(st.sampled_from((" ", "", "  "))).join(pieces)
    literals = draw(st.lists(st.sampled_from(LITERALS), max_size=2, unique=True))
    words = question.split(" ")
    for literal in literals:
        for _ in range(draw(st.integers(1, 2))):  # a literal that appears once or twice
            words.insert(draw(st.integers(0, len(words))), literal)
    question = " ".join(words) if literals else question
    gold_kind = draw(st.sampled_from(("sql", "sql", "sql", "logical-form", "none")))
    if gold_kind == "none":
        gold = None
    elif gold_kind == "logical-form":
        gold = "( capital:c " + " ".join(lit.replace(" ", "_") + ":s" for lit in literals) + " )"
    else:
        gold = _gold_sql(literals)
    headers = draw(st.lists(st.one_of(st.sampled_from(("City", "Year", "Score", "Name (Country)", "Date")), piece), min_size=1, max_size=4))
    cells = st.one_of(st.sampled_from(("Oslo", "2001", "2\u20131", "1999-05-02", "Ann (NOR)", "", "3.5")), piece)
    rows = draw(st.lists(st.lists(cells, min_size=len(headers), max_size=len(headers)), min_size=1, max_size=4))
    return HostileExample(question, gold, Table(headers, rows))


LONG_EXAMPLE = HostileExample(
    " ".join(["new york"] + [GEO_WORDS[i % len(GEO_WORDS)] for i in range(LONG_WORDS - 4)] + ["new york"]),
    'SELECT capital FROM state WHERE state_name = "new york"',
    Table(["City", "Year"], [["new york", "2001"]]),
)
"""A 10,000-word question whose literal appears twice: every suite runs it once (``@example``)."""


def literal_counts(words: list[str], gold: str | None) -> Counter[str]:
    """How often each gold SQL literal occurs, word for word (any case), in ``words``."""
    counts: Counter[str] = Counter()
    if not gold or not gold.startswith("SELECT"):
        return counts
    lowered = [word.lower() for word in words]
    for literal in sql_literals(gold):
        target = literal_words(literal)
        if target:
            span = len(target)
            counts[literal] = sum(lowered[i : i + span] == target for i in range(len(lowered) - span + 1))
    return counts


def lost_literals(original: AttackedText, output: AttackedText, gold: str | None) -> list[str]:
    """Gold literals that occur in the original question more often than in ``output``'s."""
    before = literal_counts(original.words_per_input[0], gold)
    after = literal_counts(output.words_per_input[0], gold)
    return [literal for literal, count in before.items() if after[literal] < count]
