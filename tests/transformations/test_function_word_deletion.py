"""FunctionWordDeletion on GeoQuery-style questions."""

from __future__ import annotations

import inspect
from collections import OrderedDict

import pytest
from textattack.constraints.pre_transformation import InputColumnModification
from textattack.shared import AttackedText
from textattack.transformations import WordDeletion

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.linguistics.function_words import (
    FUNCTION_WORDS,
    MEANING_PRESERVING_CLASSES,
    PUNCTUATION,
    load_function_word_classes,
    load_word_list,
)
from textattack_semparse.linguistics.operator_words import OPERATOR_MARKS, is_operator_word

EVERY_CLASS = tuple(load_function_word_classes())


def deleted_word(original: list[str], candidate: list[str]) -> str:
    assert len(candidate) == len(original) - 1
    removed = [original[p] for p in range(len(original)) if original[:p] + original[p + 1 :] == candidate]
    assert removed, f"{candidate} is not {original} minus one word"
    return removed[0]


def test_deletes_exactly_one_function_word() -> None:
    # Every class allowed, yet "could" (modal), "that" (relative word) and "in" (preposition) stay:
    # they decide what the question asks.
    text = AttackedText("could you show me the rivers that are in texas")
    candidates = FunctionWordDeletion(word_classes=EVERY_CLASS)(text)
    assert sorted(deleted_word(text.words, c.words) for c in candidates) == ["are", "me", "the", "you"]


def test_one_candidate_per_function_word_that_is_no_operator_word() -> None:
    text = AttackedText("what is the population of new york")
    deletable = sum(word in FUNCTION_WORDS and not is_operator_word(word) for word in text.words)
    assert len(FunctionWordDeletion(word_classes=EVERY_CLASS)(text)) == deletable == 2  # is, the


def test_content_words_never_deleted() -> None:
    text = AttackedText("texas population")
    assert FunctionWordDeletion()(text) == []


def test_only_modifiable_indices_are_deleted() -> None:
    text = AttackedText("what is the population of new york")
    candidates = FunctionWordDeletion()(text, indices_to_modify={2, 3})
    assert [c.text for c in candidates] == ["what is population of new york"]


def test_capitalised_function_word_is_recognised() -> None:
    text = AttackedText("What Rivers Are In Texas?")
    assert [c.text for c in FunctionWordDeletion(word_classes=EVERY_CLASS)(text)] == ["What Rivers In Texas?"]


def test_single_word_text_is_left_alone() -> None:
    assert FunctionWordDeletion()(AttackedText("the")) == []


def test_custom_list_limits_deletions() -> None:
    text = AttackedText("what is the population of new york")
    assert [c.text for c in FunctionWordDeletion(function_words=["the"])(text)] == ["what is population of new york"]


def test_is_a_deterministic_word_deletion() -> None:
    deletion = FunctionWordDeletion()
    assert isinstance(deletion, WordDeletion) and deletion.deterministic


def test_repr_lists_every_init_parameter() -> None:
    text = repr(FunctionWordDeletion())
    for name in inspect.signature(FunctionWordDeletion.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_default_never_deletes_words_that_carry_meaning():
    text = AttackedText("how many rivers do not run through the state of texas")
    deleted = {deleted_word(text.words, c.words) for c in FunctionWordDeletion()(text)}
    assert deleted == {"the"}


@pytest.mark.parametrize(
    "question",
    ["where is dallas", "iowa borders how many states", "which is the highest peak not in alaska",
     "what state has the most rivers", "name all the lakes of us", "what are the two largest cities"],
)  # fmt: skip
def test_every_class_never_deletes_an_operator_word(question: str) -> None:
    """People judged these deletions to change the question: "where is dallas" -> "is dallas",
    "iowa borders how many states" -> "iowa borders many states", "the most" -> "the"."""
    text = AttackedText(question)
    deleted = {deleted_word(text.words, c.words) for c in FunctionWordDeletion(word_classes=EVERY_CLASS)(text)}
    assert not {word for word in deleted if is_operator_word(word)}
    assert not deleted & {"where", "how", "many", "most", "not", "all", "two", "which"}


def test_words_naming_the_gold_predicates_are_kept() -> None:
    deletion = FunctionWordDeletion(function_words=["border", "the"])
    text = AttackedText("what states border the state of texas")
    assert len(deletion(text)) == 2
    record_gold_output(text, "SELECT BORDER_INFOalias0.BORDER FROM BORDER_INFO AS BORDER_INFOalias0")
    assert [c.text for c in deletion(text)] == ["what states border state of texas"]


# --- word_list="huang-2021" ------------------------------------------------------------

HUANG_QUESTION = "show me the rivers in texas ?"


def test_huang_list_deletes_its_words_that_keep_the_meaning() -> None:
    """The huang-2021 list deletes its words of the default classes (articles, forms of be,
    function adverbs) and its punctuation marks but the operator marks, and only where the
    question does not need them: "show" (a content word of scikit-learn's list), "me" (a
    pronoun) and "in" (a preposition) stay."""
    listed = set(load_word_list("huang-2021"))
    classes = load_function_word_classes()
    deletable = {word for name in MEANING_PRESERVING_CLASSES for word in classes[name]} | (PUNCTUATION - OPERATOR_MARKS)
    tokens = HUANG_QUESTION.split()
    expected = {" ".join(tokens[:p] + tokens[p + 1 :]) for p, token in enumerate(tokens) if token in listed & deletable}
    candidates = [c.text for c in FunctionWordDeletion(word_list="huang-2021")(AttackedText(HUANG_QUESTION))]
    assert len(candidates) == len(expected) == 2  # the, ?
    assert set(candidates) == expected


def test_huang_list_deletes_attached_punctuation_but_not_contraction_stems() -> None:
    text = AttackedText("what isn the capital, of texas?")
    candidates = {c.text for c in FunctionWordDeletion(word_list="huang-2021")(text)}
    assert candidates == {"what isn the capital of texas?", "what isn the capital, of texas", "what isn capital, of texas?"}


def test_huang_list_never_deletes_operator_marks_or_operator_words() -> None:
    text = AttackedText("how many states have a population > 5 % of the usa ?")
    candidates = {c.text for c in FunctionWordDeletion(word_list="huang-2021")(text)}
    assert candidates == {
        "how many states have population > 5 % of the usa ?",
        "how many states have a population > 5 % of usa ?",
        "how many states have a population > 5 % of the usa",
    }


def test_punctuation_deletion_keeps_the_words_and_their_indices() -> None:
    text = AttackedText(HUANG_QUESTION)
    (deleted,) = [c for c in FunctionWordDeletion(function_words=["?"])(text)]
    assert deleted.text == "show me the rivers in texas"
    assert deleted.words == text.words and deleted.attack_attrs["newly_modified_indices"] == set()
    assert deleted.attack_attrs["previous_attacked_text"] is text


def test_punctuation_inside_a_protected_span_is_kept() -> None:
    text = AttackedText("rivers in st. louis ?")
    deletion = FunctionWordDeletion(function_words=["."])
    assert [c.text for c in deletion(text, indices_to_modify={0, 1})] == []
    assert [c.text for c in deletion(text, indices_to_modify={0, 1, 2})] == ["rivers in st louis ?"]


def test_punctuation_of_a_frozen_column_is_kept() -> None:
    text = AttackedText(OrderedDict(question="how many singers ?", db_id="concert-singer !"))
    frozen = InputColumnModification(["question", "db_id"], {"db_id"})
    candidates = FunctionWordDeletion(function_words=["?", "!"])(text, pre_transformation_constraints=[frozen])
    assert [c._text_input for c in candidates] == [OrderedDict(question="how many singers", db_id="concert-singer !")]


def test_default_list_never_deletes_punctuation() -> None:
    assert FunctionWordDeletion()(AttackedText("rivers in texas ?")) == []


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"FunctionWordDeletion builds candidates for every word.*300 words.*256"):
        FunctionWordDeletion()(text)
