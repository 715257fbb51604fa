"""DistractionSuffix (Zhuo et al. 2023, DB) on GeoQuery-style questions.

Paper rule (Zhuo et al. 2023, https://arxiv.org/abs/2301.12868, DB, Table 8 as quoted in
issue 8): the question is followed by the five distraction statements "who is who; what is
what; when is when; which is which; where is where".
"""

from __future__ import annotations

import inspect
from collections import OrderedDict

import numpy as np
import pytest
from textattack.constraints.pre_transformation import InputColumnModification, RepeatModification
from textattack.shared import AttackedText

from textattack_semparse.transformations.distraction_suffix import DEFAULT_STATEMENTS, DistractionSuffix

# The rule's five statements, written out here rather than read from the module.
PAPER_STATEMENTS = ["who is who", "what is what", "when is when", "which is which", "where is where"]
PAPER_SUFFIX = "; ".join(PAPER_STATEMENTS)


def test_default_statements_are_the_papers_five() -> None:
    assert list(DEFAULT_STATEMENTS) == PAPER_STATEMENTS


@pytest.mark.parametrize(
    "question",
    [
        "what is the capital of texas",
        "how many rivers are in texas ?",
        "which states border the state with the largest population ?",
        "What is the highest point in Colorado?",
    ],
)
def test_appends_all_five_statements_after_the_question(question: str) -> None:
    (candidate,) = DistractionSuffix()(AttackedText(question))
    assert candidate.text == question + " " + PAPER_SUFFIX


def test_question_words_are_unchanged_and_suffix_words_modified() -> None:
    text = AttackedText("what is the population of new york")
    (once,) = DistractionSuffix()(text)
    suffix_words = PAPER_SUFFIX.replace(";", "").split()
    assert once.words == text.words + suffix_words
    assert once.attack_attrs["newly_modified_indices"] == set(range(7, 7 + len(suffix_words)))
    np.testing.assert_array_equal(once.attack_attrs["original_index_map"], np.arange(7))
    assert RepeatModification()(once, DistractionSuffix()) == set(range(7))


def test_appends_the_suffix_once() -> None:
    (once,) = DistractionSuffix()(AttackedText("what is the population of new york"))
    assert DistractionSuffix()(once) == []


def test_needs_some_modifiable_question_word() -> None:
    text = AttackedText("what is the population of texas")
    suffix = DistractionSuffix()
    assert suffix(text, indices_to_modify=set()) == []
    assert len(suffix(text, indices_to_modify={0})) == 1


def test_protected_last_word_does_not_block() -> None:
    text = AttackedText("which rivers run through texas")
    assert len(DistractionSuffix()(text, indices_to_modify={0, 1, 2, 3})) == 1


def test_multi_column_input_appends_to_the_question() -> None:
    text = AttackedText(OrderedDict(question="how many singers are there?", db_id="concert_singer"))
    frozen = InputColumnModification(["question", "db_id"], {"db_id"})
    (candidate,) = DistractionSuffix()(text, pre_transformation_constraints=[frozen])
    assert candidate._text_input == OrderedDict(
        question="how many singers are there? " + PAPER_SUFFIX, db_id="concert_singer"
    )


def test_custom_statements() -> None:
    suffix = DistractionSuffix(statements=["how  is how", "who is who"])
    assert suffix.statements == ("how is how", "who is who")
    assert [c.text for c in suffix(AttackedText("how big is texas"))] == ["how big is texas how is how; who is who"]


@pytest.mark.parametrize("bad", [[], ["  "], ["?!"]])
def test_bad_statements_rejected(bad: list[str]) -> None:
    with pytest.raises(ValueError, match="statements"):
        DistractionSuffix(statements=bad)


def test_string_statements_rejected() -> None:
    with pytest.raises(TypeError, match="statements"):
        DistractionSuffix(statements="who is who")


def test_is_deterministic() -> None:
    assert DistractionSuffix().deterministic


def test_repr_lists_every_init_parameter() -> None:
    text = repr(DistractionSuffix())
    for name in inspect.signature(DistractionSuffix.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
