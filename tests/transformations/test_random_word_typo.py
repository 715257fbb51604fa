"""RandomWordTypo (Zhuo et al. 2023, TB) on GeoQuery questions."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText
from textattack.transformations import WordSwapQWERTY

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.random_word_typo import RandomWordTypo


def changed(before: AttackedText, after: AttackedText) -> list[int]:
    assert after.num_words == before.num_words
    return [i for i, (a, b) in enumerate(zip(before.words, after.words)) if a != b]


def one_character_edit(word: str, typo: str) -> bool:
    """Deletion, substitution or swap of neighbouring characters."""
    if len(typo) == len(word) - 1:
        return any(word[:i] + word[i + 1 :] == typo for i in range(len(word)))
    if len(typo) != len(word):
        return False
    diff = [i for i, (a, b) in enumerate(zip(word, typo)) if a != b]
    return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and word[diff[0]] == typo[diff[1]] and word[diff[1]] == typo[diff[0]])


def test_exactly_two_words_get_a_character_typo(geo_questions: list[AttackedText]) -> None:
    for text in geo_questions:
        outputs = RandomWordTypo(seed=0)(text)
        assert outputs
        for output in outputs:
            positions = changed(text, output)
            assert len(positions) == 2
            for i in positions:
                assert one_character_edit(text.words[i], output.words[i]), (text.words[i], output.words[i])
                assert output.words[i][0] == text.words[i][0] and output.words[i][-1] == text.words[i][-1]


def test_words_without_a_typo_are_never_chosen() -> None:
    text = AttackedText("a texas")
    assert RandomWordTypo(seed=0)(text) == []


def test_seeded_runs_repeat() -> None:
    text = AttackedText("which rivers run through the state with the largest population")
    assert [o.text for o in RandomWordTypo(seed=4)(text)] == [o.text for o in RandomWordTypo(seed=4)(text)]


def test_custom_character_transformations() -> None:
    typo = RandomWordTypo(character_transformations=[WordSwapQWERTY(random_one=False)], seed=0)
    text = AttackedText("how big is alaska")
    for output in typo(text):
        assert all(len(output.words[i]) == len(text.words[i]) for i in changed(text, output))


def test_new_york_is_never_altered() -> None:
    text = AttackedText("how many people live in new york")
    outputs = RandomWordTypo(seed=0)(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert outputs and all(o.text.endswith("new york") for o in outputs)


def test_literals_survive_on_real_geoquery(geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples, RandomWordTypo(seed=0)) > 100


@pytest.mark.parametrize("bad", [[], ["not a transformation"]])
def test_bad_character_transformations_rejected(bad: list) -> None:
    with pytest.raises(TypeError, match="WordSwap"):
        RandomWordTypo(character_transformations=bad)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(RandomWordTypo())
    for name in inspect.signature(RandomWordTypo.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
