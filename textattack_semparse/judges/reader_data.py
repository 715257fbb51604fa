"""Pairs the meaning judge's reader learns from, drawn from the field's own human data.

Positives (``label`` 1, the same question) are questions a benchmark gives the same gold:
text2sql-data sentences of one entry filled with the same values (Finegan-Dollak et al. 2018), the
Spider training questions of one query, Spider-Syn's hand-made synonym rewrites of them (Gan et
al. 2021), the questions of one logical form in the logical-form sets; and, so that the reader
does not take a typo or a stray function word for another question, some of those questions with
one such slip (Huang et al. 2021 kept their function-word edits unchecked: such operations "rarely
alter meanings").

Negatives (``label`` 0) are the same question with other values, questions of another gold that
read almost alike, and minimal edits of a question built from its gold, one per veto class of
:mod:`.vetoes` (a value, a number, a superlative or comparison turned around, a negation added,
an aggregation or a predicate replaced).

Every draw is seeded, so the same data and seed give the same pairs. Original to textattack-semparse.
"""

from __future__ import annotations

import difflib
import random
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.text2sql import fill_placeholders
from textattack_semparse.judges.lexicon import lexicon, operator_marks, operator_words, words_of
from textattack_semparse.judges.vetoes import gold_facts, logical_form_operators, sql_operators
from textattack_semparse.linguistics.operator_words import gold_predicate_words, question_words

MAX_PAIRS_PER_GOLD = 6
"""Positive pairs drawn from one gold's questions (ATIS and Advising give some golds dozens)."""

NEAR = 0.75
"""Similarity (difflib's ratio of the word sequences) from which two questions of different
golds count as "almost alike"."""

SLIP_SHARE = 0.3
"""Share of the positive pairs whose rewrite also gets one slip (a typo, a function word added,
dropped or moved)."""


@dataclass(frozen=True)
class ReaderPair:
    """A question, another question, whether they ask the same (``label``), where the pair comes
    from (``source``: ``<benchmark>:<how>``) and the gold it belongs to (``group``, so that no
    gold is split between the training and the measured pairs)."""

    original: str
    rewrite: str
    label: int
    source: str
    group: str


# --- positives and natural negatives -----------------------------------------------------------


def template_pairs(benchmark: str, examples: Sequence[SemparseExample], rng: random.Random) -> Iterator[ReaderPair]:
    """text2sql-data entries: two templates of one gold filled with one sentence's values
    (positive), one template filled with the values of another sentence (negative)."""
    by_gold: dict[str, list[SemparseExample]] = defaultdict(list)
    for example in examples:
        if example.template_gold and example.template_question:
            by_gold[example.template_gold].append(example)
    for gold, group in by_gold.items():
        templates = sorted({example.template_question for example in group if example.template_question})
        name = f"{benchmark}:{gold}"
        drawn = 0
        for example in rng.sample(group, len(group)):
            others = [t for t in templates if t != example.template_question and _fills(t, example)]
            if others and drawn < MAX_PAIRS_PER_GOLD:
                other = fill_placeholders(rng.choice(others), dict(example.variables))
                if agree_on_constants(example.question, other):
                    yield ReaderPair(example.question, other, 1, f"{benchmark}:same-gold", name)
                    drawn += 1
        for example in rng.sample(group, min(len(group), MAX_PAIRS_PER_GOLD // 2)):
            changed = _other_values(example, group, rng)
            if changed is not None:
                yield ReaderPair(example.question, changed, 0, f"{benchmark}:other-values", name)


def _fills(template: str, example: SemparseExample) -> bool:
    names = set(re.findall(r"\b[a-z_]+\d+\b", template))
    return names <= set(example.variables) and bool(template.strip())


def _other_values(example: SemparseExample, group: Sequence[SemparseExample], rng: random.Random) -> str | None:
    """``example``'s template with one value another sentence of the group gives its placeholder."""
    for name in rng.sample(sorted(example.variables), len(example.variables)):
        if name not in (example.template_question or ""):
            continue
        values = sorted({other.variables[name] for other in group if other.variables.get(name, example.variables[name])
                         .lower() != example.variables[name].lower()})  # fmt: skip
        if values:
            return fill_placeholders(example.template_question or "", {**example.variables, name: rng.choice(values)})
    return None


def same_gold_pairs(benchmark: str, examples: Sequence[SemparseExample], rng: random.Random) -> Iterator[ReaderPair]:
    """Questions of one gold (Spider's two per query, the logical-form sets' repeats) paired."""
    by_gold: dict[tuple[str | None, str], list[str]] = defaultdict(list)
    for example in examples:
        key = (example.db_id, _normal_gold(example.gold))
        if example.question not in by_gold[key]:
            by_gold[key].append(example.question)
    for (db_id, gold), questions in by_gold.items():
        shuffled = rng.sample(questions, len(questions))
        pairs = [(a, b) for a, b in zip(shuffled, shuffled[1:]) if agree_on_constants(a, b)]
        for first, second in pairs[:MAX_PAIRS_PER_GOLD]:
            yield ReaderPair(first, second, 1, f"{benchmark}:same-gold", f"{benchmark}:{db_id}:{gold}")


def agree_on_constants(first: str, second: str) -> bool:
    """Whether two questions of one gold name the same numbers and the same days, months and times
    of day (the lexicon's ``constants``): the release gives some golds questions that do not.

    Example:
        >>> agree_on_constants("flights on wednesday to boston", "wednesday flights into boston")
        True
        >>> agree_on_constants("flights on wednesday", "flights on thursday"), agree_on_constants("top 3", "top three")
        (False, True)
    """
    from collections import Counter

    def constants(text: str) -> tuple[Counter[object], frozenset[str]]:
        words = question_words(text)
        numbers = Counter(value for mark in operator_marks(words) if mark.kind == "number" for value in mark.senses)
        return numbers, frozenset(words) & words_of("constants")

    return constants(first) == constants(second)


def _normal_gold(gold: str) -> str:
    return " ".join(gold.lower().replace('"', "'").split()).rstrip(" ;")


def near_other_gold_pairs(
    benchmark: str, examples: Sequence[SemparseExample], rng: random.Random, limit: int
) -> Iterator[ReaderPair]:
    """Questions of one database (or benchmark) that read almost alike (:data:`NEAR`) but whose
    golds differ in a predicate or an operator class: another question in nearly the same words."""
    by_db: dict[str | None, list[SemparseExample]] = defaultdict(list)
    for example in examples:
        by_db[example.db_id].append(example)
    found = 0
    for db_id in sorted(by_db, key=str):
        group = by_db[db_id]
        words = [question_words(example.question) for example in group]
        order = rng.sample(range(len(group)), len(group))
        for index in order[: max(1, limit // max(1, len(by_db)) * 2)]:
            matcher = difflib.SequenceMatcher(None, words[index], autojunk=False)
            best, best_ratio = None, NEAR
            for other in rng.sample(range(len(group)), min(len(group), 400)):
                if other == index or _normal_gold(group[other].gold) == _normal_gold(group[index].gold):
                    continue
                matcher.set_seq1(words[other])
                if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
                    continue
                ratio = matcher.ratio()
                if ratio >= best_ratio and _golds_differ(group[index].gold, group[other].gold):
                    best, best_ratio = other, ratio
            if best is not None and found < limit:
                found += 1
                yield ReaderPair(
                    group[index].question, group[best].question, 0, f"{benchmark}:near-other-gold",
                    f"{benchmark}:{db_id}:{_normal_gold(group[index].gold)}",
                )


def _golds_differ(first: str, second: str) -> bool:
    """Whether two golds name other predicates or operator classes (not only other aliases or values)."""
    if gold_predicate_words(first) != gold_predicate_words(second):
        return True
    return _operators(first) != _operators(second)


def _operators(gold: str) -> frozenset[str] | None:
    from textattack_semparse.datasets.logical_form import is_logical_form

    return logical_form_operators(gold) if is_logical_form(gold) else sql_operators(gold)


def spider_syn_pairs(records: Iterable[dict[str, str]]) -> Iterator[ReaderPair]:
    """Spider-Syn's rewrites (``SpiderQuestion`` -> ``SpiderSynQuestion``), each a positive."""
    for record in records:
        original, rewrite = record["SpiderQuestion"].strip(), record["SpiderSynQuestion"].strip()
        if original != rewrite:
            group = f"spider:{record['db_id']}:{_normal_gold(record['query'])}"
            yield ReaderPair(original, rewrite, 1, "spider-syn-train:synonym", group)


# --- minimal edits built from the gold ------------------------------------------------------------


def minimal_edits(
    benchmark: str, example: SemparseExample, schema_words: Sequence[str], values: Sequence[str], rng: random.Random
) -> Iterator[ReaderPair]:
    """Edits of ``example``'s question that change what its gold names, one per class that
    applies: another value (of ``values``), another number, a superlative or comparison turned
    around, a negation added or dropped, an aggregation or the question word changed, a
    predicate's word replaced by another word of the schema (``schema_words``). Words exchanged
    are left to the exchange veto: taught as negatives, they made the reader reject the phrases
    the reordering perturbation moves (people keep those)."""
    words = question_words(example.question)
    if not words:
        return
    group = f"{benchmark}:{example.db_id}:{_normal_gold(example.gold)}"
    tokens = example.question.split()
    for how, edited in _edits(words, tokens, example, schema_words, values, rng):
        if edited and edited.lower() != example.question.lower():
            yield ReaderPair(example.question, edited, 0, f"{benchmark}:edit-{how}", group)


def _replace_word(tokens: list[str], target: str, new: str) -> str | None:
    """``tokens`` with the first token whose word is ``target`` (case kept as lower) replaced by ``new``."""
    for index, token in enumerate(tokens):
        if question_words(token) == [target]:
            return " ".join([*tokens[:index], token.lower().replace(target, new), *tokens[index + 1 :]])
    return None


def _replace_span(tokens: list[str], span: Sequence[str], new: str) -> str | None:
    """``tokens`` with the first run whose words are ``span`` replaced by ``new``."""
    read = [question_words(token) for token in tokens]
    for start in range(len(tokens)):
        flat: list[str] = []
        for end in range(start, len(tokens)):
            flat += read[end]
            if flat == list(span):
                return " ".join([*tokens[:start], new, *tokens[end + 1 :]])
            if len(flat) >= len(span):
                break
    return None


def _edits(
    words: list[str],
    tokens: list[str],
    example: SemparseExample,
    schema_words: Sequence[str],
    values: Sequence[str],
    rng: random.Random,
) -> Iterator[tuple[str, str | None]]:
    table = lexicon()
    marks = operator_marks(words)
    for mark in marks:
        if mark.kind in ("superlative", "comparative") and mark.text.split()[0] not in words_of("negation"):
            scale, side = sorted(mark.senses)[0]
            opposite = table[mark.kind]["scales"][scale]["less" if side == "more" else "more"]
            yield mark.kind, _replace_span(tokens, mark.text.split(), rng.choice(opposite))
        elif mark.kind == "number" and isinstance(next(iter(mark.senses)), float):
            value = next(iter(mark.senses))
            yield "number", _replace_word(tokens, mark.text, str(int(value) + rng.choice((1, 2, 5, 10))))
        elif mark.kind == "aggregation" and mark.text == "how many":
            yield "aggregation", " ".join(tokens).lower().replace("how many", rng.choice(("which", "what")), 1)
        elif mark.kind == "negation" and mark.end - mark.start == 1:
            yield "negation", " ".join(token for token in tokens if question_words(token) != [mark.text])
    if not any(mark.kind == "negation" for mark in marks):
        for auxiliary in ("is", "are", "does", "do", "did", "was", "were", "has", "have", "can"):
            if auxiliary in words:
                yield "negation", _replace_word(tokens, auxiliary, f"{auxiliary} not")
                break
    facts = gold_facts(tuple(words), example.gold)
    if facts.value_spans:
        start, end = facts.value_spans[0]
        shown = " ".join(words[start:end])
        typed = [
            value for name, value in example.variables.items() if value.lower() == shown
            for value in [example.variable_types.get(name, "")]
        ]  # fmt: skip
        pool = [value for value in values if not typed or value.startswith(f"{typed[0]}\t")] or list(values)
        others = [
            value.split("\t")[-1] for value in pool
            if value.split("\t")[-1].lower() != shown and value.split("\t")[-1].lower() not in example.question.lower()
        ]  # fmt: skip
        if others:
            yield "value", _replace_span(tokens, words[start:end], rng.choice(others))
    named = [word for word in words if gold_predicate_words(example.gold) & {word, word.rstrip("s")}
             and word not in words_of("answer_nouns") and word not in operator_words()]  # fmt: skip
    replacements = [word for word in schema_words if word not in words and len(word) > 3 and word.isalpha()]
    if named and replacements:
        yield "predicate", _replace_word(tokens, rng.choice(named), rng.choice(replacements))
    wh = {"where": "when", "when": "where", "who": "where", "how": "why"}
    if words and words[0] in wh and words[1:2] not in (["many"], ["much"]):
        yield "question-word", _replace_word(tokens, words[0], wh[words[0]])


# --- slips people read through --------------------------------------------------------------------

SLIP_WORDS = ("the", "a", "of", "in", "to", "for", "with", "and", "on", "by", "at", "as", "from", "that", "which")
"""Function words a slip adds (Huang et al. 2021 insert any function word anywhere); none names an operator."""


def slip(text: str, rng: random.Random) -> str:
    """``text`` with one slip a reader reads through: a typo in a word of five letters or more
    that is no operator word, a function word added or dropped, or two neighbours swapped.

    Example:
        >>> slip("what is the capital of texas", random.Random(1)) != "what is the capital of texas"
        True
    """
    tokens = text.split()
    if not tokens:
        return text
    kind = rng.choice(("typo", "typo", "add", "drop", "swap"))
    operators = operator_words()
    if kind == "typo":
        choices = [i for i, t in enumerate(tokens) if len(t) >= 5 and t.isalpha() and t.lower() not in operators]
        if choices:
            index = rng.choice(choices)
            word = tokens[index]
            position = rng.randrange(1, len(word) - 1)
            edit = rng.choice(("swap", "drop", "double"))
            if edit == "swap":
                word = word[:position] + word[position + 1] + word[position] + word[position + 2 :]
            elif edit == "drop":
                word = word[:position] + word[position + 1 :]
            else:
                word = word[:position] + word[position] + word[position:]
            tokens[index] = word
            return " ".join(tokens)
        kind = "add"
    if kind == "drop":
        choices = [i for i, t in enumerate(tokens) if t.lower() in ("the", "a", "an", "of", "is", "are")]
        if choices:
            index = rng.choice(choices)
            return " ".join(tokens[:index] + tokens[index + 1 :])
        kind = "add"
    if kind == "swap" and len(tokens) > 2:
        index = rng.randrange(len(tokens) - 1)
        if not {tokens[index].lower(), tokens[index + 1].lower()} & operators:
            tokens[index], tokens[index + 1] = tokens[index + 1], tokens[index]
            return " ".join(tokens)
    index = rng.randrange(len(tokens) + 1)
    return " ".join([*tokens[:index], rng.choice(SLIP_WORDS), *tokens[index:]])


def with_slips(pairs: Iterable[ReaderPair], rng: random.Random) -> Iterator[ReaderPair]:
    """``pairs`` and, for :data:`SLIP_SHARE` of the positives, the same pair with a slip in the
    rewrite, and for as many originals, the original and itself with a slip (positives)."""
    for pair in pairs:
        yield pair
        if pair.label == 1 and rng.random() < SLIP_SHARE:
            yield ReaderPair(pair.original, slip(pair.rewrite, rng), 1, pair.source + "+slip", pair.group)
            yield ReaderPair(pair.original, slip(pair.original, rng), 1, pair.source.split(":")[0] + ":slip", pair.group)
