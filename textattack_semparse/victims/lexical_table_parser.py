"""An offline Table QA baseline that reads the header and the cells: a lexical column and cell
matcher with lookup, count, sum, superlative, comparison and difference operations.

It answers WikiTableQuestions questions (Pasupat and Liang 2015, "Compositional Semantic Parsing
on Semi-Structured Tables", https://arxiv.org/abs/1508.00305) the way a reader skimming the table
would, so RobuT's header and content perturbations (Zhao et al. 2023, "RobuT: A Systematic Study
of Table QA Robustness Against Human-Annotated Adversarial Perturbations", ACL 2023,
https://arxiv.org/abs/2306.14321) are measurable without a neural model: renaming a column it
matched by name, or moving the rows an answer depends on, changes its answer.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.inflection import lemmatize
from textattack_semparse.tables.table import Table
from textattack_semparse.victims.table_qa_parser import TableQAParser, cell_number, format_number

_TOKEN = re.compile(r"[a-z0-9]+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3})")

QUESTION_WORDS = frozenset({"how", "many", "much", "what", "which", "who", "whom", "whose", "when", "where", "name", "tell", "me", "list"})
STOP_WORDS = FUNCTION_WORDS | QUESTION_WORDS | {"number", "amount"}
"""Words that never match a column name by themselves ("name" still matches a ``Name`` column
through :data:`WH_COLUMN_WORDS`)."""

WH_COLUMN_WORDS: dict[str, frozenset[str]] = {
    "who": frozenset(
        "name player athlete winner driver rider artist team club candidate person nominee opponent "
        "coach director actor performer member runner competitor champion manager owner author writer "
        "composer singer builder skipper pilot cyclist swimmer skier boxer wrestler golfer jockey rower "
        "skater fighter husband wife father mother king queen president governor mayor leader".split()
    ),
    "when": frozenset("date year season time day month period".split()),
    "where": frozenset("venue location city place country site stadium town state region ground".split()),
}
"""Columns a wh-word points to when no column is named: "who" -> a name-like column."""

MOST = frozenset("most highest largest biggest greatest longest top maximum max best tallest oldest heaviest".split())
LEAST = frozenset("least lowest smallest fewest shortest minimum min worst bottom youngest lightest".split())
MORE = frozenset("more higher larger bigger greater longer taller older heavier".split())
LESS = frozenset("less lower smaller fewer shorter younger lighter".split())
BEFORE = frozenset("before previous preceding prior above".split())
AFTER = frozenset("after next following below".split())
NUMERIC_SHARE = 0.7
"""Share of a column's non-empty cells that must start with a number for it to count as numeric."""
YEAR_WORDS = frozenset("year date season".split())
YEARS = (1000.0, 2100.0)
"""Numbers read as years after "before"/"after"/"since"/"until" ("which engines were used after 1999?")."""
RANK_WORDS = frozenset("rank ranking position place pos pl no".split())
"""Columns where a smaller number is better: "top ranked" is the row ranked 1."""
MAX_MENTION_TOKENS = 12
PARTIAL_MATCH_SCORE = 0.5
"""Weight of a question phrase that is only part of a cell ("ukraine" in ``Ukraine (UKR)``) against
a whole-cell match of the same length."""


def _normalize(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _tokens(text: str) -> tuple[str, ...]:
    """Lower-cased alphanumeric tokens, accents dropped, thousands separators removed ("75,000" -> "75000")."""
    return tuple(_TOKEN.findall(_THOUSANDS.sub("", _normalize(text))))


NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}


@functools.lru_cache(maxsize=2**16)
def _lemma(token: str) -> str:
    """The noun lemma of a token; number words as digits, so "four credits" names ``4 credits``."""
    if token.isdigit():
        return token
    return NUMBER_WORDS.get(token) or lemmatize(token, "NOUN")


def _content_lemmas(tokens: Sequence[str]) -> frozenset[str]:
    return frozenset(_lemma(token) for token in tokens if token not in STOP_WORDS)


@dataclass(frozen=True)
class _Column:
    index: int
    lemmas: frozenset[str]
    numbers: tuple[float | None, ...]
    numeric: bool


@dataclass(frozen=True)
class _Mention:
    """Question tokens ``start:end`` spell a cell that occurs at ``positions`` ((row, column) pairs)."""

    start: int
    end: int
    text: str
    positions: tuple[tuple[int, int], ...]

    @property
    def rows(self) -> list[int]:
        return sorted({row for row, _ in self.positions})

    @property
    def column(self) -> int:
        return Counter(column for _, column in self.positions).most_common(1)[0][0]


@dataclass(frozen=True)
class _Condition:
    """Rows whose number in ``column`` lies in ``[low, high]``; the number is question token ``position``."""

    column: int
    low: float
    high: float
    position: int


@dataclass(frozen=True)
class _TableIndex:
    """Column names, numbers and cells of a table; ``cells`` maps a cell's tokens to where it
    occurs, ``parts`` maps each phrase inside a cell (at least half of its tokens) likewise."""

    table: Table
    columns: tuple[_Column, ...]
    cells: dict[tuple[str, ...], tuple[tuple[int, int], ...]]
    parts: dict[tuple[str, ...], tuple[tuple[int, int], ...]]


@functools.lru_cache(maxsize=256)
def _index(table: Table) -> _TableIndex:
    columns = []
    for index in range(table.num_columns):
        column_cells = table.column(index)
        numbers = tuple(cell_number(cell) for cell in column_cells)
        filled = [number for number, cell in zip(numbers, column_cells) if cell.strip() and cell.strip() not in {"-", "—", "–"}]
        numeric = bool(filled) and sum(number is not None for number in filled) >= NUMERIC_SHARE * len(filled)
        columns.append(_Column(index, _content_lemmas(_tokens(table.header[index])), numbers, numeric))
    cells: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    parts: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for row_index, row in enumerate(table.rows):
        for column_index, cell in enumerate(row):
            tokens = _tokens(cell)
            if not tokens or len(tokens) > MAX_MENTION_TOKENS:
                continue
            cells.setdefault(tokens, []).append((row_index, column_index))
            shortest = max(1, (len(tokens) + 1) // 2)
            for start in range(len(tokens)):
                for end in range(start + shortest, len(tokens) + 1):
                    if end - start < len(tokens):
                        parts.setdefault(tokens[start:end], []).append((row_index, column_index))
    freeze = lambda found: {key: tuple(dict.fromkeys(value)) for key, value in found.items()}  # noqa: E731
    return _TableIndex(table, tuple(columns), freeze(cells), freeze(parts))


class LexicalTableParser(TableQAParser):
    """Answers a question from the table by matching its words to column names and cells.

    The question's words are lemmatised and matched to the column names (token overlap) and to
    the cells (the longest cells spelled out in the question, non-overlapping). The answer column
    is the one named by the words after the wh-word ("which *team*", "how many *points*"), else
    the column the wh-word points to ("who" -> a name-like column, "when" -> a date or year),
    else the first column other than the mentioned cell's. Then one operation, chosen by cue
    words:

    - **difference** ("how many more ... than", "difference"): the numeric column's values in the
      rows of two mentioned cells, subtracted;
    - **comparison** (two mentioned cells and "more"/"less"/"before"/"after"): the mentioned cell
      whose row wins on the numeric column, or comes first/last in the table;
    - **count** ("how many", "number of"): the named numeric column's value in the mentioned row,
      else the number of rows holding the mentioned cells and meeting a numeric condition
      ("more than 5", "at least 3");
    - **sum** ("total", "combined") over a named numeric column;
    - **superlative** ("most", "highest", "least", "fewest", ...): the answer column in the row
      with the extreme value of the named numeric column, or the most/least frequent value of
      the answer column when no numeric column is named; "first"/"last" by row order;
    - **lookup**: the answer column in the mentioned cell's rows, or in the row above/below
      ("before", "after", "next", "previous").

    Column names are read, never column positions alone, so header perturbations change what it
    finds. Tables are indexed once (cached); tens of thousands of questions per minute on one CPU
    core. On WTQ's random-split-1 dev set (2,831 questions) it answers 982 (34.7%) correctly by
    the WTQ denotation match (``textattack-semparse evaluate --model table-lexical``); neural
    Table QA models reach 50-60%.

    Original to textattack-semparse (a reader-like baseline for WTQ, not a published model).

    Args:
        benchmark (Benchmark | None, default None): As :class:`TableQAParser`.
        max_failure_rate (float, default 0.1): As :class:`SemanticParser`.

    Example:
        >>> from textattack_semparse.tables.table import Table
        >>> table = Table(["Athlete", "Country", "Gold"], [["Ann Lee", "Norway", "3"], ["Bo Kim", "Korea", "5"]])
        >>> parser = LexicalTableParser()
        >>> parser([("which country won the most gold?", table.to_json()), ("who is from norway?", table.to_json())])
        ['Korea', 'Ann Lee']
    """

    def _answer_batch(self, questions: list[str], tables: list[Table]) -> list[list[str]]:
        return [_Question(question, _index(table)).answer() for question, table in zip(questions, tables)]


class _Question:
    """One question read against one indexed table."""

    def __init__(self, text: str, index: _TableIndex) -> None:
        self.index = index
        self.table = index.table
        self.tokens = _tokens(text)
        self.words = set(self.tokens)
        self.mentions = self._mentions()
        covered = {position for mention in self.mentions for position in range(mention.start, mention.end)}
        self.free_lemmas = _content_lemmas([token for position, token in enumerate(self.tokens) if position not in covered])
        self.focus = self._focus(covered)

    # -- reading --------------------------------------------------------------------------------

    def _mentions(self) -> list[_Mention]:
        """Cells spelled out in the question, longest first, not overlapping one another."""
        found: list[tuple[float, _Mention]] = []
        count = len(self.tokens)
        for start in range(count):
            for end in range(start + 1, min(count, start + MAX_MENTION_TOKENS) + 1):
                key = self.tokens[start:end]
                if all(token in STOP_WORDS for token in key) or len(key) == 1 and len(key[0]) == 1:
                    continue  # function words or a lone letter or digit are too weak a mention
                for weight, table in ((1.0, self.index.cells), (PARTIAL_MATCH_SCORE, self.index.parts)):
                    positions = table.get(key)
                    if positions is not None:
                        found.append((weight * len(" ".join(key)), _Mention(start, end, " ".join(key), positions)))
                        break
        found.sort(key=lambda pair: (-pair[0], pair[1].start))
        chosen: list[_Mention] = []
        for _, mention in found:
            if all(mention.end <= other.start or mention.start >= other.end for other in chosen):
                chosen.append(mention)
        return sorted(chosen, key=lambda mention: mention.start)

    def _focus(self, covered: set[int]) -> frozenset[str]:
        """Lemmas of the first run of content words after the wh-phrase ("which *show* had the
        highest rating"): what the question asks for."""
        anchors = [position for position, token in enumerate(self.tokens) if token in {"what", "which", "who", "many", "much", "whose", "name", "list"}]
        if not anchors:
            return frozenset()
        focus = []
        for position in range(anchors[0] + 1, len(self.tokens)):
            if position in covered:
                break
            token = self.tokens[position]
            if token not in STOP_WORDS:
                focus.append(token)
            elif focus:
                break
            if len(focus) == 3:
                break
        return _content_lemmas(focus)

    def _column_score(self, column: _Column, lemmas: frozenset[str]) -> float:
        overlap = len(column.lemmas & lemmas)
        return overlap + (overlap / len(column.lemmas) if column.lemmas else 0.0) * 0.5

    def _best_column(self, lemmas: frozenset[str], *, exclude: Collection[int] = frozenset(), numeric: bool | None = None) -> int | None:
        best, best_score = None, 0.0
        for column in self.index.columns:
            if column.index in exclude or (numeric is not None and column.numeric != numeric):
                continue
            score = self._column_score(column, lemmas)
            if score > best_score:
                best, best_score = column.index, score
        return best

    def _wh_column(self, exclude: set[int]) -> int | None:
        for wh, words in WH_COLUMN_WORDS.items():
            if wh in self.words:
                column = self._best_column(words, exclude=exclude)
                if column is not None:
                    return column
        return None

    def _answer_column(self, exclude: set[int]) -> int:
        column = self._best_column(self.focus, exclude=exclude)
        if column is None:
            column = self._wh_column(exclude)
        if column is None:
            column = self._best_column(self.free_lemmas, exclude=exclude)
        if column is None:  # the table's first text column: usually what its rows are about
            candidates = [c for c in range(self.table.num_columns) if c not in exclude] or [0]
            column = next((c for c in candidates if not self.index.columns[c].numeric), candidates[0])
        return column

    def _numeric_column(self, exclude: set[int]) -> int | None:
        column = self._best_column(self.focus, exclude=exclude, numeric=True)
        return column if column is not None else self._best_column(self.free_lemmas, exclude=exclude, numeric=True)

    # -- operations -----------------------------------------------------------------------------

    def answer(self) -> list[str]:
        if not self.table.rows or not self.table.header:
            return []
        text = " ".join(self.tokens)
        counting = "how many" in text or "number of" in text or "how much" in text
        for operation in (
            self._difference if counting or "difference" in self.words else None,
            self._comparison,
            self._count if counting else None,
            self._sum if self.words & {"total", "combined", "sum"} else None,
            self._superlative,
            self._lookup,
        ):
            if operation is None:
                continue
            result = operation()
            if result is not None:
                return result
        return [self.table.rows[0][self._answer_column(set())]]

    def _mention_columns(self) -> set[int]:
        return {mention.column for mention in self.mentions}

    def _value(self, column: int, rows: Sequence[int]) -> float | None:
        """The number in the first of ``rows`` that has one in ``column``."""
        row = self._numbered_row(column, rows)
        return None if row is None else self.index.columns[column].numbers[row]

    def _numbered_row(self, column: int, rows: Sequence[int]) -> int | None:
        return next((row for row in rows if self.index.columns[column].numbers[row] is not None), None)

    def _difference(self) -> list[str] | None:
        if len(self.mentions) < 2 or not (self.words & (MORE | LESS | {"difference", "than", "between"})):
            return None
        first, second = self.mentions[0], self.mentions[1]
        column = self._numeric_column(self._mention_columns())
        if column is None:
            return None
        a, b = self._value(column, first.rows), self._value(column, second.rows)
        if a is None or b is None:
            return None
        return [format_number(abs(a - b))]

    def _comparison(self) -> list[str] | None:
        if len(self.mentions) < 2 or "how" in self.words:
            return None
        candidates = self._choices()
        if len(candidates) < 2:
            return None
        cell = lambda mention: self.table.rows[mention.rows[0]][mention.column]  # noqa: E731
        context = {row for mention in self.mentions if mention not in candidates for row in mention.rows}
        in_context = [mention for mention in candidates if context & set(mention.rows)]
        if len(in_context) == 1:  # "which is a civil parish, aintree village or maghull?"
            return [cell(in_context[0])]
        if self.words & (BEFORE | {"first", "earlier", "earliest"}):
            return [cell(min(candidates, key=lambda mention: mention.rows[0]))]
        if self.words & (AFTER | {"last", "later", "latest"}):
            return [cell(max(candidates, key=lambda mention: mention.rows[0]))]
        larger, smaller = self.words & (MORE | MOST), self.words & (LESS | LEAST)
        if not (larger or smaller):
            return None
        column = self._numeric_column(self._mention_columns())
        if column is None:
            return None
        scored = [
            (value, mention) for mention in candidates if (value := self._value(column, mention.rows)) is not None
        ]
        if not scored:
            return None
        pick = max if larger else min
        return [cell(pick(scored, key=lambda pair: pair[0])[1])]

    def _choices(self) -> list[_Mention]:
        """The alternatives "A or B" in one column, else the mentions in the first mention's column."""
        for first, second in zip(self.mentions, self.mentions[1:]):
            if first.column == second.column and "or" in self.tokens[first.end : second.start]:
                return [first, second]
        return [mention for mention in self.mentions if mention.column == self.mentions[0].column]

    def _filtered_rows(self) -> list[int]:
        """Rows holding every mentioned cell (else any of them), all rows when none is mentioned,
        then those meeting the question's numeric condition, if any."""
        mentions = self._cell_mentions()
        rows = set(range(self.table.num_rows))
        for mention in mentions:
            rows &= set(mention.rows)
        if not rows:
            rows = {row for mention in mentions for row in mention.rows}
        condition = self.condition
        if condition is not None:
            numbers = self.index.columns[condition.column].numbers
            rows = {
                row
                for row in rows
                if (number := numbers[row]) is not None and condition.low <= number <= condition.high
            }
        return sorted(rows)

    def _cell_mentions(self) -> list[_Mention]:
        """The mentions that name cells, not the number of the numeric condition ("after 1999")."""
        condition = self.condition
        return [m for m in self.mentions if condition is None or not (m.start <= condition.position < m.end)]

    @functools.cached_property
    def condition(self) -> _Condition | None:
        """The question's numeric condition, read once (:meth:`_numeric_condition`)."""
        return self._numeric_condition()

    def _numeric_condition(self) -> _Condition | None:
        """The condition "more than 5", "at least 3", "under 10", "after 1999" in the question sets."""
        for position, token in enumerate(self.tokens):
            following = self.tokens[position + 1 : position + 4]
            numbers = [(offset, float(_lemma(t))) for offset, t in enumerate(following) if _lemma(t).isdigit()]
            if not numbers:
                continue
            (offset, value), comparative = numbers[0], "than" in following
            at = position + 1 + offset
            year = YEARS[0] <= value <= YEARS[1] and offset <= 2
            if year and token in {"after", "since", "before", "until", "prior"}:
                column = self._year_column()
                if column is not None:
                    after = token in {"after", "since"}
                    step = math.inf if after else -math.inf
                    bounds = (math.nextafter(value, step), math.inf) if after else (-math.inf, math.nextafter(value, step))
                    return _Condition(column, *bounds, at)
            if token in {"over", "above", "exceeding"} or token in {"more", "greater"} and comparative:
                low, high = math.nextafter(value, math.inf), math.inf
            elif token in {"under", "below"} or token in {"less", "fewer"} and comparative:
                low, high = -math.inf, math.nextafter(value, -math.inf)
            elif token == "at" and following[0] == "least":
                low, high = value, math.inf
            elif token == "at" and following[0] == "most":
                low, high = -math.inf, value
            else:
                continue
            cells = {mention.column for mention in self.mentions if not mention.start <= at < mention.end}
            column = self._numeric_column(cells)
            return None if column is None else _Condition(column, low, high, at)
        return None

    def _year_column(self) -> int | None:
        """The numeric column named like a year or date, else the one holding years."""
        named = self._best_column(YEAR_WORDS, numeric=True)
        if named is not None:
            return named
        for column in self.index.columns:
            values = [number for number in column.numbers if number is not None]
            if column.numeric and values and all(YEARS[0] <= number <= YEARS[1] for number in values):
                return column.index
        return None

    def _count(self) -> list[str] | None:
        exclude = self._mention_columns()
        named_numeric = self._best_column(self.focus, exclude=exclude, numeric=True)
        rows = self._filtered_rows()
        if named_numeric is not None and not self._best_column(self.focus, exclude=exclude, numeric=False):
            # "how many points did X score?": the named number in X's row; "how many total goals were
            # scored?": their sum over the rows
            numbers = self.index.columns[named_numeric].numbers
            numbered = {row: number for row in rows if (number := numbers[row]) is not None}
            if len(numbered) == 1 or numbered and self._cell_mentions():
                return [self.table.rows[next(iter(numbered))][named_numeric]]  # the cell as written: "1,279,555"
            if numbered and "total" in self.words:
                return [format_number(sum(numbered.values()))]
        return [str(len(rows))]

    def _sum(self) -> list[str] | None:
        column = self._numeric_column(self._mention_columns())
        if column is None:
            return None
        rows = self._filtered_rows()
        values = [self.index.columns[column].numbers[row] for row in rows]
        return [format_number(sum(value for value in values if value is not None))]

    def _superlative(self) -> list[str] | None:
        larger, smaller = self.words & MOST, self.words & LEAST
        ordinal = self.words & {"first", "last"}
        if not (larger or smaller or ordinal):
            return None
        exclude = self._mention_columns()
        numeric = self._numeric_column(exclude) if larger or smaller else None
        if numeric is not None and self._best_column(self.focus, exclude=exclude) == numeric:
            answer_column = numeric  # "what is the largest penalty?": the extreme value itself
        else:
            answer_column = self._answer_column(exclude | ({numeric} if numeric is not None else set()))
        rows = self._filtered_rows()
        if larger or smaller:
            if numeric is not None:
                numbers = self.index.columns[numeric].numbers
                scored = [(numbers[row], row) for row in rows if numbers[row] is not None]
                if scored:
                    rank = bool(self.index.columns[numeric].lemmas & RANK_WORDS)
                    pick = max if bool(larger) != rank else min
                    return [self.table.rows[pick(scored)[1]][answer_column]]
            counts = Counter(self.table.rows[row][answer_column] for row in rows if self.table.rows[row][answer_column].strip())
            if counts:
                ranked = counts.most_common()
                return [ranked[0][0] if larger else ranked[-1][0]]
            return None
        row = rows[0] if "first" in ordinal else rows[-1]
        return [self.table.rows[row][answer_column]]

    def _lookup(self) -> list[str] | None:
        cells = self._cell_mentions()
        if not cells:  # "which engines were used after 1999?": the rows meeting the condition
            condition = self.condition
            if condition is None:
                return None
            answer_column = self._answer_column({condition.column})
            return list(dict.fromkeys(self.table.rows[row][answer_column] for row in self._filtered_rows())) or None
        rows = self._filtered_rows()
        mention = max(cells, key=lambda m: len(m.text))
        if "same" in self.words:
            return self._same(mention)
        offset = self.words & (BEFORE | AFTER) if self.condition is None else set()
        named = self._best_column(self.focus)
        # "which team won previous to X": the row above X, in X's own column when the question names it.
        answer_column = mention.column if offset and named == mention.column else self._answer_column({mention.column})
        if offset & BEFORE:
            rows = [row - 1 for row in rows[:1] if row > 0]
        elif offset & AFTER:
            rows = [row + 1 for row in rows[-1:] if row + 1 < self.table.num_rows]
        values = [self.table.rows[row][answer_column] for row in rows]
        return list(dict.fromkeys(values)) or None

    def _same(self, mention: _Mention) -> list[str] | None:
        """"Which players played the same position as X?": the other rows sharing X's value in the
        column the question names, read in the column it asks for (X's own, unless it names another)."""
        pivot = self._best_column(self.free_lemmas, exclude={mention.column})
        if pivot is None:
            return None
        named = self._best_column(self.focus, exclude={pivot})
        answer_column = mention.column if named is None else named
        values = {self.table.rows[row][pivot] for row in mention.rows}
        rows = [row for row in range(self.table.num_rows) if row not in mention.rows and self.table.rows[row][pivot] in values]
        return list(dict.fromkeys(self.table.rows[row][answer_column] for row in rows)) or None
