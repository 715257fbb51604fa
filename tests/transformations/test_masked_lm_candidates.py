"""MaskedLMCandidates with tiny random BERT, ELECTRA and RoBERTa models built in the test."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from textattack_semparse.transformations.derived_text import is_single_word
from textattack_semparse.transformations.masked_lm_candidates import MaskedLMCandidates

MODEL_TYPES = ("bert", "electra", "roberta")


def masked(lm: MaskedLMCandidates, template: str) -> str:
    return template.replace("MASK", lm.mask_token)


@pytest.fixture(scope="module", params=MODEL_TYPES)
def lm(request: pytest.FixtureRequest, tiny_masked_lm: Callable[[str], str]) -> MaskedLMCandidates:
    return MaskedLMCandidates(tiny_masked_lm(request.param), device="cpu")


def test_returns_top_k_whole_words_most_probable_first(lm: MaskedLMCandidates) -> None:
    (words,) = lm.top_words([masked(lm, "what is the MASK of texas")], top_k=8)
    assert len(words) == 8
    probabilities = [p for _, p in words]
    assert probabilities == sorted(probabilities, reverse=True) and all(0 < p <= 1 for p in probabilities)
    assert all(is_single_word(w) for w, _ in words)


def test_no_subword_artefacts_or_special_tokens(lm: MaskedLMCandidates) -> None:
    (words,) = lm.top_words([masked(lm, "how many people live in MASK")], top_k=30)
    specials = {token.lower() for token in lm.tokenizer.all_special_tokens}
    for word, _ in words:
        assert not word.startswith(("##", "Ġ", "▁")) and word.lower() not in specials


def test_continuation_pieces_are_skipped(lm: MaskedLMCandidates) -> None:
    """Every returned word is a vocabulary token that can begin a word."""
    vocabulary = lm.tokenizer.get_vocab()
    marked = any(token.startswith("Ġ") for token in vocabulary)
    pieces = [t for t in vocabulary if (t.isalpha() and marked) or t.startswith("##")]
    assert len(pieces) > 20  # the tiny vocabularies do have continuation pieces to skip
    (words,) = lm.top_words([masked(lm, "which rivers run through MASK")], top_k=30)
    for word, _ in words:
        assert ("Ġ" + word if marked else word) in vocabulary


def test_excluded_word_never_returned_in_any_case(lm: MaskedLMCandidates) -> None:
    text = masked(lm, "what is the MASK of texas")
    (top,) = lm.top_words([text], top_k=5)
    banned = top[0][0]
    (again,) = lm.top_words([text], top_k=5, exclude=[[banned.upper()]])
    assert banned.lower() not in {w.lower() for w, _ in again} and len(again) == 5
    assert [w for w, _ in again][:4] == [w for w, _ in top][1:5]


def test_batches_give_the_same_words(tiny_masked_lm: Callable[[str], str]) -> None:
    path = tiny_masked_lm("bert")
    small, large = MaskedLMCandidates(path, batch_size=2, device="cpu"), MaskedLMCandidates(path, batch_size=64, device="cpu")
    texts = [masked(small, t) for t in ("MASK is the capital of texas", "how long is the MASK river", "what is the MASK", "give me the cities in MASK", "MASK")]
    one, other = small.top_words(texts, top_k=5), large.top_words(texts, top_k=5)
    assert len(one) == len(texts)
    assert [[w for w, _ in row] for row in one] == [[w for w, _ in row] for row in other]


def test_text_without_a_single_mask_gets_nothing(lm: MaskedLMCandidates) -> None:
    assert lm.top_words(["what is the capital of texas", masked(lm, "MASK MASK")], top_k=3) == [[], []]


def test_truncated_mask_gets_nothing(tiny_masked_lm: Callable[[str], str]) -> None:
    lm = MaskedLMCandidates(tiny_masked_lm("bert"), max_length=6, device="cpu")
    assert lm.top_words([masked(lm, "what is the capital of the state of MASK")], top_k=3) == [[]]


def test_runs_on_the_requested_device(lm: MaskedLMCandidates) -> None:
    assert lm.model.device.type == "cpu"


def test_model_loads_lazily_and_is_not_pickled(tiny_masked_lm: Callable[[str], str]) -> None:
    lm = MaskedLMCandidates(tiny_masked_lm("electra"))
    assert lm._model is None
    lm.top_words([masked(lm, "what is MASK")], top_k=1)
    assert lm._model is not None
    restored = pickle.loads(pickle.dumps(lm))
    assert restored._model is None and restored._tokenizer is None
    assert restored.top_words([masked(restored, "what is MASK")], top_k=1)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"model_name_or_path": ""}, TypeError), ({"batch_size": 0}, ValueError), ({"max_length": True}, ValueError), ({"device": 0}, TypeError)],
)
def test_bad_arguments_rejected(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        MaskedLMCandidates(**{"model_name_or_path": "x", **kwargs})


def test_bad_top_k_and_exclude_rejected(lm: MaskedLMCandidates) -> None:
    with pytest.raises(ValueError, match="top_k"):
        lm.top_words(["x"], top_k=0)
    with pytest.raises(ValueError, match="one per text"):
        lm.top_words(["x", "y"], top_k=1, exclude=[["x"]])
