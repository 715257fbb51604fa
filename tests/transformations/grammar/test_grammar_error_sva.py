"""SVA: only the agreement of one present-tense verb changes."""

from __future__ import annotations

import pytest
from textattack.shared import AttackedText

from textattack_semparse.linguistics.inflection import lemmatize, verb_agreement
from textattack_semparse.linguistics.spacy_pipeline import parse_attacked_text
from textattack_semparse.transformations.grammar.grammar_error_sva import GrammarErrorSVA

SENTENCES = [
    "what is the capital of texas",
    "how many rivers run through states that border california",
    "She has walked to school quickly and he is running.",
    "Rivers flow into the sea because gravity pulls water down.",
    "what rivers does the mississippi cross",
]


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorSVA:
    return GrammarErrorSVA()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_changes_only_agreement_of_a_present_tense_verb(transformation, sentence: str) -> None:
    text = AttackedText(sentence)
    doc = parse_attacked_text(text)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        assert len(output.words) == len(text.words)
        (i,) = [i for i, (a, b) in enumerate(zip(text.words, output.words)) if a != b]
        assert doc[i].tag_ in ("VBZ", "VBP")
        old, new = text.words[i], output.words[i]
        assert {verb_agreement(old), verb_agreement(new)} == {"3sg", "non-3sg"}
        assert lemmatize(old, "VERB") == lemmatize(new, "VERB")


def test_auxiliaries_agree_too(transformation, texts) -> None:
    assert texts(transformation(AttackedText(SENTENCES[2]))) == {
        "She have walked to school quickly and he is running.",
        "She has walked to school quickly and he are running.",
    }


def test_geoquery_copula(transformation, texts) -> None:
    assert texts(transformation(AttackedText(SENTENCES[0]))) == {"what are the capital of texas"}


def test_past_tense_and_modals_are_left_alone(transformation) -> None:
    assert transformation(AttackedText("He quickly went into the house, and she could not stay.")) == []
