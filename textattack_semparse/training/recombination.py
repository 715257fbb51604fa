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

Types are read from the logical forms' own annotations, by the reader the output grammar uses
(:func:`~textattack_semparse.datasets.logical_form_types.value_type`): an ``argmax``/``argmin``/``the``
over a set whose one-place predicates say ``state:<s,t>`` is an ``s``; ``(capital:<s,c> s0)`` is a
``c``. A placeholder's type is its name's letters (``s0``), as
:class:`~textattack_semparse.datasets.entity_anonymization.EntityAnonymizer` writes them
(:func:`~textattack_semparse.datasets.entity_anonymization.placeholder_type`). Logical
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

from textattack_semparse.datasets.entity_anonymization import placeholder_type
from textattack_semparse.datasets.logical_form import SExpression, bound_variable, read_s_expression
from textattack_semparse.datasets.logical_form_types import value_type

_PHRASE_QUESTION = re.compile(r"^(?:what|which) (?:is|was) (?P<phrase>the \S.*)$")
"""A training question that asks for one thing by a phrase: "what is the largest state"."""
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
        for phrase in phrases.get(placeholder_type(slot.placeholder) or "", ())
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
        # A phrase applies a function ("the largest state"); an atom alone ("the fb0") is no phrase.
        if not isinstance(expression, list) or (kind := value_type(expression)) is None:
            continue
        words = match.group("phrase")
        phrases.setdefault(kind, {})[(words, logical_form)] = _Phrase(words, expression)
    return {kind: [by_key[key] for key in sorted(by_key)] for kind, by_key in phrases.items()}


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
            if placeholder_type(word) is None or words.count(word) != 1 or atoms.count(word) != 1:
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
        kind = placeholder_type(word)
        if kind is None:
            continue
        number = int(word[len(kind) :])
        if number != next_number.get(kind, 0):
            return False
        next_number[kind] = number + 1
    return True


def _atoms(expression: SExpression) -> list[str]:
    if isinstance(expression, str):
        return [expression]
    return [atom for item in expression for atom in _atoms(item)]


def _write(expression: SExpression) -> str:
    """``expression`` spelled as the training logical forms are: ``(head argument ...)``."""
    if isinstance(expression, str):
        return expression
    return "(" + " ".join(_write(item) for item in expression) + ")"
