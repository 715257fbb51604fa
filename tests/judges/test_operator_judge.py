"""The offline default judge on the failure classes people found in perturbed GeoQuery questions
(each pair below is one of the real examples of the judged sample, or one of its kind) and on
the harmless edits it must let through."""

from __future__ import annotations

import pytest

from textattack_semparse.judges.judgement import Verdict
from textattack_semparse.judges.operator_judge import OperatorJudge, _edit_distance, _is_typo

GOLD = "SELECT state_name FROM state WHERE population = (SELECT MAX(population) FROM state)"


@pytest.fixture(scope="module")
def judge() -> OperatorJudge:
    return OperatorJudge()


@pytest.mark.parametrize(
    ("original", "rewrite", "reason"),
    [
        # random deletion
        ("where is portland", "portland", "dropped 'where' (question word)"),
        ("which is the highest peak not in alaska", "which the highest peak in alaska", "dropped 'not' (negation)"),
        # WordNet substitution outside the word's sense
        ("what is the population of texas", "what is the universe of texas", "not 'population' in its sense here"),
        ("which is the smallest state", "which is the lowest state", "replaced 'smallest' (comparison)"),
        ("what are the highest mountains in the usa", "what are the highest sights in the usa", "not 'mountains'"),
        # function-word substitution
        ("how many people live in utah", "how mightn't people live in utah", "replaced 'many' (question word)"),
        ("name a state that borders indiana", "name a state formerly borders indiana", "replaced 'that' (relative word)"),
        ("what rivers are in texas", "what rivers are near texas", "replaced 'in' (preposition)"),
        # deletion
        ("where is dallas", "is dallas", "dropped 'where' (question word)"),
        ("the state with the most inhabitants", "the state with the inhabitants", "dropped 'most' (quantifier)"),
        ("iowa borders how many states", "iowa borders many states", "dropped 'how' (question word)"),
        ("what is the capital of texas", "what is the of texas", "dropped 'capital' (a content word)"),
        # insertion
        ("what is the smallest state", "what is the six smallest state", "added 'six' (number"),
        ("what is the largest city", "what is the largest coastal city", "added 'coastal' (a content word"),
        # reordering that moves a phrase to another head
        ("what rivers are in states that border texas", "what rivers are that border texas in states", "moved"),
    ],
)
def test_meaning_changing_rewrites_are_different(judge, original, rewrite, reason):
    judgement = judge(original, rewrite)
    assert judgement.verdict is Verdict.DIFFERENT and reason in judgement.reason, judgement


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("what is the capital of texas", "what is capital of texas"),  # article dropped
        ("how many rivers are in texas", "how many rivers are there in texas"),  # existential there
        ("what rivers are in texas", "what rivers in texas"),  # be dropped
        ("what is the capital of texas", "what is a capital of texas"),  # article for article
        ("what is the capital of texas", "what is the capitel of texas"),  # typo
        ("what is the capital of texas", "what is the capital of tex as"),  # a word split in two
        ("how many people live in utah", "how many people are living in utah"),  # inflection
        ("what is the capital of texas", "what is the capital of texas who is who; what is what"),  # distraction
        ("what is the capital of texas", "what capital is the of texas"),  # only free words moved
    ],
)
def test_harmless_rewrites_are_the_same(judge, original, rewrite):
    assert judge(original, rewrite).verdict is Verdict.SAME


def test_the_gold_protects_its_predicates_and_values(judge):
    """Without the gold "state" -> "country" fails on WordNet's first sense; with it, the gold names it."""
    with_gold = judge("what state has the largest population", "what country has the largest population", GOLD)
    assert with_gold.reason == "replaced 'state' (the gold's predicate) by 'country'"
    values = judge("what is the capital of new york", "what is the capital of new jersey",
                   "SELECT capital FROM state WHERE state_name = 'new york'")  # fmt: skip
    assert values.verdict is Verdict.DIFFERENT and "database value" in values.reason


def test_a_synonym_in_the_words_sense_is_the_same(judge):
    assert judge("what is the largest city in texas", "what is the largest metropolis in texas").verdict is Verdict.SAME


def test_a_paraphrase_that_keeps_every_protected_word_is_unsure(judge):
    judgement = judge("how many people live in the state of utah", "how many persons reside within utah state")
    assert judgement.verdict in (Verdict.UNSURE, Verdict.DIFFERENT)
    assert not judgement.keeps_meaning


@pytest.mark.parametrize(("old", "new", "typo"), [("texas", "texsa", True), ("most", "mist", False), ("capital", "capitol", False), ("rivers", "rivres", True)])
def test_a_typo_is_a_near_non_word(old, new, typo):
    assert _is_typo(old, new) is typo


def test_edit_distance_counts_an_adjacent_swap_once():
    assert (_edit_distance("texas", "tekas"), _edit_distance("texas", "etxas"), _edit_distance("abc", "")) == (1, 1, 3)
