"""Prep: only prepositions of the paper's set are inserted, deleted or exchanged."""

from __future__ import annotations

import pytest
from textattack.shared import AttackedText

from textattack_semparse.transformations.grammar.error_model import ErrorModel
from textattack_semparse.transformations.grammar.grammar_error_prep import GrammarErrorPrep

PREPOSITIONS = set(ErrorModel.default().sets["Prep"]) - {"∅"}
SENTENCES = [
    "what is the capital of texas",
    "which states border the state with the largest population",
    "I have always been careful, but he quickly went into the house during the storm.",
    "Rivers flow into the sea because gravity pulls water down.",
]


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorPrep:
    return GrammarErrorPrep()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_draws_only_from_the_preposition_set(transformation, changes, sentence: str) -> None:
    text = AttackedText(sentence)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        (removed, inserted), = changes(text, output)
        assert len(removed) <= 1 and len(inserted) <= 1
        assert set(removed + inserted) <= PREPOSITIONS


def test_worst_case_count_is_the_set_minus_identity(transformation) -> None:
    # "of": 28 other prepositions + deletion
    assert len(transformation(AttackedText(SENTENCES[0]))) == 29


def test_insertion_before_direct_object(transformation, texts) -> None:
    outputs = texts(transformation(AttackedText(SENTENCES[1])))
    assert "which states border on the state with the largest population" in outputs
    assert len(outputs) == 29 + 29  # "with" exchanged or deleted; 29 insertions before "the state"


def test_conjunction_but_is_not_a_preposition(transformation, changes) -> None:
    text = AttackedText(SENTENCES[2])
    outputs = transformation(text)
    assert len(outputs) == 29 + 29  # "into" and "during"
    assert all("but" in output.words for output in outputs)
