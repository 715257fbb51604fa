"""The genetic search: per-question iteration count and crossover by whole errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.goal_functions import UntargetedClassification
from textattack.models.wrappers import ModelWrapper
from textattack.search_methods.population_based_search import PopulationMember
from textattack.shared import AttackedText

from textattack_semparse.search_methods.grammar_error_genetic_algorithm import (
    GrammarErrorGeneticAlgorithm,
    original_edits,
)
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
        GrammarErrorCombined(),
        GrammarErrorGeneticAlgorithm(**options),
    )
    return attack.search_method


def _member(text: AttackedText) -> PopulationMember:
    return PopulationMember(text, attributes={"num_candidate_transformations": np.ones(text.num_words)})


def _error(search, text: AttackedText, index: int, error_type: str, replacement: str | None = None) -> AttackedText:
    """The candidate of ``search`` adding one ``error_type`` error anchored at word ``index`` of ``text``."""
    original = text
    while "previous_attacked_text" in original.attack_attrs:
        original = original.attack_attrs["previous_attacked_text"]
    return next(
        candidate
        for candidate in search.get_transformations(text, original_text=original, indices_to_modify=[index])
        if search.new_edits(candidate, text)[0].error_type == error_type
        and (replacement is None or search.new_edits(candidate, text)[0].replacement == (replacement,))
    )


def _apply(original: AttackedText, edits) -> str:
    words = list(original.words)
    for edit in edits:
        for index, replacement in zip(edit.indices, edit.replacement):
            words[index] = replacement
    return " ".join(word for word in words if word)  # "" is a deleted word


# Yin et al. (2020), section 4: the genetic attack runs with "population size 60 and maximum
# number of generations 23% of the sentence length", i.e. ceil(0.23 x number of words).
RULE_SENTENCES = [
    "what is the capital of texas",  # 6 words
    QUESTION,  # 9 words
    "what rivers flow through the states that border the state with the largest population",  # 14 words
    "how many people live in the biggest city in the smallest state of the us",  # 15 words
]


@pytest.mark.parametrize("sentence", RULE_SENTENCES)
def test_generations_are_23_percent_of_the_sentence_length_rounded_up(sentence):
    search = _search()
    expected = math.ceil(0.23 * len(sentence.split()))
    assert search.iterations_for(AttackedText(sentence)) == expected


def test_generation_count_of_a_nine_word_question_is_three():
    search = _search()
    text = AttackedText(QUESTION)
    assert len(QUESTION.split()) == 9 and math.ceil(0.23 * 9) == 3
    assert search.iterations_for(text) == 3  # not ceil(0.23 x 6 perturbable positions) = 2
    assert search.perturbable_positions(text) >= {1, 2, 3, 5, 6, 7}
    assert _search(iterations_ratio=1.0).iterations_for(text) == 9
    assert _search(min_iterations=5).iterations_for(text) == 5


def test_crossover_takes_whole_errors_and_records_them():
    search = _search(seed=0)
    original = AttackedText(QUESTION)
    swap = _error(search, original, 3, "Worder")
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
    swap = _error(search, original, 3, "Worder")
    for _ in range(10):
        child, _ = search._crossover_operation(_member(swap), _member(swap))
        assert child.text == swap.text and len(child.attack_attrs[GRAMMAR_ERRORS_ATTR]) == 1


def test_insertions_and_deletions_are_accepted():
    goal = UntargetedClassification(ConstantClassifier())
    attack = Attack(goal, [], GrammarErrorCombined(), GrammarErrorGeneticAlgorithm())
    assert isinstance(attack.search_method, GrammarErrorGeneticAlgorithm)


def test_errors_are_read_back_at_original_positions_across_a_deletion():
    search = _search()
    original = AttackedText(QUESTION)
    deleted = _error(search, original, 2, "ArtOrDet", "")  # "what is most populous state in the us"
    assert deleted.num_words == 8
    # "most" is word 2 of the shorter text, word 3 of the original.
    inserted = _error(search, deleted, 2, "ArtOrDet", "a most")
    assert inserted.text == "what is a most populous state in the us"
    edits = original_edits(inserted)
    assert [(edit.indices, edit.replacement) for edit in edits] == [((2,), ("",)), ((3,), ("a most",))]
    assert _apply(original, edits) == inserted.text


def test_crossover_of_parents_of_different_lengths_gives_valid_texts():
    search = _search(seed=0)
    original = AttackedText(QUESTION)
    # Parent 1 (9 words): "the" deleted, then "a" inserted before "most".
    parent1 = _error(search, _error(search, original, 2, "ArtOrDet", ""), 2, "ArtOrDet", "a most")
    # Parent 2 (8 words): the second "the" deleted, then "most populous" swapped.
    parent2 = _error(search, _error(search, original, 7, "ArtOrDet", ""), 3, "Worder")
    assert parent1.text == "what is a most populous state in the us"
    assert parent2.text == "what is the populous most state in us"
    errors = {
        "delete the": ((2,), ("",)),
        "insert a": ((3,), ("a most",)),
        "swap": ((3, 4), ("populous", "most")),
        "delete the 2": ((7,), ("",)),
    }
    texts = set()
    for _ in range(80):
        child = search._crossover_operation(_member(parent1), _member(parent2))[0]
        edits = child.attack_attrs[GRAMMAR_ERRORS_ATTR]
        got = {(edit.indices, edit.replacement) for edit in edits}
        assert got <= set(errors.values())
        # The overlapping insertion and swap come from one parent, never both.
        assert not {errors["insert a"], errors["swap"]} <= got
        assert child.text == _apply(original, edits) == " ".join(child.words)
        assert original_edits(child) == tuple(edits)
        texts.add(child.text)
    assert "what is populous most state in us" in texts  # a deletion from each parent and the swap
    assert "what is a most populous state in us" in texts  # parent 1's insertion, parent 2's deletion
    assert len(texts) >= 6


class LengthClassifier(ModelWrapper):
    """Class 1 once the question is at least two words longer or shorter than the original."""

    model = None

    def __call__(self, text_inputs):
        shift = np.array([abs(len(text.split()) - len(QUESTION.split())) for text in text_inputs])
        first = np.clip(0.85 - 0.2 * shift, 0.0, 1.0)
        return np.stack([first, 1 - first], axis=1)


def test_genetic_run_reaches_insertion_and_deletion_errors_with_valid_offspring():
    np.random.seed(0)
    attack = Attack(
        UntargetedClassification(LengthClassifier()),
        [RepeatModification()],
        GrammarErrorCombined(error_types=("ArtOrDet", "Prep", "Nn")),
        GrammarErrorGeneticAlgorithm(pop_size=8, seed=0),
    )
    search = attack.search_method
    children = []
    crossover = search._crossover_operation

    def recording_crossover(member1, member2):
        child, attributes = crossover(member1, member2)
        children.append(child)
        return child, attributes

    search._crossover_operation = recording_crossover
    initial, _ = attack.goal_function.init_attack_example(AttackedText(QUESTION), 0)
    result = search(initial)
    perturbed = result.attacked_text
    assert result.goal_status == GoalFunctionResultStatus.SUCCEEDED
    assert abs(perturbed.num_words - 9) >= 2
    edits = original_edits(perturbed)
    assert any(edit.changes_length for edit in edits)
    assert _apply(AttackedText(QUESTION), edits) == perturbed.text
    assert any(child.num_words != 9 for child in children)  # offspring of different lengths
    for child in children:
        child_edits = child.attack_attrs[GRAMMAR_ERRORS_ATTR]
        assert child.text == _apply(AttackedText(QUESTION), child_edits) == " ".join(child.words)
        used = [index for edit in child_edits for index in edit.indices]
        assert len(used) == len(set(used))


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
