"""Per-word requests get the grammatical errors anchored at that word, multi-word ones included."""

from __future__ import annotations

import pytest
from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.goal_functions import UntargetedClassification
from textattack.models.wrappers import ModelWrapper
from textattack.shared import AttackedText
from textattack.transformations import WordSwapRandomCharacterDeletion

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.search_methods.grammar_edit_positions import GrammarEditPositions
from textattack_semparse.search_methods.grammar_error_greedy_search import GrammarErrorGreedySearch
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

QUESTION = "what is the most populous state in the us"  # "most" (RBS) is word 3, "populous" (ADJ) word 4


class ConstantClassifier(ModelWrapper):
    """Two-label classifier with a fixed output: the search's candidates are what is tested here."""

    model = None

    def __call__(self, text_inputs):
        import numpy as np

        return np.tile([0.9, 0.1], (len(text_inputs), 1))


def _search(*constraints) -> GrammarErrorGreedySearch:
    attack = Attack(
        UntargetedClassification(ConstantClassifier()),
        list(constraints) or [RepeatModification()],
        GrammarErrorCombined(),
        GrammarErrorGreedySearch(),
    )
    return attack.search_method


def _errors(candidates) -> list[tuple[str, tuple[int, ...]]]:
    return [(c.attack_attrs[GRAMMAR_ERRORS_ATTR][-1].error_type, c.attack_attrs[GRAMMAR_ERRORS_ATTR][-1].indices) for c in candidates]


def test_word_order_swap_is_offered_at_its_adverb():
    text = AttackedText(QUESTION)
    at_adverb = _search().get_transformations(text, original_text=text, indices_to_modify=[3])
    assert [c.text for c in at_adverb] == ["what is the populous most state in the us"]
    assert _errors(at_adverb) == [("Worder", (3, 4))]
    assert _search().get_transformations(text, original_text=text, indices_to_modify=[4]) == []


def test_plain_per_word_request_would_never_see_the_swap():
    text = AttackedText(QUESTION)
    assert all(e.error_type != "Worder" for c in GrammarErrorCombined()(text, indices_to_modify=[3])
               for e in c.attack_attrs[GRAMMAR_ERRORS_ATTR])


def test_insertion_is_offered_at_the_word_it_precedes():
    text = AttackedText("which rivers flow through states")
    at_states = _search().get_transformations(text, original_text=text, indices_to_modify=[4])
    inserted = [c.text for c, (kind, _) in zip(at_states, _errors(at_states)) if kind == "ArtOrDet"]
    assert "which rivers flow through the states" in inserted
    assert all(indices == (4,) for _, indices in _errors(at_states))


def test_protected_neighbour_blocks_the_swap():
    text = AttackedText(QUESTION)
    search = _search(RepeatModification(), PreserveLiterals(literals=("populous",)))
    assert search.get_transformations(text, original_text=text, indices_to_modify=[3]) == []


def test_request_without_indices_returns_every_candidate():
    text = AttackedText(QUESTION)
    search = _search()
    everything = search.get_transformations(text, original_text=text)
    per_word = [c for i in range(text.num_words) for c in search.get_transformations(text, original_text=text, indices_to_modify=[i])]
    assert sorted(c.text for c in everything) == sorted(c.text for c in per_word)


def test_other_transformations_are_refused():
    with pytest.raises(ValueError, match="incompatible"):
        Attack(UntargetedClassification(ConstantClassifier()), [], WordSwapRandomCharacterDeletion(), GrammarErrorGreedySearch())


def test_without_an_attack_there_is_no_get_transformations():
    assert not hasattr(GrammarErrorGreedySearch(), "get_transformations")
    assert isinstance(GrammarErrorGreedySearch(), GrammarEditPositions)
