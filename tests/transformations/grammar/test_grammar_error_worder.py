"""Worder: only an adverb and a neighbouring adjective, participle or modal are swapped."""

from __future__ import annotations

import pytest
from textattack.shared import AttackedText

from textattack_semparse.linguistics.spacy_pipeline import parse_attacked_text
from textattack_semparse.transformations.grammar.grammar_error_worder import GrammarErrorWorder

SENTENCES = [
    "The results are clearly presented, and the cat can easily jump over fences.",
    "I have always been careful, but he quickly went into the house during the storm.",
    "what is the most densely populated state",
]


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorWorder:
    return GrammarErrorWorder()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_swaps_an_adverb_with_an_adjacent_adjective_participle_or_modal(transformation, sentence: str) -> None:
    text = AttackedText(sentence)
    doc = parse_attacked_text(text)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        changed = [i for i, (a, b) in enumerate(zip(text.words, output.words)) if a != b]
        assert len(output.words) == len(text.words) and len(changed) == 2
        first, second = changed
        assert second == first + 1
        assert (output.words[first], output.words[second]) == (text.words[second], text.words[first])
        tags = {doc[first].tag_, doc[second].tag_}
        assert tags & {"RB", "RBR", "RBS"}
        assert any(doc[i].pos_ == "ADJ" or doc[i].tag_ in ("VBN", "VBG", "MD") for i in changed)


def test_worst_case_count_on_known_sentence(transformation, texts) -> None:
    assert texts(transformation(AttackedText(SENTENCES[0]))) == {
        "The results are presented clearly, and the cat can easily jump over fences.",
        "The results are clearly presented, and the cat easily can jump over fences.",
    }


def test_adverb_next_to_a_finite_verb_stays(transformation) -> None:
    assert transformation(AttackedText("He quickly went into the house.")) == []
