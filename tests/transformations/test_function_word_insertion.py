"""FunctionWordInsertion on GeoQuery-style questions."""

from __future__ import annotations

import inspect
from collections import OrderedDict

import pytest
from textattack.constraints.pre_transformation import InputColumnModification, RepeatModification
from textattack.shared import AttackedText
from textattack.transformations import WordInsertion

from textattack_semparse.transformations.function_word_insertion import FunctionWordInsertion
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS, load_function_word_classes, load_word_list

EVERY_CLASS = tuple(load_function_word_classes())

QUESTION = "what is the population of new york"


def inserted_position(original: list[str], candidate: list[str]) -> int:
    """The one position whose removal gives back ``original`` (fails otherwise)."""
    assert len(candidate) == len(original) + 1
    positions = [p for p in range(len(candidate)) if candidate[:p] + candidate[p + 1 :] == original]
    assert positions, f"{candidate} is not {original} plus one word"
    return positions[0]


def test_inserts_exactly_one_function_word_and_keeps_order() -> None:
    text = AttackedText(QUESTION)
    candidates = FunctionWordInsertion(seed=0)(text)
    assert candidates
    for candidate in candidates:
        position = inserted_position(text.words, candidate.words)
        assert candidate.words[position] in FUNCTION_WORDS


def test_samples_per_position_including_the_end() -> None:
    text = AttackedText(QUESTION)
    candidates = FunctionWordInsertion(max_candidates_per_position=4, seed=1)(text)
    assert len(candidates) == 4 * (len(text.words) + 1)


def test_inserts_only_before_modifiable_indices() -> None:
    text = AttackedText("which rivers run through the state of texas")
    candidates = FunctionWordInsertion(seed=3)(text, indices_to_modify={2})
    assert len(candidates) == 10
    assert {inserted_position(text.words, c.words) for c in candidates} == {2}


def test_end_insertion_needs_the_last_index() -> None:
    text = AttackedText("which rivers run through texas")
    last = len(text.words) - 1
    candidates = FunctionWordInsertion(function_words=["then"])(text, indices_to_modify={last})
    assert [c.text for c in candidates] == ["which rivers run through then texas", "which rivers run through texas then"]


def test_insert_at_end_false_never_appends() -> None:
    text = AttackedText("which rivers run through texas")
    candidates = FunctionWordInsertion(insert_at_end=False, max_candidates_per_position=None)(text)
    assert all(c.words[-1] == "texas" for c in candidates)


def test_unlimited_candidates_enumerate_every_word_and_are_deterministic() -> None:
    text = AttackedText("rivers in texas")
    insertion = FunctionWordInsertion(word_classes=EVERY_CLASS, max_candidates_per_position=None, insert_at_end=False)
    candidates = insertion(text, indices_to_modify={0})
    assert insertion.deterministic
    assert {c.words[0] for c in candidates} == FUNCTION_WORDS


def test_sampling_is_not_deterministic() -> None:
    assert not FunctionWordInsertion().deterministic


def test_seeded_runs_reproduce() -> None:
    text = AttackedText(QUESTION)
    first = [c.text for c in FunctionWordInsertion(seed=11)(text)]
    second = [c.text for c in FunctionWordInsertion(seed=11)(text)]
    other = [c.text for c in FunctionWordInsertion(seed=12)(text)]
    assert first == second
    assert first != other


def test_is_a_textattack_word_insertion() -> None:
    assert isinstance(FunctionWordInsertion(), WordInsertion)


def test_repeat_modification_freezes_inserted_word_and_its_neighbour() -> None:
    text = AttackedText(QUESTION)
    inserted = FunctionWordInsertion(function_words=["just"])(text, indices_to_modify={3})[0]
    assert inserted.text == "what is the just population of new york"
    assert RepeatModification()(inserted, FunctionWordInsertion()) == set(range(8)) - {3, 4}


def test_multi_column_input_appends_to_the_question_only() -> None:
    text = AttackedText(OrderedDict(question="how many singers do we have", db_id="concert_singer"))
    frozen = InputColumnModification(["question", "db_id"], {"db_id"})
    insertion = FunctionWordInsertion(function_words=["now"])
    candidates = insertion(text, pre_transformation_constraints=[frozen])
    assert all(c._text_input["db_id"] == "concert_singer" for c in candidates)
    assert "how many singers do we have now" in {c._text_input["question"] for c in candidates}


@pytest.mark.parametrize("bad", ["yes", 1])
def test_insert_at_end_must_be_bool(bad: object) -> None:
    with pytest.raises(TypeError, match="insert_at_end"):
        FunctionWordInsertion(insert_at_end=bad)  # type: ignore[arg-type]


def test_repr_lists_every_init_parameter() -> None:
    text = repr(FunctionWordInsertion())
    for name in inspect.signature(FunctionWordInsertion.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


# --- word_list="huang-2021" ------------------------------------------------------------

HUANG_QUESTION = "show me the rivers in texas ?"


def test_huang_list_inserts_every_listed_word_at_every_position() -> None:
    """Huang et al. (2021) insert *any* function word (their Table 1 inserts "in"), and
    their test sets count stop-word-list words and punctuation as function words. Without
    sampling: every listed entry before each of the n words and after the last one,
    (n + 1) * |list| candidates."""
    listed = load_word_list("huang-2021")
    tokens = HUANG_QUESTION.split()  # the words and the final "?"
    n = len(tokens) - 1
    expected = [
        " ".join(tokens[:p] + [word] + tokens[p:]) for p in range(n) for word in listed
    ] + [" ".join(tokens[:n] + [word] + tokens[n:]) for word in listed]  # after "texas", before "?"
    insertion = FunctionWordInsertion(word_list="huang-2021", max_candidates_per_position=None)
    candidates = [c.text for c in insertion(AttackedText(HUANG_QUESTION))]
    assert len(candidates) == (n + 1) * len(listed) == len(expected)
    assert sorted(candidates) == sorted(expected)
    assert insertion.deterministic


def test_huang_list_inserts_words_the_default_never_does() -> None:
    insertion = FunctionWordInsertion(word_list="huang-2021", max_candidates_per_position=None, insert_at_end=False)
    inserted = {c.words[0] for c in insertion(AttackedText("rivers in texas"), indices_to_modify={0})}
    assert {"in", "show", "isn", "becomes", "thru"} <= inserted
    assert "in" not in FunctionWordInsertion(max_candidates_per_position=None)._candidate_words()


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"FunctionWordInsertion builds candidates for every word.*300 words.*256"):
        FunctionWordInsertion(seed=0)(text)
