"""Trans: only link words of the paper's set are inserted, deleted or exchanged."""

from __future__ import annotations

import pytest
from textattack.shared import AttackedText

from textattack_semparse.transformations.grammar.error_model import ErrorModel
from textattack_semparse.transformations.grammar.grammar_error_trans import GrammarErrorTrans

LINK_WORDS = set(ErrorModel.default().sets["Trans"]) - {"∅"}
SENTENCES = [
    "which states border the state with the largest population",
    "Rivers flow into the sea because gravity pulls water down.",
    "I have always been careful, but he quickly went into the house during the storm.",
    "name the rivers which flow through the state where the capital is austin",
]


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorTrans:
    return GrammarErrorTrans()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_draws_only_from_the_link_word_set(transformation, changes, sentence: str) -> None:
    text = AttackedText(sentence)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        (removed, inserted), = changes(text, output)
        assert len(removed) <= 1 and len(inserted) <= 1
        assert set(removed + inserted) <= LINK_WORDS


def test_worst_case_count_on_known_sentence(transformation) -> None:
    # "because": 16 other link words + deletion; 17 insertions at the sentence start
    assert len(transformation(AttackedText(SENTENCES[1]))) == 17 + 17


def test_question_word_is_not_a_link_word(transformation, texts) -> None:
    outputs = transformation(AttackedText(SENTENCES[0]))
    assert len(outputs) == 17  # only insertions at the start
    assert all(output.words[1:] == SENTENCES[0].split() for output in outputs)


def test_relative_pronouns_are_link_words(transformation, changes) -> None:
    text = AttackedText(SENTENCES[3])
    removed = {tuple(change[0]) for output in transformation(text) for change in changes(text, output)}
    assert ("which",) in removed and ("where",) in removed


def test_insertion_at_sentence_start_is_capitalised(transformation, texts) -> None:
    assert "However rivers flow into the sea because gravity pulls water down." in texts(
        transformation(AttackedText(SENTENCES[1]))
    )
