"""ArtOrDet: only articles are inserted, deleted or exchanged."""

from __future__ import annotations

import pytest
from textattack.shared import AttackedText

from textattack_semparse.transformations.grammar.grammar_error_art_or_det import GrammarErrorArtOrDet

SENTENCES = [
    "what is the capital of texas",
    "which states border the state with the largest population",
    "how many rivers run through states that border california",
    "She has walked to school quickly and he is running.",
    "The results are clearly presented, and the cat can easily jump over fences.",
]


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorArtOrDet:
    return GrammarErrorArtOrDet()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_changes_only_articles(transformation, changes, sentence: str) -> None:
    text = AttackedText(sentence)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        (removed, inserted), = changes(text, output)
        assert len(removed + inserted) >= 1 and set(removed + inserted) <= {"a", "an", "the"}


def test_worst_case_count_on_known_sentence(transformation) -> None:
    # two articles x {other two, deletion} + {a, an, the} before the bare noun "fences"
    outputs = transformation(AttackedText(SENTENCES[4]))
    assert len(outputs) == 2 * 3 + 3


def test_article_inserted_before_bare_noun_phrase(transformation, texts) -> None:
    outputs = texts(transformation(AttackedText(SENTENCES[3])))
    assert "She has walked to the school quickly and he is running." in outputs
    assert len(outputs) == 3


def test_no_article_before_wh_word_or_determiner(transformation, texts) -> None:
    outputs = texts(transformation(AttackedText(SENTENCES[2])))
    assert outputs == {
        f"how many rivers run through {article} states that border california" for article in ("a", "an", "the")
    }


def test_capitalised_insertion_at_sentence_start(transformation, texts) -> None:
    outputs = texts(transformation(AttackedText("Rivers flow into the sea.")))
    assert "The rivers flow into the sea." in outputs


def test_deletion_of_an_article(transformation, texts) -> None:
    assert "what is capital of texas" in texts(transformation(AttackedText(SENTENCES[0])))
