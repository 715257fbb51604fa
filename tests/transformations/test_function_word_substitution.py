"""FunctionWordSubstitution on GeoQuery-style questions."""

from __future__ import annotations

import inspect

import pytest

from textattack.constraints.pre_transformation import StopwordModification
from textattack.shared import AttackedText
from textattack.shared.validators import transformation_consists_of_word_swaps
from textattack.transformations import WordSwap

from textattack_semparse.transformations.function_word_substitution import FunctionWordSubstitution
from textattack_semparse.linguistics.function_words import (
    FUNCTION_WORDS,
    load_function_word_classes,
    load_word_list,
)

EVERY_CLASS = tuple(load_function_word_classes())

QUESTION = "which rivers run through the state of texas"


def test_replaces_one_function_word_by_a_different_one() -> None:
    text = AttackedText(QUESTION)
    candidates = FunctionWordSubstitution(seed=0)(text)
    assert candidates
    for candidate in candidates:
        changed = [i for i, (a, b) in enumerate(zip(text.words, candidate.words)) if a != b]
        assert len(candidate.words) == len(text.words) and len(changed) == 1
        (i,) = changed
        assert text.words[i] in FUNCTION_WORDS and candidate.words[i] in FUNCTION_WORDS


def test_content_words_are_never_replaced() -> None:
    text = AttackedText(QUESTION)
    candidates = FunctionWordSubstitution(max_candidates_per_position=None)(text, indices_to_modify={1, 2, 5, 7})
    assert candidates == []


def test_candidates_exclude_the_original_word_and_come_from_its_class() -> None:
    swap = FunctionWordSubstitution(max_candidates_per_position=None)
    assert swap._get_replacement_words("the") == ["a", "an"]
    assert "was" in swap._get_replacement_words("is") and "is" not in swap._get_replacement_words("is")


def test_meaning_bearing_words_are_not_substituted_by_default() -> None:
    swap = FunctionWordSubstitution(max_candidates_per_position=None)
    for word in ("many", "not", "which", "in", "and", "must"):
        assert swap._get_replacement_words(word) == []


def test_wider_classes_still_substitute_within_a_class() -> None:
    swap = FunctionWordSubstitution(word_classes=EVERY_CLASS, max_candidates_per_position=None)
    pronouns = load_function_word_classes()["personal, possessive and reflexive pronouns"]
    assert "us" in swap._get_replacement_words("me") and set(swap._get_replacement_words("me")) <= pronouns
    assert set(swap._get_replacement_words("does")) <= load_function_word_classes()["forms of have and do (auxiliaries or main verbs)"]


@pytest.mark.parametrize("word", ["in", "many", "most", "that", "what", "not", "six", "and", "must"])
def test_wider_classes_never_substitute_operator_words(word: str) -> None:
    swap = FunctionWordSubstitution(word_classes=EVERY_CLASS, max_candidates_per_position=None)
    assert swap._get_replacement_words(word) == []


@pytest.mark.parametrize(
    ("question", "kept"),
    [("how many people live in utah", "many"), ("give me a state that borders indiana", "that"),
     ("what is the smallest state", "what")],
)  # fmt: skip
def test_words_people_saw_replaced_are_kept(question: str, kept: str) -> None:
    """People judged "how many people" -> "how mightn't people" and "a state that borders
    indiana" -> "a state formerly borders indiana" to change the question."""
    for word_list in (None, "huang-2021"):
        swap = FunctionWordSubstitution(word_list=word_list, max_candidates_per_position=None)
        for candidate in swap(AttackedText(question)):
            assert kept in candidate.words
            assert not any(word.endswith("n't") or word == "formerly" for word in candidate.words)


def test_operator_words_only_are_refused() -> None:
    with pytest.raises(ValueError, match="No word of \\['what', 'which'\\] may be inserted, deleted or substituted"):
        FunctionWordSubstitution(function_words=["what", "which"])


def test_unknown_word_class_suggests_the_closest() -> None:
    with pytest.raises(ValueError, match="Did you mean 'articles'"):
        FunctionWordSubstitution(word_classes=["article"])


def test_samples_per_position() -> None:
    text = AttackedText("which rivers are running through the state of texas")
    candidates = FunctionWordSubstitution(word_classes=EVERY_CLASS, max_candidates_per_position=3, seed=5)(text)
    # "are" samples 3 substitutes from the forms of be; "the" has only "a" and "an"; "which",
    # "through" and "of" are operator words.
    assert len(candidates) == 3 + 2


def test_capitalisation_is_kept() -> None:
    swap = FunctionWordSubstitution(function_words=["the", "a"])
    assert [c.text for c in swap(AttackedText("The rivers of Texas?"), indices_to_modify={0})] == ["A rivers of Texas?"]


def test_capitalised_original_is_excluded() -> None:
    swap = FunctionWordSubstitution(function_words=["the", "a"])
    assert swap._get_replacement_words("The") == ["A"]


def test_seeded_runs_reproduce() -> None:
    text = AttackedText(QUESTION)
    assert [c.text for c in FunctionWordSubstitution(seed=4)(text)] == [
        c.text for c in FunctionWordSubstitution(seed=4)(text)
    ]


def test_builtin_word_swap_constraints_recognise_it() -> None:
    swap = FunctionWordSubstitution()
    assert isinstance(swap, WordSwap) and transformation_consists_of_word_swaps(swap)
    assert StopwordModification(stopwords={"the"}).check_compatibility(swap)


def test_deterministic_only_without_sampling() -> None:
    assert not FunctionWordSubstitution().deterministic
    assert FunctionWordSubstitution(max_candidates_per_position=None).deterministic


def test_repr_lists_every_init_parameter() -> None:
    text = repr(FunctionWordSubstitution())
    for name in inspect.signature(FunctionWordSubstitution.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


# --- word_list="huang-2021" ------------------------------------------------------------

HUANG_QUESTION = "show me the rivers in texas ?"


def test_huang_list_substitutes_within_the_class_of_each_listed_word() -> None:
    """The huang-2021 list replaces its words of the default classes (articles, forms of be,
    function adverbs) by the list's other words of the same class. Without sampling, each such
    word of the question gets every other one (punctuation marks are not words in TextAttack, so
    they do not fill a word's slot)."""
    listed = set(load_word_list("huang-2021"))
    classes = load_function_word_classes()
    text = AttackedText(HUANG_QUESTION)
    swap = FunctionWordSubstitution(word_list="huang-2021", max_candidates_per_position=None)
    candidates = {c.text for c in swap(text)}
    tokens = HUANG_QUESTION.split()
    expected = {
        " ".join(tokens[:p] + [other] + tokens[p + 1 :])
        for p, token in enumerate(tokens)
        for name in ("articles", "forms of be", "function adverbs")
        if token in classes[name] & listed
        for other in classes[name] & listed
        if other != token
    }
    assert candidates == expected == {"show me a rivers in texas ?", "show me an rivers in texas ?"}


def test_huang_list_substitutes_within_a_class() -> None:
    swap = FunctionWordSubstitution(word_list="huang-2021", max_candidates_per_position=None)
    assert swap._get_replacement_words("the") == ["a", "an"]
    assert set(swap._get_replacement_words("is")) == {"am", "are", "be", "been", "being", "was", "were"}
    for word in ("in", "many", "that", "show", "isn", "me", "texas"):
        assert swap._get_replacement_words(word) == []


def test_huang_list_samples_per_word() -> None:
    text = AttackedText("what is the capital of texas")
    candidates = FunctionWordSubstitution(word_list="huang-2021", max_candidates_per_position=3, seed=0)(text)
    assert len(candidates) == 3 + 2  # "is": 3 of the 7 other forms of be; "the": "a" and "an"


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"FunctionWordSubstitution builds candidates for every word.*300 words.*256"):
        FunctionWordSubstitution(seed=0)(text)
