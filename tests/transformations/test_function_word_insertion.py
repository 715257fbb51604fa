"""FunctionWordInsertion on GeoQuery-style questions."""

from __future__ import annotations

import inspect
from collections import OrderedDict

import pytest
from textattack.constraints.pre_transformation import InputColumnModification, RepeatModification
from textattack.shared import AttackedText
from textattack.transformations import WordInsertion

from textattack_semparse.transformations.function_word_insertion import FunctionWordInsertion
from textattack_semparse.linguistics.function_words import (
    FUNCTION_WORDS,
    PUNCTUATION,
    load_function_word_classes,
    load_word_list,
)
from textattack_semparse.linguistics.operator_words import OPERATOR_MARKS, is_operator_word

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
    # Every gap but the two next to "what": before "the", "population", "of", "new", "york" and at the end.
    assert len(candidates) == 4 * (len(text.words) + 1 - 2)


def test_nothing_is_inserted_next_to_an_operator() -> None:
    """People judged "what is the smallest state" -> "what is the six smallest state" to change
    the question; no word goes next to a question word, quantifier, negation, number or
    superlative, and "how many" stays whole."""
    insertion = FunctionWordInsertion(function_words=["just"])
    assert [c.text for c in insertion(AttackedText("what is the smallest state"))] == [
        "what is just the smallest state",
        "what is the smallest state just",
    ]
    assert [c.text for c in insertion(AttackedText("how many rivers are not in texas"))] == [
        "how many rivers just are not in texas",
        "how many rivers are not in just texas",
        "how many rivers are not in texas just",
    ]


def test_inserted_words_are_never_operator_words() -> None:
    insertion = FunctionWordInsertion(word_classes=EVERY_CLASS, max_candidates_per_position=None)
    inserted = {c.words[3] for c in insertion(AttackedText("what is the capital of texas"), indices_to_modify={3})}
    assert inserted and not {word for word in inserted if is_operator_word(word)}
    assert not inserted & {"six", "many", "most", "not", "in", "that", "which", "must", "and"}


def test_inserts_only_before_modifiable_indices() -> None:
    text = AttackedText("which rivers run through the state of texas")
    candidates = FunctionWordInsertion(word_classes=EVERY_CLASS, seed=3)(text, indices_to_modify={2})
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
    assert {c.words[0] for c in candidates} == {word for word in FUNCTION_WORDS if not is_operator_word(word)}


def test_sampling_is_not_deterministic() -> None:
    assert not FunctionWordInsertion(word_classes=EVERY_CLASS).deterministic


def test_default_vocabulary_is_smaller_than_the_sample_so_every_word_is_tried() -> None:
    # Articles and the discourse adverbs (also, however, there, therefore, thus): 8 words, fewer than 10.
    insertion = FunctionWordInsertion()
    assert len(insertion._vocabulary) == 8 and insertion.deterministic


def test_seeded_runs_reproduce() -> None:
    text = AttackedText(QUESTION)
    first = [c.text for c in FunctionWordInsertion(word_classes=EVERY_CLASS, seed=11)(text)]
    second = [c.text for c in FunctionWordInsertion(word_classes=EVERY_CLASS, seed=11)(text)]
    other = [c.text for c in FunctionWordInsertion(word_classes=EVERY_CLASS, seed=12)(text)]
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


def test_huang_list_inserts_its_words_that_keep_the_meaning_at_every_position() -> None:
    """The huang-2021 list inserts its words of the default classes (articles, function
    adverbs) and its punctuation marks but the operator marks. Without sampling: every such
    entry before each of the n words and after the last one (no word of this question is an
    operator the insertion keeps away from), (n + 1) * |entries| candidates."""
    classes = load_function_word_classes()
    insertable = classes["articles"] | classes["function adverbs"] | (PUNCTUATION - OPERATOR_MARKS)
    entries = [word for word in load_word_list("huang-2021") if word in insertable]
    tokens = HUANG_QUESTION.split()  # the words and the final "?"
    n = len(tokens) - 1
    expected = [
        " ".join(tokens[:p] + [word] + tokens[p:]) for p in range(n) for word in entries
    ] + [" ".join(tokens[:n] + [word] + tokens[n:]) for word in entries]  # after "texas", before "?"
    insertion = FunctionWordInsertion(word_list="huang-2021", max_candidates_per_position=None)
    candidates = [c.text for c in insertion(AttackedText(HUANG_QUESTION))]
    assert len(candidates) == (n + 1) * len(entries) == len(expected)
    assert sorted(candidates) == sorted(expected)
    assert insertion.deterministic


def test_huang_list_never_inserts_numbers_quantifiers_or_content_words() -> None:
    """People judged "what is the smallest state" -> "what is the six smallest state" to change the
    question: the list's numbers, quantifiers, negation, prepositions, contraction stems, focus,
    degree and time adverbs ("just", "very", "then") and content words ("formerly", "show") are
    never inserted."""
    insertion = FunctionWordInsertion(word_list="huang-2021", max_candidates_per_position=None, insert_at_end=False)
    inserted = {c.text.split()[0] for c in insertion(AttackedText("rivers in texas"), indices_to_modify={0})}
    assert {"the", "also", "however", "?", ","} <= inserted
    assert not inserted & {"six", "many", "not", "in", "show", "isn", "becomes", "thru", "formerly", "mightn't", "just",
                           "very", "then"}  # fmt: skip
    assert not inserted & OPERATOR_MARKS


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"FunctionWordInsertion builds candidates for every word.*300 words.*256"):
        FunctionWordInsertion(seed=0)(text)
