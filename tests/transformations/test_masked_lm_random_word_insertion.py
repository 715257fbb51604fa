"""MaskedLMRandomWordInsertion (Zhuo et al. 2023, CI) with tiny random masked LMs."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.masked_lm_random_word_insertion import MaskedLMRandomWordInsertion


def is_subsequence(short: list[str], long: list[str]) -> bool:
    remaining = iter(long)
    return all(word in remaining for word in short)


@pytest.fixture(scope="module", params=("roberta", "electra"))
def model_path(request: pytest.FixtureRequest, tiny_masked_lm: Callable[[str], str]) -> str:
    return tiny_masked_lm(request.param)


def test_adds_exactly_two_words_keeping_the_rest(model_path: str, geo_questions: list[AttackedText]) -> None:
    insertion = MaskedLMRandomWordInsertion(model_path, device="cpu", seed=0)
    for text in geo_questions:
        outputs = insertion(text)
        assert outputs
        for output in outputs:
            assert output.num_words == text.num_words + 2
            assert is_subsequence(text.words, output.words)
            index_map = output.attack_attrs["original_index_map"]
            assert [output.words[index_map[i]] for i in range(text.num_words)] == text.words


def test_end_of_the_question_is_a_position(model_path: str) -> None:
    text = AttackedText("how big is alaska")
    outputs = MaskedLMRandomWordInsertion(model_path, num_words=1, device="cpu", seed=0)(text, indices_to_modify={3})
    assert {o.words.index("alaska") for o in outputs} <= {3, 4}
    assert any(o.words[:4] == text.words for o in outputs)


def test_inserting_at_the_end_and_before_the_last_word(model_path: str) -> None:
    text = AttackedText("how big is alaska")
    outputs = MaskedLMRandomWordInsertion(model_path, device="cpu", seed=0)(text, indices_to_modify={3})
    (output,) = outputs
    assert output.words[:3] == ["how", "big", "is"] and output.words[4] == "alaska" and output.num_words == 6


def test_inserted_words_are_not_their_neighbours(model_path: str, geo_questions: list[AttackedText]) -> None:
    insertion = MaskedLMRandomWordInsertion(model_path, device="cpu", seed=1)
    for text in geo_questions:
        for output in insertion(text):
            kept = set(output.attack_attrs["original_index_map"].tolist())
            for position in set(range(output.num_words)) - kept:
                neighbours = {output.words[p].lower() for p in (position - 1, position + 1) if 0 <= p < output.num_words and p in kept}
                assert output.words[position].lower() not in neighbours


def test_nothing_is_inserted_into_or_before_new_york(model_path: str) -> None:
    text = AttackedText("how many people live in new york")
    insertion = MaskedLMRandomWordInsertion(model_path, device="cpu", seed=0)
    outputs = insertion(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert outputs and all(o.words[-3:] == ["in", "new", "york"] for o in outputs)


def test_literals_survive_on_real_geoquery(model_path: str, geo_examples: list[AttackedText], check_literals: Callable) -> None:
    insertion = MaskedLMRandomWordInsertion(model_path, num_candidates=4, device="cpu", seed=0)
    assert check_literals(geo_examples[:10], insertion) > 15


def test_seeded_runs_repeat(model_path: str) -> None:
    text = AttackedText("what is the largest city in texas")
    first = [o.text for o in MaskedLMRandomWordInsertion(model_path, device="cpu", seed=3)(text)]
    assert first == [o.text for o in MaskedLMRandomWordInsertion(model_path, device="cpu", seed=3)(text)]


def test_repr_lists_every_init_parameter() -> None:
    text = repr(MaskedLMRandomWordInsertion())
    for name in inspect.signature(MaskedLMRandomWordInsertion.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
