"""The gold's predicates a question names in another form: derived words and split identifiers
(Spider rewrites three of three blind annotators rejected, docs/judges.md, 29 November 2026)."""

from __future__ import annotations

import pytest

from textattack_semparse.linguistics.operator_words import SHARED_STEM, names_predicate, question_protection

CARTOON = "SELECT title, directed_by FROM cartoon ORDER BY original_air_date"
PETS = "SELECT avg(weight), pettype FROM pets GROUP BY pettype"


def test_a_derived_form_of_a_column_is_its_predicate():
    words = "list all cartoon titles and their directors ordered by their air date".split()
    protected = question_protection(words, gold=CARTOON)
    assert protected[words.index("directors")] == "the gold's predicate"
    assert words.index("directors") not in question_protection(words)  # without the gold, a free word


def test_two_words_spelling_one_identifier_are_both_its_predicate():
    words = "find the average weight for each pet type".split()
    protected = question_protection(words, gold=PETS)
    assert protected[words.index("pet")] == protected[words.index("type")] == "the gold's predicate"


@pytest.mark.parametrize(
    ("word", "predicate", "names"),
    [
        ("directors", "directed", True),  # "direct": 6 letters alike, 6 of the shorter 8
        ("engineering", "engineer", True),  # 8 of 8
        ("states", "statement", False),  # "state": 5 letters
        ("publications", "published", False),  # "publi": 5 letters
        ("departure", "department", False),  # "depart": 6 letters, but 6 of the shorter 9 is under 3/4
    ],
)  # fmt: skip
def test_the_shared_beginning_rule(word, predicate, names):
    shared = 0
    while shared < min(len(word), len(predicate)) and word[shared] == predicate[shared]:
        shared += 1
    # the rule: at least SHARED_STEM letters alike, and three quarters of the shorter word
    assert (shared >= SHARED_STEM and 4 * shared >= 3 * min(len(word), len(predicate))) is names
    assert names_predicate(word, word, frozenset({predicate})) is names
