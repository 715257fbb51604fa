"""The one form of a question the default judge compares: repeated words, requests, superlatives."""

from __future__ import annotations

import pytest

from textattack_semparse.judges.question_forms import normal_form, read_once
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
