"""The goal function a recipe uses for a given victim."""

from __future__ import annotations

from typing import Any

from textattack.goal_functions import GoalFunction, UntargetedClassification

from textattack_semparse.goal_functions.semantic_parsing_goal_function import SemanticParsingGoalFunction
from textattack_semparse.victims.semantic_parser import SemanticParser


def victim_goal_function(model_wrapper: Any, *, benchmark: Any = None, **goal_function_options: Any) -> GoalFunction:
    """The semantic-parsing goal (judged as ``benchmark``, or the victim's own benchmark, says)
    for semantic parsers, TextAttack's untargeted classification goal for every other victim.

    This lets one recipe attack semantic parsers and ordinary TextAttack classifiers, as Yin et
    al. (2020) attack classifiers with grammatical errors.
    """
    if not isinstance(model_wrapper, SemanticParser):
        return UntargetedClassification(model_wrapper, **goal_function_options)
    return SemanticParsingGoalFunction(model_wrapper, benchmark=benchmark, **goal_function_options)
