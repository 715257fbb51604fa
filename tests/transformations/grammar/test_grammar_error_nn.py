"""Nn: only the number of one common noun changes."""

from __future__ import annotations

import pytest
from textattack.shared import AttackedText

from textattack_semparse.linguistics.inflection import lemmatize, noun_number
from textattack_semparse.transformations.grammar.grammar_error_nn import GrammarErrorNn

SENTENCES = [
    "what is the capital of texas",
    "how many rivers run through states that border california",
    "Rivers flow into the sea because gravity pulls water down.",
    "The results are clearly presented, and the cat can easily jump over fences.",
]


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorNn:
    return GrammarErrorNn()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_changes_only_the_number_of_a_noun(transformation, changes, sentence: str) -> None:
    text = AttackedText(sentence)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        ([old], [new]), = changes(text, output)
        assert lemmatize(old, "NOUN") == lemmatize(new, "NOUN")
        assert {noun_number(old), noun_number(new)} == {"singular", "plural"}


def test_every_common_noun_is_a_position(transformation, texts) -> None:
    outputs = texts(transformation(AttackedText(SENTENCES[2])))
    assert outputs == {
        "River flow into the sea because gravity pulls water down.",
        "Rivers flow into the seas because gravity pulls water down.",
        "Rivers flow into the sea because gravities pulls water down.",
        "Rivers flow into the sea because gravity pulls waters down.",
    }


def test_proper_noun_keeps_its_number(transformation, texts) -> None:
    assert texts(transformation(AttackedText(SENTENCES[0]))) == {"what is the capitals of texas"}
