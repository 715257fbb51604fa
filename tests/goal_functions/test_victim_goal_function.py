"""The goal function chosen for each kind of victim."""

from __future__ import annotations

from textattack.goal_functions import UntargetedClassification
from textattack.models.wrappers import ModelWrapper

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.goal_functions.exact_match import ExactMatch
from textattack_semparse.goal_functions.execution_match import ExecutionMatch
from textattack_semparse.goal_functions.victim_goal_function import victim_goal_function
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser


class Classifier(ModelWrapper):
    def __init__(self):
        self.model = self

    def __call__(self, texts):
        return [[0.5, 0.5] for _ in texts]


def test_sql_parser_with_a_database_gets_execution_match():
    geo = load_benchmark("geo-mini")
    victim = KNNTemplateParser(geo.split("question", "train"), database=geo.database)
    goal = victim_goal_function(victim)
    assert isinstance(goal, ExecutionMatch) and goal.database == geo.database


def test_parser_without_a_database_gets_exact_match():
    victim = KNNTemplateParser(load_benchmark("geo-mini").split("question", "train"))
    assert isinstance(victim_goal_function(victim), ExactMatch)


def test_classifier_gets_untargeted_classification():
    assert isinstance(victim_goal_function(Classifier()), UntargetedClassification)
