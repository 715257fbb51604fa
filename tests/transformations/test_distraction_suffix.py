"""DistractionSuffix on GeoQuery-style questions."""

from __future__ import annotations

import inspect
from collections import OrderedDict

import numpy as np
import pytest
from textattack.constraints.pre_transformation import InputColumnModification, RepeatModification
from textattack.shared import AttackedText

from textattack_semparse.transformations.distraction_suffix import DEFAULT_STATEMENTS, DistractionSuffix


def appended(original: AttackedText, candidate: AttackedText) -> str:
    """The statement appended to ``original`` (fails if anything else changed)."""
    n = len(original.words)
    assert candidate.words[:n] == original.words
    return " ".join(candidate.words[n:])


def test_only_appends() -> None:
    text = AttackedText("name the rivers in texas")
    candidates = DistractionSuffix()(text)
    assert [appended(text, c) for c in candidates] == list(DEFAULT_STATEMENTS)


def test_prefers_the_question_wh_word() -> None:
    text = AttackedText("which rivers run through the state of texas")
    assert [appended(text, c) for c in DistractionSuffix()(text)] == ["which is which"]


def test_prefers_every_wh_word_present() -> None:
    text = AttackedText("what is the capital of the state where the mississippi starts")
    assert [appended(text, c) for c in DistractionSuffix()(text)] == ["what is what", "where is where"]


def test_prefer_matching_false_uses_all_statements() -> None:
    text = AttackedText("what is the population of new york")
    assert len(DistractionSuffix(prefer_matching=False)(text)) == len(DEFAULT_STATEMENTS)


def test_capitalised_wh_word_matches() -> None:
    text = AttackedText("Where is Austin?")
    assert [c.text for c in DistractionSuffix()(text)] == ["Where is Austin where is where?"]


def test_appends_at_most_one_statement() -> None:
    text = AttackedText("what is the population of new york")
    (once,) = DistractionSuffix()(text)
    assert DistractionSuffix(prefer_matching=False)(once) == []


def test_repeat_modification_marks_the_appended_words() -> None:
    text = AttackedText("what is the population of new york")
    (once,) = DistractionSuffix()(text)
    assert once.attack_attrs["newly_modified_indices"] == {6, 7, 8, 9}
    np.testing.assert_array_equal(once.attack_attrs["original_index_map"], np.arange(7))
    assert RepeatModification()(once, DistractionSuffix()) == set(range(6))


def test_needs_some_modifiable_question_word() -> None:
    text = AttackedText("what is the population of texas")
    suffix = DistractionSuffix()
    assert suffix(text, indices_to_modify=set()) == []
    assert len(suffix(text, indices_to_modify={0})) == 1


def test_protected_last_word_does_not_block() -> None:
    text = AttackedText("which rivers run through texas")
    assert len(DistractionSuffix()(text, indices_to_modify={0, 1, 2, 3})) == 1


def test_multi_column_input_appends_to_the_question() -> None:
    text = AttackedText(OrderedDict(question="how many singers are there", db_id="concert_singer"))
    frozen = InputColumnModification(["question", "db_id"], {"db_id"})
    candidates = DistractionSuffix()(text, pre_transformation_constraints=[frozen])
    assert {c._text_input["db_id"] for c in candidates} == {"concert_singer"}
    assert candidates[0]._text_input["question"] == "how many singers are there who is who"


def test_custom_statements() -> None:
    suffix = DistractionSuffix(statements=["how  is how", "who is who"])
    assert suffix.statements == ("how is how", "who is who")
    assert [c.text for c in suffix(AttackedText("how big is texas"))] == ["how big is texas how is how"]


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
