"""SyntacticReordering over the packaged spaCy parse, on GeoQuery questions."""

from __future__ import annotations

import inspect
from collections import Counter, OrderedDict
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.syntactic_reordering import SyntacticReordering


@pytest.fixture(scope="module")
def reordering() -> SyntacticReordering:
    return SyntacticReordering()


def test_keeps_the_multiset_of_words(reordering: SyntacticReordering, geo_questions: list[AttackedText]) -> None:
    total = 0
    for text in geo_questions:
        for output in reordering(text):
            assert Counter(output.words) == Counter(text.words) and output.words != text.words
            total += 1
    assert total >= 8


def test_moves_a_prepositional_phrase_to_the_front(reordering: SyntacticReordering) -> None:
    outputs = reordering(AttackedText("what is the largest city in texas?"))
    assert [o.text for o in outputs] == ["in texas what is the largest city?"]


def test_moves_a_fronted_phrase_to_the_end(reordering: SyntacticReordering) -> None:
    outputs = reordering(AttackedText("In Texas, what is the largest city?"))
    assert [o.text for o in outputs] == ["what is the largest city In Texas?"]


def test_verb_attached_phrases_move_both_ways(reordering: SyntacticReordering) -> None:
    outputs = {o.text for o in reordering(AttackedText("which rivers run through the state with the largest population"))}
    assert "through the state which rivers run with the largest population" in outputs
    assert "with the largest population which rivers run through the state" in outputs


def test_of_phrases_and_wh_phrases_stay(reordering: SyntacticReordering) -> None:
    assert reordering(AttackedText("what is the population of the capital of the smallest state")) == []
    assert reordering(AttackedText("in which state is the highest point")) == []


def test_original_index_map_follows_moved_words(reordering: SyntacticReordering, geo_questions: list[AttackedText]) -> None:
    for text in geo_questions:
        for output in reordering(text):
            index_map = output.attack_attrs["original_index_map"]
            assert [output.words[index_map[i]] for i in range(text.num_words)] == text.words
            assert output.attack_attrs["previous_attacked_text"] is text


def test_protected_literal_moves_only_whole(reordering: SyntacticReordering) -> None:
    text = AttackedText("how many people live in new york")
    constraints = [PreserveLiterals(literals=("new york",))]
    assert [o.text for o in reordering(text, pre_transformation_constraints=constraints)] == ["in new york how many people live"]


def test_span_cutting_a_protected_run_does_not_move(reordering: SyntacticReordering) -> None:
    text = AttackedText("how many people live in new york")
    assert reordering(text, indices_to_modify={0, 1, 2, 5, 6}) == []  # "live in" protected


def test_no_modifiable_word_gives_nothing(reordering: SyntacticReordering) -> None:
    assert reordering(AttackedText("what is the largest city in texas"), indices_to_modify=set()) == []


def test_literals_survive_on_real_geoquery(reordering: SyntacticReordering, geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples, reordering) > 5


def test_other_columns_are_left_alone(reordering: SyntacticReordering) -> None:
    text = AttackedText(OrderedDict(question="what is the largest city in texas", db_id="geo"))
    (output,) = reordering(text)
    assert output.text == "in texas what is the largest city\ngeo"


def test_is_deterministic_and_validates(reordering: SyntacticReordering) -> None:
    assert reordering.deterministic
    with pytest.raises(TypeError, match="spacy_pipeline"):
        SyntacticReordering(spacy_pipeline="")


def test_repr_lists_every_init_parameter() -> None:
    text = repr(SyntacticReordering())
    for name in inspect.signature(SyntacticReordering.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A 10,000-word question took over a minute to parse and reorder; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"SyntacticReordering builds candidates for every word.*300 words.*256"):
        SyntacticReordering()(text)
