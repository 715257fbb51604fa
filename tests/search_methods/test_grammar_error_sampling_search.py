"""The "dist." search: sampled corruptions, one query each, no search."""

from __future__ import annotations

import numpy as np
import pytest
from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.goal_functions import UntargetedClassification
from textattack.models.wrappers import ModelWrapper
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.search_methods.grammar_error_sampling_search import GrammarErrorSamplingSearch
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

QUESTION = "what is the most populous state in the us"


class LengthClassifier(ModelWrapper):
    """Label 1 for questions of more than ``max_words`` words."""

    model = None

    def __init__(self, max_words: int = 9):
        self.max_words = max_words

    def __call__(self, text_inputs):
        return np.array([[0.0, 1.0] if len(text.split()) > self.max_words else [1.0, 0.0] for text in text_inputs])


def _attack(victim, num_samples, *constraints):
    transformation = GrammarErrorCombined(mode="probabilistic", num_samples=num_samples, seed=0)
    return Attack(UntargetedClassification(victim), list(constraints), transformation, GrammarErrorSamplingSearch())


def test_stops_at_the_first_sample_that_succeeds():
    result = _attack(LengthClassifier(), 40, RepeatModification()).attack(QUESTION, 0)  # only an insertion flips it
    assert type(result).__name__ == "SuccessfulAttackResult"
    assert len(result.perturbed_result.attacked_text.words) == 10
    assert result.perturbed_result.attacked_text.attack_attrs[GRAMMAR_ERRORS_ATTR]
    assert result.perturbed_result.num_queries < 1 + 40


def test_queries_each_sample_once_when_none_succeeds():
    samples = GrammarErrorCombined(mode="probabilistic", num_samples=5, seed=0)(AttackedText(QUESTION))
    result = _attack(LengthClassifier(max_words=100), 5).attack(QUESTION, 0)
    assert type(result).__name__ == "FailedAttackResult"
    assert 2 <= len(samples) <= 5
    assert result.perturbed_result.num_queries == 1 + len(samples)
    assert result.perturbed_result.attacked_text.text in {sample.text for sample in samples}


def test_no_applicable_error_returns_the_original():
    result = _attack(LengthClassifier(), 3, PreserveLiterals(literals=(QUESTION,))).attack(QUESTION, 0)
    assert type(result).__name__ == "FailedAttackResult"
    assert result.perturbed_result.attacked_text.text == QUESTION
    assert result.perturbed_result.num_queries == 1


def test_worst_case_transformation_is_refused():
    with pytest.raises(ValueError, match="incompatible"):
        Attack(UntargetedClassification(LengthClassifier()), [], GrammarErrorCombined(), GrammarErrorSamplingSearch())
