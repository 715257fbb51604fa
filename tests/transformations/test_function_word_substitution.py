"""FunctionWordSubstitution on GeoQuery-style questions."""

from __future__ import annotations

import inspect
import string

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
    assert set(swap._get_replacement_words("in")) <= load_function_word_classes()["prepositions"]


def test_unknown_word_class_suggests_the_closest() -> None:
    with pytest.raises(ValueError, match="Did you mean 'articles'"):
        FunctionWordSubstitution(word_classes=["article"])


def test_samples_per_position() -> None:
    text = AttackedText(QUESTION)
    candidates = FunctionWordSubstitution(word_classes=EVERY_CLASS, max_candidates_per_position=3, seed=5)(text)
    # "which", "through" and "of" sample 3 substitutes from their classes; "the" has only "a" and "an".
    assert len(candidates) == 3 + 3 + 3 + 2


def test_capitalisation_is_kept() -> None:
    swap = FunctionWordSubstitution(function_words=["what", "which"])
    assert [c.text for c in swap(AttackedText("What rivers are there?"), indices_to_modify={0})] == [
        "Which rivers are there?"
    ]


def test_capitalised_original_is_excluded() -> None:
    swap = FunctionWordSubstitution(function_words=["what", "which"])
    assert swap._get_replacement_words("What") == ["Which"]


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


def test_huang_list_substitutes_every_different_listed_word() -> None:
    """Huang et al. (2021): "substitution replaces a function word by a random different
    function word", any listed word, not one of its class. Without sampling, each listed
    word of the question gets every other listed word (punctuation marks are not words in
    TextAttack, so they do not fill a word's slot)."""
    words = [w for w in load_word_list("huang-2021") if w not in string.punctuation]
    text = AttackedText(HUANG_QUESTION)
    swap = FunctionWordSubstitution(word_list="huang-2021", max_candidates_per_position=None)
    candidates = {c.text for c in swap(text)}
    tokens = HUANG_QUESTION.split()
    expected = {
        " ".join(tokens[:p] + [other] + tokens[p + 1 :])
        for p, token in enumerate(tokens)
        if token in words
        for other in words
        if other != token
    }
    assert candidates == expected
    assert len(expected) == 4 * (len(words) - 1)  # show, me, the, in


def test_huang_list_substitutes_across_classes() -> None:
    swap = FunctionWordSubstitution(word_list="huang-2021", max_candidates_per_position=None)
    replacements = set(swap._get_replacement_words("in"))
    assert {"on", "the", "show", "isn", "not", "many"} <= replacements and "in" not in replacements
    assert swap._get_replacement_words("texas") == []


def test_huang_list_samples_per_word() -> None:
    text = AttackedText(HUANG_QUESTION)
    candidates = FunctionWordSubstitution(word_list="huang-2021", max_candidates_per_position=3, seed=0)(text)
    assert len(candidates) == 4 * 3


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"FunctionWordSubstitution builds candidates for every word.*300 words.*256"):
        FunctionWordSubstitution(seed=0)(text)
