"""MaskedLMRandomWordInsertion (Zhuo et al. 2023, CI) with tiny random masked LMs.

Paper rule (Zhuo et al. 2023, https://arxiv.org/abs/2301.12868, CI, as issue 8 states it):
the two inserted words are the masked LM's *most probable* words, not samples from its top
10. Implemented as two insertions at random positions, each mask filled with its most
probable whole word (right insertion first).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import pytest
import torch
from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text
from transformers import AutoModelForMaskedLM, AutoTokenizer

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


@functools.cache
def load(model_path: str) -> tuple:
    return AutoTokenizer.from_pretrained(model_path), AutoModelForMaskedLM.from_pretrained(model_path).eval()


def most_probable_word(model_path: str, words: list[str], position: int) -> str:
    """The most probable whole word for a mask inserted before ``words[position]``, read off the logits.

    A whole word: a vocabulary token that starts a word (``Ġ`` in RoBERTa's byte-level BPE; not a
    ``##`` continuation in WordPiece), is not special, reads as exactly one word, and is not one of
    the mask's two neighbours (any case).
    """
    tokenizer, model = load(model_path)
    masked = " ".join([*words[:position], tokenizer.mask_token, *words[position:]])
    encoding = tokenizer(masked, return_tensors="pt")
    (mask_index,) = (encoding["input_ids"][0] == tokenizer.mask_token_id).nonzero()[0].tolist()
    with torch.no_grad():
        logits = model(**encoding).logits[0, mask_index]
    byte_level = any(token.startswith("Ġ") for token in tokenizer.get_vocab())
    neighbours = {w.lower() for w in words[max(position - 1, 0) : position + 1]}
    for token_id in torch.argsort(logits, descending=True).tolist():
        token = tokenizer.convert_ids_to_tokens(token_id)
        if token_id in tokenizer.all_special_ids or token.startswith("##") or (byte_level and not token.startswith("Ġ")):
            continue
        word = tokenizer.convert_tokens_to_string([token]).strip()
        if words_from_text(word) == [word] and word.lower() not in neighbours:
            return word
    raise AssertionError("no whole word in the vocabulary")


@pytest.mark.parametrize("question", ["what is the capital of texas", "which rivers run through the state with the largest population"])
def test_inserted_words_are_the_most_probable(model_path: str, question: str) -> None:
    text = AttackedText(question)
    # Position 0 excluded: a mask that opens the text also admits word-internal tokens.
    outputs = MaskedLMRandomWordInsertion(model_path, device="cpu", seed=0)(text, indices_to_modify=set(range(1, text.num_words)))
    assert len(outputs) >= 3
    for output in outputs[:5]:
        kept = set(output.attack_attrs["original_index_map"].tolist())
        left, right = sorted(set(range(output.num_words)) - kept)
        # The right word is inserted first, into the original question (before original word right - 1) ...
        assert output.words[right] == most_probable_word(model_path, text.words, right - 1)
        # ... then the left one, into the question with the right word already in place.
        intermediate = output.words[:left] + output.words[left + 1 :]
        assert output.words[left] == most_probable_word(model_path, intermediate, left)


def test_words_do_not_depend_on_the_seed(model_path: str) -> None:
    text = AttackedText("what is the largest city in texas")
    by_positions: dict[tuple[int, ...], str] = {}
    for seed in range(3):
        for output in MaskedLMRandomWordInsertion(model_path, device="cpu", seed=seed)(text):
            kept = set(output.attack_attrs["original_index_map"].tolist())
            positions = tuple(sorted(set(range(output.num_words)) - kept))
            assert by_positions.setdefault(positions, output.text) == output.text


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
