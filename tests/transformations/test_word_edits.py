"""The fast word edits build exactly what TextAttack's ``AttackedText`` methods build.

Random chains of edits (substitutions, deletions, insertions before and after a word, several
at once) on every geo-mini question, on a two-column input, and on texts with punctuation,
apostrophes and words that are substrings of TextAttack's column separator; the function-word
edits of ``semparse-geo`` at every word of the real GeoQuery questions (``SEMPARSE_DATA_DIR``).
Each step is made both ways and compared: text, words, columns, and every ``attack_attrs`` entry.
"""

from __future__ import annotations

import random
from collections import OrderedDict

import numpy as np
import pytest
from textattack.shared import AttackedText

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.transformations import word_edits

HAND_WRITTEN = [
    "what's the capital of texas ?",
    "how many states border the state with the largest population?",
    "name the rivers in 'new york' -- all of them",
    "S T I L",
    'I live in a city called "springfield" , don\'t I ?',
    "  leading and trailing spaces  ",
    "e-mail x@y.com: is it_valid * or not",
]
REPLACEMENTS = ["", "the", "very", "Texas", "new york", "a big", "state-of-the-art", "don't", "I", "S", "(", "what ?"]


def _same(fast: AttackedText, slow: AttackedText) -> None:
    assert fast.text == slow.text
    assert fast.words == slow.words
    assert fast.column_labels == slow.column_labels
    assert fast.tokenizer_input == slow.tokenizer_input
    assert set(fast.attack_attrs) == set(slow.attack_attrs)
    for key, value in slow.attack_attrs.items():
        if isinstance(value, np.ndarray):
            assert fast.attack_attrs[key].dtype == value.dtype
            np.testing.assert_array_equal(fast.attack_attrs[key], value)
        elif key == "previous_attacked_text":
            assert fast.attack_attrs[key] is value
        else:
            assert fast.attack_attrs[key] == value, key


def _texts() -> list[AttackedText]:
    questions = [next(iter(columns.values())) for columns, _ in load_benchmark("geo-mini").dataset("question", "test")]
    texts = [AttackedText(question) for question in [*questions, *HAND_WRITTEN]]
    texts.append(AttackedText(OrderedDict([("question", "what is the capital of texas"), ("db_id", "geo")])))
    texts.append(AttackedText(OrderedDict([("premise", "I think so."), ("hypothesis", "S is L, isn't it?")])))
    return texts


def _random_edit(rng: random.Random, text: AttackedText) -> tuple[str, tuple]:
    index = rng.randrange(text.num_words)
    kind = rng.choice(["replace", "delete", "after", "before", "many"])
    if kind == "replace":
        return "replace_word_at_index", (index, rng.choice(REPLACEMENTS))
    if kind == "delete":
        return "delete_word_at_index", (index,)
    if kind in ("after", "before"):
        return f"insert_text_{kind}_word_index", (index, rng.choice(REPLACEMENTS[1:]))
    indices = rng.sample(range(text.num_words), min(text.num_words, rng.randint(1, 3)))
    return "replace_words_at_indices", (indices, [rng.choice(REPLACEMENTS) for _ in indices])


def _both(text: AttackedText, method: str, args: tuple) -> tuple[AttackedText | Exception, AttackedText | Exception]:
    results: list[AttackedText | Exception] = []
    for build in (lambda: getattr(word_edits, method)(text, *args), lambda: getattr(text, method)(*args)):
        try:
            results.append(build())
        except (ValueError, IndexError) as error:
            results.append(error)
    return results[0], results[1]


def test_random_edit_chains_match_textattack_in_text_and_attack_attrs() -> None:
    rng = random.Random(27)
    compared = 0
    for start in _texts():
        for _ in range(20):
            text = start
            for _ in range(5):
                if text.num_words == 0:
                    break
                method, args = _random_edit(rng, text)
                fast, slow = _both(text, method, args)
                if isinstance(slow, Exception):
                    assert type(fast) is type(slow), (text.text, method, args)
                    break
                _same(fast, slow)
                compared += 1
                text = slow
    assert compared > 3000


def test_a_word_inside_the_column_separator_is_found_in_the_next_column() -> None:
    text = AttackedText(OrderedDict([("first", "a b"), ("second", "I S")]))
    fast = word_edits.replace_word_at_index(text, 2, "we")
    _same(fast, text.replace_word_at_index(2, "we"))
    assert fast.tokenizer_input == ("a b", "we S")


def test_errors_are_textattacks() -> None:
    text = AttackedText("how big is alaska")
    with pytest.raises(ValueError, match="Cannot replace 1 words at 2 indices"):
        word_edits.replace_words_at_indices(text, [0, 1], ["x"])
    with pytest.raises(TypeError, match="requires ``str``"):
        word_edits.replace_word_at_index(text, 0, 3)  # type: ignore[arg-type]


def test_function_word_edits_of_real_geoquery_questions_match_textattack(real_data_dir) -> None:
    """The edits ``semparse-geo``'s perturbations make (a function word of the default classes
    inserted before or after a word, put in a word's place; a word deleted), at every word of
    the 877 GeoQuery questions, give the text, words and ``attack_attrs`` TextAttack's own
    methods give; then once more on one edited text per question (a second search step)."""
    from textattack_semparse.linguistics.function_words import MEANING_PRESERVING_CLASSES, load_function_word_classes

    benchmark = load_benchmark("geoquery", data_dir=real_data_dir, use_test_suite=False)
    questions = [
        next(iter(columns.values())) for split in ("train", "dev", "test") for columns, _ in benchmark.dataset("question", split)
    ]
    assert len(questions) == 877
    classes = load_function_word_classes()
    function_words = sorted(word for name in MEANING_PRESERVING_CLASSES for word in classes[name])
    rng = random.Random(27)
    compared = 0
    for question in questions:
        text = AttackedText(question)
        for _ in range(2):
            edited = []
            for index in range(text.num_words):
                word = rng.choice(function_words)
                edits = [
                    ("insert_text_before_word_index", (index, word)),
                    ("insert_text_after_word_index", (index, word)),
                    ("replace_word_at_index", (index, word)),
                    ("delete_word_at_index", (index,)),
                ]
                for method, args in edits:
                    fast, slow = _both(text, method, args)
                    _same(fast, slow)
                    compared += 1
                    edited.append(slow)
            text = rng.choice(edited)
    assert compared > 40000
