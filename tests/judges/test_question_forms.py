"""The one form of a question the default judge compares: repeated words, requests, superlatives."""

from __future__ import annotations

import pytest

from textattack_semparse.judges.question_forms import (
    attributive_superlative,
    normal_form,
    postposed_superlative,
    read_once,
    superlative_may_move,
)
from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE


@pytest.mark.parametrize(
    ("words", "once"),
    [("which states border border texas", "which states border texas"), ("the the capital", "the capital")],
)
def test_a_word_repeated_next_to_itself_is_read_once(words: str, once: str) -> None:
    assert read_once(words.split()) == once.split()


@pytest.mark.parametrize(
    ("question", "form", "note"),
    [
        ("could you tell me which rivers flow through texas", "which rivers flow through texas", "request"),
        ("me what rivers flow through colorado", "what rivers flow through colorado", "request"),
        ("which state in the usa is the largest", "which is the largest state in the usa", "superlative"),
        ("what mountain in alaska is the highest", "what is the highest mountain in alaska", "superlative"),
        ("which state has the area largest", "which state has the largest area", "superlative"),
    ],
)
def test_the_normal_form_of_a_question(question: str, form: str, note: str) -> None:
    words, notes = normal_form(question.split(), pipeline=DEFAULT_PIPELINE)
    assert words == form.split() and any(note in text for text in notes)


@pytest.mark.parametrize(
    "question",
    [
        "in texas which rivers are there",  # a phrase before the question word is no request
        "what is the population of the state that is the largest",  # no noun right after the question word
        "which states border the largest",  # no form of be before the superlative
        "what is the longest river",
    ],
)
def test_a_question_in_its_normal_form_stays_as_it_is(question: str) -> None:
    assert normal_form(question.split(), pipeline=DEFAULT_PIPELINE) == (question.split(), ())


def _geo_mini_questions_and_rewrites() -> list[list[str]]:
    from textattack.shared import AttackedText

    from textattack_semparse.recipes.attack.recipe_ingredients import perturbation
    from textattack_semparse.robustness.build_test_set import dataset_examples

    transformations = [perturbation(name) for name in ("insertion", "deletion", "substitution-f")]
    texts = [AttackedText(example.question) for example in dataset_examples("geo-mini-question-train")]
    rewrites = [rewrite for text in texts for transformation in transformations for rewrite in transformation(text)]
    return [[word.lower() for word in text.words] for text in texts + rewrites]


def test_words_that_let_no_superlative_move_keep_their_order_whatever_their_tags() -> None:
    """:func:`superlative_may_move` lets the judge skip tagging: when it says no, neither
    superlative rule changes the words under any tagging that could make one apply."""
    questions = _geo_mini_questions_and_rewrites()
    unmovable = [words for words in questions if not superlative_may_move(words)]
    assert 300 < len(unmovable) < len(questions)
    for words in unmovable:
        last = len(words) - 1
        for stop in range(len(words)):
            for final in ("JJS", "RBS", "JJ"):
                tags = ["NN"] * len(words)
                tags[stop], tags[last] = "DT", final
                assert attributive_superlative(words, tags) == words, (words, tags)
                assert postposed_superlative(words, tags) == words, (words, tags)


@pytest.mark.parametrize(
    "question",
    ["which state in the usa is the largest", "what mountain in alaska is the highest",
     "which state has the area largest", "which state is the most populous", "which river is longest"],
)  # fmt: skip
def test_words_that_let_a_superlative_move_are_told(question: str) -> None:
    assert superlative_may_move(question.split())
