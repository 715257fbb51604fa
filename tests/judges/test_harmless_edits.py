"""The edits the default judge lets through, each at its limits, on real questions."""

from __future__ import annotations

import pytest

from textattack_semparse.judges.harmless_edits import (
    adjacent_slips,
    appended_statement,
    class_noun_apposition,
    moved_phrase,
)

QUESTION = "how many people live in chicago".split()
MENTIONED = {"people", "live", "chicago", "many"}


@pytest.mark.parametrize(
    "suffix",
    ["one plus one is two", "and false is not true", "who is who what is what", "the grass is green and water is wet"],
)
def test_an_appended_statement_about_nothing_asked_is_harmless(suffix: str) -> None:
    assert appended_statement(QUESTION, QUESTION + suffix.split(), MENTIONED) is not None


@pytest.mark.parametrize(
    "suffix",
    [
        "it is big",  # refers back to the question
        "that is in illinois",  # a relative clause
        "the people is few",  # names what the question asks about (and quantifies)
        "the population is 1000",  # a number
        "and are over 30",  # no subject of its own
        "who is the mayor",  # a question of its own
        "in the north",  # no statement
    ],
)
def test_an_appended_clause_that_may_restrict_is_not_a_statement(suffix: str) -> None:
    assert appended_statement(QUESTION, QUESTION + suffix.split(), MENTIONED) is None


@pytest.mark.parametrize(
    ("question", "start", "end", "name"),
    [
        ("what is the population of the city of boston", 5, 8, "boston"),
        ("how many people live in new york city", 7, 8, "new york"),
        ("what is the length of the colorado river", 7, 8, "colorado"),
    ],
)
def test_a_class_noun_next_to_its_instance_is_harmless(question: str, start: int, end: int, name: str) -> None:
    reason = class_noun_apposition(question.split(), start, end)
    assert reason is not None and reason.endswith(f"names the class of {name!r}")


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("what is the population of boston", 2, 5),  # population is no class of Boston
        ("what is the area of boston", 2, 5),  # Boston is an area only far up WordNet's hierarchy
        ("what is the capital of the state of texas", 2, 5),  # two nouns
    ],
)
def test_a_noun_that_is_no_class_of_the_name_is_not_harmless(question: str, start: int, end: int) -> None:
    assert class_noun_apposition(question.split(), start, end) is None


def test_a_phrase_whose_noun_a_relative_clause_continues_is_not_complete() -> None:
    original = "what rivers are in states that border texas".split()
    rewrite = "what rivers are that border texas in states".split()
    tags = ["WP", "NNS", "VBP", "IN", "NNS", "WDT", "VBP", "NNP"]
    assert moved_phrase(original, rewrite, tags) is None


def test_swapped_neighbours_must_include_a_function_word() -> None:
    assert adjacent_slips("how many rivers are in texas".split(), "how many rivers are texas in".split()) is not None
    assert adjacent_slips("which rivers cross texas".split(), "which cross rivers texas".split()) is None
