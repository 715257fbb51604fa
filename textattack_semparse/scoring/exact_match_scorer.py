"""Exact match of normalised logical forms (or SQL without a database)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from textattack_semparse.datasets.logical_form import canonical_logical_form
from textattack_semparse.scoring.scorer import Score, Scorer

_BRACKETS = re.compile(r"([()\[\]{},])")


def normalize_logical_form(text: str) -> list[str]:
    """Tokens of a logical form: brackets and commas split off, whitespace collapsed, lowercased.

    Example:
        >>> normalize_logical_form("(lambda $0 e (state:t $0))")
        ['(', 'lambda', '$0', 'e', '(', 'state:t', '$0', ')', ')']
    """
    return _BRACKETS.sub(r" \1 ", text.strip().lower()).split()


@dataclass(frozen=True)
class ExactMatchScorer(Scorer):
    """A prediction is correct when its normalised tokens equal the gold's.

    Huang et al. 2021 ("On Robustness of Neural Semantic Parsers",
    https://aclanthology.org/2021.eacl-main.292/) score their logical-form parsers by "the
    predicted LFs that exactly match their gold LFs". Normalisation here lowercases, splits brackets
    and commas off and collapses whitespace (:func:`normalize_logical_form`), so ``(a (b))``
    and ``( a ( b ) )`` match. The distance is the normalised token edit distance.

    Args:
        logical_form (bool, default False): Compare well-formed s-expressions up to the order
            of ``and``/``or`` arguments and the names of bound variables
            (:func:`~textattack_semparse.datasets.logical_form.canonical_logical_form`), as
            Dong & Lapata's released evaluation compares GeoQuery, ATIS and JOBS logical forms;
            the logical-form benchmarks are scored so. Text that is not one balanced
            s-expression is compared token for token.

    Example:
        >>> ExactMatchScorer().score("(a (b))", "( a ( b ) )")
        Score(match=True, distance=0.0)
        >>> ExactMatchScorer().score("(a c)", "(a b)").match
        False
        >>> prediction, gold = "(lambda $1 e (and (p $1) (q $1)))", "(lambda $0 e (and (q $0) (p $0)))"
        >>> [ExactMatchScorer(logical_form=flag).score(prediction, gold).match for flag in (False, True)]
        [False, True]
    """

    logical_form: bool = False
    name = "exact"

    def score(self, prediction: str, gold: str, databases: Sequence[Path] = ()) -> Score:
        distance = self.distance(prediction, gold)
        return Score(match=distance == 0.0, distance=distance)

    def distance(self, prediction: str, gold: str) -> float:
        if self.logical_form:
            canonical_prediction, canonical_gold = canonical_logical_form(prediction), canonical_logical_form(gold)
            if canonical_prediction is not None and canonical_gold is not None:
                return Levenshtein.normalized_distance(canonical_prediction, canonical_gold)
        return Levenshtein.normalized_distance(normalize_logical_form(prediction), normalize_logical_form(gold))
