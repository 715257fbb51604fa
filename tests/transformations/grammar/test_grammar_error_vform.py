"""Vform: one verb group moves to another of present, past, progressive, perfect."""

from __future__ import annotations

import pytest
from textattack.shared import AttackedText

from textattack_semparse.linguistics.inflection import lemmatize, verb_group_form
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR
from textattack_semparse.transformations.grammar.grammar_error_vform import GrammarErrorVform

SENTENCES = [
    "how many rivers run through states that border california",
    "She has walked to school quickly and he is running.",
    "Rivers flow into the sea because gravity pulls water down.",
    "I have always been careful, but he quickly went into the house during the storm.",
]


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorVform:
    return GrammarErrorVform()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_changes_only_the_form_of_one_verb_group(transformation, sentence: str) -> None:
    text = AttackedText(sentence)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        (edit,) = output.attack_attrs[GRAMMAR_ERRORS_ATTR]
        first, last = edit.indices[0], edit.indices[-1]
        assert list(edit.indices) == list(range(first, last + 1))
        old, new = text.words[first : last + 1], " ".join(edit.replacement).split()
        assert output.words == text.words[:first] + new + text.words[last + 1 :]
        assert None not in (verb_group_form(old), verb_group_form(new))
        assert verb_group_form(old) != verb_group_form(new)
        assert lemmatize(old[-1], "VERB") == lemmatize(new[-1], "VERB")


def test_all_three_other_forms_of_each_group(transformation, texts) -> None:
    assert texts(transformation(AttackedText(SENTENCES[1]))) == {
        "She walks to school quickly and he is running.",
        "She walked to school quickly and he is running.",
        "She is walking to school quickly and he is running.",
        "She has walked to school quickly and he runs.",
        "She has walked to school quickly and he ran.",
        "She has walked to school quickly and he has run.",
    }


def test_new_group_agrees_with_a_plural_subject(transformation, texts) -> None:
    outputs = texts(transformation(AttackedText(SENTENCES[0])))
    assert "how many rivers are running through states that border california" in outputs
    assert "how many rivers have run through states that border california" in outputs


def test_modal_and_passive_groups_are_left_alone(transformation) -> None:
    assert transformation(AttackedText("The cat can jump, and the results were presented.")) == []
