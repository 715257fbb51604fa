"""ExactMatch on logical forms."""

from __future__ import annotations

from collections import OrderedDict

from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.models.wrappers import ModelWrapper
from textattack.shared import AttackedText

from textattack_semparse.goal_functions.exact_match import ExactMatch
from textattack_semparse.scoring import ExactMatchScorer, Scoring

GOLD = "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"


class LookupParser(ModelWrapper):
    def __init__(self, answers: dict[str, str]):
        self.model = self
        self.answers = answers

    def __call__(self, questions):
        return [self.answers[question] for question in questions]


def _text(question: str) -> AttackedText:
    return AttackedText(OrderedDict(question=question))


def test_scores_by_exact_match_even_for_a_victim_with_a_database(tmp_path):
    victim = LookupParser({})
    victim.database = tmp_path
    assert ExactMatch(victim).scoring == Scoring(ExactMatchScorer())


def test_spacing_and_case_do_not_matter():
    victim = LookupParser({"q": "(LAMBDA $0 e (and (state:t $0)(next_to:t $0 s0)))"})
    original, _ = ExactMatch(victim).init_attack_example(_text("q"), GOLD)
    assert original.goal_status == GoalFunctionResultStatus.SEARCHING and original.score == 0.0


def test_different_predicate_is_a_success():
    victim = LookupParser({"q": "(lambda $0 e (and (state:t $0) (next_to:t $0 s0)))", "q2": "( lambda $0 e ( state:t $0 ) )"})
    goal = ExactMatch(victim)
    original, _ = goal.init_attack_example(_text("q"), GOLD)
    assert original.goal_status == GoalFunctionResultStatus.SEARCHING
    assert original.score == 0.0
    perturbed, _ = goal.get_result(_text("q2"))
    assert perturbed.goal_status == GoalFunctionResultStatus.SUCCEEDED
    assert 1.0 < perturbed.score <= 2.0
