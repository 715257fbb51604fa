"""Whole-phrase recombination of anonymised logical-form training pairs, in the manner of Jia &
Liang (2016)'s data recombination.

Robin Jia and Percy Liang (2016), "Data Recombination for Neural Semantic Parsing", ACL,
https://aclanthology.org/P16-1002/, train on new examples made from the training set by a grammar
that lets a whole phrase of a type stand wherever an entity of that type stands (their
``AbsWholePhrases``). Here: a training question that asks for one typed thing ("what is the largest
state", a logical form whose value is a state) gives a phrase ("the largest state") and its logical
form; put where a placeholder of the same type stands in another training pair ("what is the
capital of s0", ``(capital:<s,c> s0)``), it makes a new pair that nests the phrase's logical form
("what is the capital of the largest state", ``(capital:<s,c> (argmax:<...> ...))``). A parser
trained from a few hundred questions then sees superlatives and functions inside other questions
far more often than the training set shows them.

Types are read from the logical forms' own annotations: an ``argmax``/``argmin``/``the`` over a set
whose first typed conjunct is ``state:<s,t>`` is an ``s``; ``(capital:<s,c> s0)`` is a ``c``. A
placeholder's type is its name's letters (``s0``), as
:class:`~textattack_semparse.datasets.entity_anonymization.EntityAnonymizer` writes them. Logical
forms without type annotations (JOBS) or pairs without placeholders (``--no-anonymize``) give no
new pairs. geo-lambda's defaults add 600 pairs (with the output grammar's second look at wanting
outputs, three seeds scored higher with them than without); elsewhere it is off unless asked
(``train --recombined-examples N``; docs/training.md).

This module does not import torch.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from textattack_semparse.datasets.logical_form import SExpression, bound_variable, read_s_expression

_PLACEHOLDER = re.compile(r"^(?P<type>[a-z]+)(?P<number>\d+)$")
"""A placeholder word or atom of an anonymised pair: ``s0``, ``co1``."""
_PHRASE_QUESTION = re.compile(r"^(?:what|which) (?:is|was) (?P<phrase>the \S.*)$")
"""A training question that asks for one thing by a phrase: "what is the largest state"."""
_SIGNATURE = re.compile(r"^<(?P<argument>[a-z]+),(?P<value>[a-z]+)>$")
"""A one-place function's type annotation: ``<s,t>`` (a set of states), ``<s,c>`` (state to city)."""
_SELECTORS = frozenset({"argmax", "argmin", "the"})
"""Heads whose value is one member of the set their first argument describes."""
SLOT_FOLLOWERS = frozenset(
    {"and", "border", "borders", "have", "has", "is", "are", "run", "runs", "located", "flow", "flows", "lie", "lies"}
)
"""The words after which a placeholder is a slot (besides the end of the question): a phrase can
take its place before a verb or "and", not before a noun that belongs to the entity's name ("the r0
river", "c0 texas")."""


@dataclass(frozen=True)
class _Phrase:
    """A phrase of a type ("the largest state") and the logical form it denotes."""

    words: str
    logical_form: SExpression


@dataclass(frozen=True)
class _Slot:
    """A training pair (its question's words, its logical form) and where a phrase can go in it."""

    words: tuple[str, ...]
    logical_form: SExpression
    position: int

    @property
    def placeholder(self) -> str:
        return self.words[self.position]


def recombined_pairs(pairs: Sequence[tuple[str, str]], count: int, *, seed: int) -> list[tuple[str, str]]:
    """Up to ``count`` new (question, logical form) pairs, each a phrase of one training pair put in
    a slot of the same type of another, drawn at random (seeded) among every such combination;
    questions already in ``pairs`` or drawn before are skipped.

    Example:
        >>> pairs = [("what is the largest state", "(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (state:<s,t> $0)) "
        ...           "(lambda $0:e (size:<lo,i> $0)))"),
        ...          ("which rivers run through s0", "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 s0)))")]
        >>> for question, logical_form in recombined_pairs(pairs, 5, seed=0):
        ...     print(question); print(logical_form)
        which rivers run through the largest state
        (lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 (argmax:<<e,t>,<<e,i>,e>> (lambda $1:e (state:<s,t> $1)) (lambda $1:e (size:<lo,i> $1))))))
    """
    if count == 0:
        return []  # every training run without the setting, ATIS' 4,434 pairs among them, skips the search
    phrases = _phrases_by_type(pairs)
    combinations = [
        (slot, phrase)
        for slot in _slots(pairs)
        for phrase in phrases.get(_placeholder_type(slot.placeholder), ())
    ]
    random.Random(seed).shuffle(combinations)
    seen = {question for question, _ in pairs}
    made: list[tuple[str, str]] = []
    for slot, phrase in combinations:
        if len(made) >= count:
            break
        pair = _combined(slot, phrase)
        if pair is not None and pair[0] not in seen:
            seen.add(pair[0])
            made.append(pair)
    return made


def _phrases_by_type(pairs: Sequence[tuple[str, str]]) -> dict[str, list[_Phrase]]:
    """The phrases of the pairs whose question asks for one thing of a type, per type, in a fixed order."""
    phrases: dict[str, dict[tuple[str, str], _Phrase]] = {}
    for question, logical_form in pairs:
        match = _PHRASE_QUESTION.match(question)
        if match is None:
            continue
        expression = read_s_expression(logical_form)
        value_type = None if expression is None else _value_type(expression)
        if expression is None or value_type is None:
            continue
        words = match.group("phrase")
        phrases.setdefault(value_type, {})[(words, logical_form)] = _Phrase(words, expression)
    return {value_type: [by_key[key] for key in sorted(by_key)] for value_type, by_key in phrases.items()}


def _value_type(expression: SExpression) -> str | None:
    """The type of thing ``expression`` denotes, from its annotations, or ``None`` (a set, a number,
    a truth value, or no annotation to read).

    Example:
        >>> _value_type(read_s_expression("(capital:<s,c> s0)")), _value_type(read_s_expression("(size:<lo,i> s0)"))
        ('c', None)
    """
    if isinstance(expression, str) or len(expression) < 2 or not isinstance(expression[0], str):
        return None
    name, _, annotation = expression[0].partition(":")
    if name in _SELECTORS:
        return _member_type(expression[1])
    signature = _SIGNATURE.match(annotation)
    if len(expression) == 2 and signature is not None and signature.group("value") not in ("t", "i"):
        return signature.group("value")
    return None


def _member_type(described: SExpression) -> str | None:
    """The type of the members of a set written ``(lambda $0:e BODY)``: the argument type of BODY's
    first one-place predicate of ``$0`` (BODY itself or a conjunct of its ``and``)."""
    variable = bound_variable(described)
    if variable is None or isinstance(described, str) or len(described) != 3:
        return None
    body = described[2]
    if isinstance(body, str):
        return None
    conjuncts = body[1:] if isinstance(body[0], str) and body[0].partition(":")[0] == "and" else [body]
    for conjunct in conjuncts:
        if isinstance(conjunct, list) and len(conjunct) == 2 and conjunct[1] == variable and isinstance(conjunct[0], str):
            signature = _SIGNATURE.match(conjunct[0].partition(":")[2])
            if signature is not None and signature.group("value") == "t":
                return signature.group("argument")
    return None


def _slots(pairs: Sequence[tuple[str, str]]) -> Iterator[_Slot]:
    """Every placeholder written once in a pair's question and once in its logical form, at the end
    of the question or before a word of :data:`SLOT_FOLLOWERS`."""
    for question, logical_form in pairs:
        words = tuple(question.split())
        expression = read_s_expression(logical_form)
        if expression is None:
            continue
        atoms = _atoms(expression)
        for position, word in enumerate(words):
            if not _PLACEHOLDER.match(word) or words.count(word) != 1 or atoms.count(word) != 1:
                continue
            if position + 1 == len(words) or words[position + 1] in SLOT_FOLLOWERS:
                yield _Slot(words, expression, position)


def _combined(slot: _Slot, phrase: _Phrase) -> tuple[str, str] | None:
    """The slot's pair with ``phrase`` in the slot (question and logical form), or ``None`` when the
    placeholders would not be numbered per type in question order, as the anonymiser numbers them."""
    before = slot.words[: slot.position]
    if before and before[-1] == "the":
        before = before[:-1]  # "the" + "the largest state"
    question = " ".join([*before, phrase.words, *slot.words[slot.position + 1 :]])
    if not _numbered_in_order(question.split()):
        return None
    return question, _write(_substituted(slot.logical_form, slot.placeholder, phrase.logical_form, depth=0))


def _substituted(expression: SExpression, placeholder: str, phrase: SExpression, depth: int) -> SExpression:
    """``expression`` with ``placeholder`` replaced by ``phrase``, whose variables are renamed past
    the ``depth`` binders around the placeholder (``$0`` under one lambda becomes ``$1``), as the
    training logical forms name nested variables."""
    if isinstance(expression, str):
        return _renamed(phrase, depth) if expression == placeholder else expression
    inner = depth + (bound_variable(expression) is not None)
    return [_substituted(item, placeholder, phrase, inner) for item in expression]


def _renamed(expression: SExpression, offset: int) -> SExpression:
    if isinstance(expression, list):
        return [_renamed(item, offset) for item in expression]
    if not expression.startswith("$"):
        return expression
    number, colon, value_type = expression[1:].partition(":")
    return f"${int(number) + offset}{colon}{value_type}" if number.isdigit() else expression


def _numbered_in_order(words: list[str]) -> bool:
    """Whether the placeholders of each type come as ``<type>0``, ``<type>1``, ... in question order."""
    next_number: dict[str, int] = {}
    for word in words:
        match = _PLACEHOLDER.match(word)
        if match is None:
            continue
        value_type, number = match.group("type"), int(match.group("number"))
        if number != next_number.get(value_type, 0):
            return False
        next_number[value_type] = number + 1
    return True


def _placeholder_type(placeholder: str) -> str:
    match = _PLACEHOLDER.match(placeholder)
    return match.group("type") if match is not None else ""


def _atoms(expression: SExpression) -> list[str]:
    if isinstance(expression, str):
        return [expression]
    return [atom for item in expression for atom in _atoms(item)]


def _write(expression: SExpression) -> str:
    """``expression`` spelled as the training logical forms are: ``(head argument ...)``."""
    if isinstance(expression, str):
        return expression
    return "(" + " ".join(_write(item) for item in expression) + ")"
