"""may_be_noun on the packaged tagger's readings of real GeoQuery, ATIS and Spider questions."""

from __future__ import annotations

import pytest

from textattack_semparse.linguistics.misread_nouns import may_be_noun
from textattack_semparse.linguistics.spacy_pipeline import word_annotations


def _may_be_noun(question: str, word: str) -> bool:
    words = tuple(question.split())
    return may_be_noun(words, word_annotations(words).tags, words.index(word))


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("which states border the missouri river", "states"),
        ("what states border new jersey", "states"),
        ("how many states border texas", "states"),
        ("what stops does dl 838 make from san francisco to atlanta", "stops"),
        ("which flights depart los angeles destination charlotte", "flights"),
    ],
)  # fmt: skip
def test_the_verb_tag_after_an_opening_determiner_may_be_the_noun(question: str, word: str) -> None:
    tags = word_annotations(tuple(question.split())).tags
    assert tags[question.split().index(word)].startswith("VB")  # the tagger's reading this guards against
    assert _may_be_noun(question, word)


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("name the states which border texas", "border"),  # a relative pronoun after a noun
        ("show me the flights on dl or tw which go through atlanta", "go"),  # after "tw", which the tagger reads as IN
        ("what is the capital of texas", "is"),  # a function word
        ("what rivers flow through texas", "flow"),  # not right after the determiner
        ("what states border texas", "texas"),  # not tagged as a verb
    ],
)  # fmt: skip
def test_verbs_elsewhere_are_verbs(question: str, word: str) -> None:
    assert not _may_be_noun(question, word)
