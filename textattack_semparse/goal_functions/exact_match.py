"""Exact-match goal function for logical forms (and SQL without a database)."""

from __future__ import annotations

from typing import Any

from textattack_semparse.goal_functions.semantic_parsing_goal_function import (
    SemanticParsingGoalFunction,
    declare_compatibility,
)
from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer
from textattack_semparse.scoring.scoring import Scoring


class ExactMatch(SemanticParsingGoalFunction):
    """Succeeds when the victim's output is no longer the gold output, token for token.

    Huang et al. 2021 ("On Robustness of Neural Semantic Parsers",
    https://aclanthology.org/2021.eacl-main.292/) score logical forms by exact match; this
    compares them token for token after normalisation, see
    :class:`~textattack_semparse.scoring.exact_match_scorer.ExactMatchScorer`. Use it for
    benchmarks without a database.

    Args:
        model_wrapper: The victim.
        Other arguments: as :class:`SemanticParsingGoalFunction`.
    """

    def _scoring(self, model_wrapper: Any) -> Scoring:
        return Scoring(ExactMatchScorer())


declare_compatibility(ExactMatch)
