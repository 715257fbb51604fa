"""SyntacticReordering over the packaged spaCy parse, on GeoQuery questions."""

from __future__ import annotations

import inspect
import json
from collections import Counter, OrderedDict
from collections.abc import Callable
from pathlib import Path

import pytest
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.sql.literals import quoted_values
from textattack_semparse.transformations.syntactic_reordering import SyntacticReordering


@pytest.fixture(scope="module")
def reordering() -> SyntacticReordering:
    return SyntacticReordering()


MOVABLE = (
    "what rivers are there in texas",
    "which rivers do not run through texas",
    "what river runs through the state with the most cities",
    "how many states are in the usa",
)
"""GeoQuery questions with a constituent that keeps its attachment when it moves."""


def test_keeps_the_multiset_of_words(reordering: SyntacticReordering, geo_questions: list[AttackedText]) -> None:
    total = 0
    for text in [*geo_questions, *map(AttackedText, MOVABLE)]:
        for output in reordering(text):
            assert Counter(output.words) == Counter(text.words) and output.words != text.words
            total += 1
    assert total >= 8


def test_moves_a_prepositional_phrase_to_the_front(reordering: SyntacticReordering) -> None:
    outputs = reordering(AttackedText("how many people live in texas?"))
    assert [o.text for o in outputs] == ["in texas how many people live?"]


def test_moves_a_fronted_phrase_to_the_end(reordering: SyntacticReordering) -> None:
    outputs = reordering(AttackedText("In Texas, how many people live?"))
    assert [o.text for o in outputs] == ["how many people live In Texas?"]


def test_verb_attached_phrases_move_both_ways(reordering: SyntacticReordering) -> None:
    outputs = {o.text for o in reordering(AttackedText("what river runs through the state with the most cities"))}
    assert outputs == {
        "through the state what river runs with the most cities",
        "what river runs with the most cities through the state",
    }


def test_a_phrase_that_would_attach_elsewhere_stays(reordering: SyntacticReordering) -> None:
    """Fronted, "in texas" modifies "is", not "city" (the parse of the moved question says so):
    the largest city in texas is not what "in texas, what is the largest city" asks of a parser.
    At the end, "in the state" would modify "city" where it modified "is"."""
    assert reordering(AttackedText("what is the largest city in texas?")) == []
    assert reordering(AttackedText("In Texas, what is the largest city?")) == []
    assert reordering(AttackedText("which rivers run through the state with the largest population")) == []


def test_free_words_move_without_a_parse_check(reordering: SyntacticReordering) -> None:
    outputs = {o.text for o in reordering(AttackedText("what rivers are there in texas"))}
    assert outputs == {"there what rivers are in texas", "what rivers are in texas there", "in texas what rivers are there"}


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


def test_quotes_move_with_the_value_they_enclose(reordering: SyntacticReordering) -> None:
    # Before the marks were spelled with their words: "UAL Which airline has abbreviation'?" and
    # "from the city 'Aberdeen How many flights depart on monday?".
    protect = [PreserveLiterals()]
    text = AttackedText("Which airline has abbreviation 'UAL'?")
    assert [o.text for o in reordering(text, pre_transformation_constraints=protect)] == [
        "'UAL' Which airline has abbreviation?"
    ]
    text = AttackedText("How many flights depart from the city 'Aberdeen' on monday?")
    assert sorted(o.text for o in reordering(text, pre_transformation_constraints=protect)) == [
        "How many flights depart on monday from the city 'Aberdeen'?",
        "from the city 'Aberdeen' How many flights depart on monday?",
        "on monday How many flights depart from the city 'Aberdeen'?",
    ]


def test_a_mark_touching_no_word_keeps_its_neighbours_in_place(reordering: SyntacticReordering) -> None:
    assert reordering(AttackedText("how many people live in texas"))
    assert reordering(AttackedText("how many people live in ' texas '")) == []


def test_spider_quoted_values_stay_quoted(reordering: SyntacticReordering, real_data_dir: Path) -> None:
    """Every quoted value of a Spider dev question is quoted the same in each of its reorderings."""
    questions = [entry["question"] for entry in json.loads((real_data_dir / "spider-dev" / "dev.json").read_text())]
    quoted = [question for question in questions if quoted_values(question)]
    moved = 0
    for question in quoted:
        for output in reordering(AttackedText(question), pre_transformation_constraints=[PreserveLiterals()]):
            assert sorted(quoted_values(output.text)) == sorted(quoted_values(question)), (question, output.text)
            moved += 1
    assert len(quoted) > 50 and moved > 20, (len(quoted), moved)


def test_no_modifiable_word_gives_nothing(reordering: SyntacticReordering) -> None:
    assert reordering(AttackedText("how many people live in texas"), indices_to_modify=set()) == []


def test_literals_survive_on_real_geoquery(reordering: SyntacticReordering, geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples, reordering) > 5


def test_other_columns_are_left_alone(reordering: SyntacticReordering) -> None:
    text = AttackedText(OrderedDict(question="how many people live in texas", db_id="geo"))
    (output,) = reordering(text)
    assert output.text == "in texas how many people live\ngeo"


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
