"""Exact-match goal function for logical forms (and SQL without a database)."""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz.distance import Levenshtein

from textattack_semparse.goal_functions.semantic_parsing_goal_function import (
    SemanticParsingGoalFunction,
    declare_compatibility,
)

_BRACKETS = re.compile(r"([()\[\]{},])")


def normalize_logical_form(text: str) -> list[str]:
    """Tokens of a logical form: brackets and commas split off, whitespace collapsed, lowercased.

    Example:
        >>> normalize_logical_form("(lambda $0 e (state:t $0))")
        ['(', 'lambda', '$0', 'e', '(', 'state:t', '$0', ')', ')']
    """
    return _BRACKETS.sub(r" \1 ", text.strip().lower()).split()


class ExactMatch(SemanticParsingGoalFunction):
    """Succeeds when the victim's output is no longer the gold output, token for token.

    Exact match on normalised logical forms is the accuracy of the logical-form parsers
    studied by Huang et al. 2021 ("On Robustness of Neural Semantic Parsers",
    https://aclanthology.org/2021.eacl-main.292/). Normalisation lowercases, splits brackets
    and commas off and collapses whitespace (:func:`normalize_logical_form`), so
    ``(a (b))`` and ``( a ( b ) )`` match. Use it for benchmarks without a database.

    Args:
        model_wrapper: The victim.
        use_gold_loss (bool, default True): See :class:`SemanticParsingGoalFunction`.
    """

    def _match(self, prediction: str, attacked_text: Any) -> bool:
        return normalize_logical_form(prediction) == normalize_logical_form(self.ground_truth_output)

    def _distance(self, prediction: str) -> float:
        return Levenshtein.normalized_distance(
            normalize_logical_form(prediction), normalize_logical_form(self.ground_truth_output)
        )


declare_compatibility(ExactMatch)
