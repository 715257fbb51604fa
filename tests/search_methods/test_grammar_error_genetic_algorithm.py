"""The genetic search: per-question iteration count and crossover by whole errors."""

from __future__ import annotations

import numpy as np
import pytest
from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.goal_functions import UntargetedClassification
from textattack.models.wrappers import ModelWrapper
from textattack.search_methods.population_based_search import PopulationMember
from textattack.shared import AttackedText

from textattack_semparse.search_methods.grammar_error_genetic_algorithm import GrammarErrorGeneticAlgorithm
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

QUESTION = "what is the most populous state in the us"


class ConstantClassifier(ModelWrapper):
    model = None

    def __call__(self, text_inputs):
        return np.tile([0.9, 0.1], (len(text_inputs), 1))


def _search(**options) -> GrammarErrorGeneticAlgorithm:
    attack = Attack(
        UntargetedClassification(ConstantClassifier()),
        [RepeatModification()],
        GrammarErrorCombined(length_preserving=True),
        GrammarErrorGeneticAlgorithm(**options),
    )
    return attack.search_method


def _member(text: AttackedText) -> PopulationMember:
    return PopulationMember(text, attributes={"num_candidate_transformations": np.ones(text.num_words)})


def _apply(original: AttackedText, edits) -> str:
    words = list(original.words)
    for edit in edits:
        for index, replacement in zip(edit.indices, edit.replacement):
            words[index] = replacement
    return " ".join(words)


def test_iterations_are_023_times_the_perturbable_positions():
    search = _search()
    text = AttackedText(QUESTION)
    positions = search.perturbable_positions(text)
    assert positions == {1, 2, 3, 5, 6, 7}  # is, the, most, state, in, the
    assert search.iterations_for(text) == 2  # ceil(0.23 * 6)
    assert _search(iterations_ratio=1.0).iterations_for(text) == 6
    assert _search(min_iterations=5).iterations_for(text) == 5


def test_crossover_takes_whole_errors_and_records_them():
    search = _search(seed=0)
    original = AttackedText(QUESTION)
    swap = next(c for c in search.get_transformations(original, original_text=original, indices_to_modify=[3]))
    plural = next(c for c in search.get_transformations(original, original_text=original, indices_to_modify=[5])
                  if c.attack_attrs[GRAMMAR_ERRORS_ATTR][0].error_type == "Nn")
    children = {search._crossover_operation(_member(swap), _member(plural))[0] for _ in range(40)}
    texts = {child.text for child in children}
    assert texts <= {original.text, swap.text, plural.text, "what is the populous most states in the us"}
    assert len(texts) >= 3
    for child in children:
        edits = child.attack_attrs[GRAMMAR_ERRORS_ATTR]
        assert _apply(original, edits) == child.text
        assert child.text != "what is the populous populous state in the us"


def test_crossover_of_parents_sharing_an_error_keeps_it_once():
    search = _search(seed=1)
    original = AttackedText(QUESTION)
    swap = next(c for c in search.get_transformations(original, original_text=original, indices_to_modify=[3]))
    for _ in range(10):
        child, _ = search._crossover_operation(_member(swap), _member(swap))
        assert child.text == swap.text and len(child.attack_attrs[GRAMMAR_ERRORS_ATTR]) == 1


def test_insertions_and_deletions_are_refused():
    with pytest.raises(ValueError, match="incompatible"):
        Attack(UntargetedClassification(ConstantClassifier()), [], GrammarErrorCombined(), GrammarErrorGeneticAlgorithm())


@pytest.mark.parametrize(
    "options, message",
    [({"pop_size": 0}, "pop_size"), ({"iterations_ratio": 0}, "iterations_ratio"), ({"min_iterations": 0}, "min_iterations")],
)
def test_bad_arguments_are_rejected(options, message):
    with pytest.raises(ValueError, match=message):
        GrammarErrorGeneticAlgorithm(**options)


def test_repr_shows_the_ratio_not_a_fixed_iteration_count():
    text = repr(GrammarErrorGeneticAlgorithm())
    assert "(iterations_ratio):  0.23" in text and "(pop_size):  60" in text and "max_iters" not in text
