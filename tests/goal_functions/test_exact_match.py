"""ExactMatch on logical forms."""

from __future__ import annotations

from collections import OrderedDict

from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.models.wrappers import ModelWrapper
from textattack.shared import AttackedText

from textattack_semparse.goal_functions.exact_match import ExactMatch, normalize_logical_form

GOLD = "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"


class LookupParser(ModelWrapper):
    def __init__(self, answers: dict[str, str]):
        self.model = self
        self.answers = answers

    def __call__(self, questions):
        return [self.answers[question] for question in questions]


def _text(question: str) -> AttackedText:
    return AttackedText(OrderedDict(question=question))


def test_spacing_and_case_do_not_matter():
    assert normalize_logical_form("(lambda $0 e (State:t $0))") == normalize_logical_form("( lambda $0 e ( state:t $0 ) )")


def test_different_predicate_is_a_success():
    victim = LookupParser({"q": "(lambda $0 e (and (state:t $0) (next_to:t $0 s0)))", "q2": "( lambda $0 e ( state:t $0 ) )"})
    goal = ExactMatch(victim)
    original, _ = goal.init_attack_example(_text("q"), GOLD)
    assert original.goal_status == GoalFunctionResultStatus.SEARCHING
    assert original.score == 0.0
    perturbed, _ = goal.get_result(_text("q2"))
    assert perturbed.goal_status == GoalFunctionResultStatus.SUCCEEDED
    assert 1.0 < perturbed.score <= 2.0
