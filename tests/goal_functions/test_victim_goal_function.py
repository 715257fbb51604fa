"""The goal function chosen for each kind of victim, and how it judges."""

from __future__ import annotations

import pytest
from textattack.goal_functions import UntargetedClassification
from textattack.models.wrappers import ModelWrapper

from textattack_semparse.datasets.benchmark import Benchmark, load_benchmark
from textattack_semparse.errors import RecipeError
from textattack_semparse.goal_functions.semantic_parsing_goal_function import SemanticParsingGoalFunction
from textattack_semparse.goal_functions.victim_goal_function import victim_goal_function
from textattack_semparse.scoring import Databases, ExactMatchScorer, ExecutionScorer, Scoring
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser


class Classifier(ModelWrapper):
    def __init__(self):
        self.model = self

    def __call__(self, texts):
        return [[0.5, 0.5] for _ in texts]


@pytest.fixture(scope="module")
def geo() -> Benchmark:
    return load_benchmark("geo-mini")


def test_sql_parser_with_a_database_gets_execution_match(geo):
    victim = KNNTemplateParser(geo.split("question", "train"), database=geo.database)
    goal = victim_goal_function(victim)
    assert isinstance(goal, SemanticParsingGoalFunction)
    assert goal.scoring == Scoring(ExecutionScorer(), Databases.at(geo.database))


def test_parser_bound_to_a_benchmark_is_judged_as_the_benchmark(geo):
    victim = KNNTemplateParser(geo.split("question", "train"), benchmark=geo)
    assert victim_goal_function(victim).scoring is geo.scoring


def test_parser_without_a_database_gets_exact_match(geo):
    victim = KNNTemplateParser(geo.split("question", "train"))
    goal = victim_goal_function(victim)
    assert isinstance(goal, SemanticParsingGoalFunction) and goal.scoring == Scoring(ExactMatchScorer())


def test_benchmark_argument_wins_over_the_victims_own(geo):
    victim = KNNTemplateParser(geo.split("question", "train"))
    assert victim_goal_function(victim, benchmark=geo).scoring is geo.scoring


def test_options_reach_the_scoring(geo):
    victim = KNNTemplateParser(geo.split("question", "train"), benchmark=geo)
    goal = victim_goal_function(victim, execution_mode="test-suite", gold_timeout=7.0, use_gold_loss=False)
    assert goal.scoring.scorer == ExecutionScorer(mode="test-suite", gold_timeout=7.0)
    assert not goal.use_gold_loss


def test_execution_options_are_refused_for_an_exact_match_victim(geo):
    victim = KNNTemplateParser(geo.split("question", "train"))
    with pytest.raises(RecipeError, match="scored by exact match"):
        victim_goal_function(victim, execution_mode="test-suite")


def test_classifier_gets_untargeted_classification():
    assert isinstance(victim_goal_function(Classifier()), UntargetedClassification)
