"""train_tokenizer: one vocabulary for questions and outputs, T5's special-token ids, lossless decoding."""

from __future__ import annotations

import pytest

from textattack_semparse.scoring.exact_match_scorer import normalize_logical_form
from textattack_semparse.training.tokenizer import train_tokenizer

TEXTS = [
    "what is the capital of texas",
    "(lambda $0:e (and:<t*,t> (state:<s,t> $0) (loc:<lo,<lo,t>> $0 texas:s)))",
    'SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.STATE_NAME = "new york" ;',
]


@pytest.mark.parametrize("kind", ["word", "bpe"])
def test_special_token_ids_follow_t5(kind):
    tokenizer = train_tokenizer(TEXTS, kind=kind)
    assert (tokenizer.pad_token_id, tokenizer.eos_token_id, tokenizer.unk_token_id) == (0, 1, 2)


@pytest.mark.parametrize("kind", ["word", "bpe"])
def test_every_encoding_ends_with_eos(kind):
    tokenizer = train_tokenizer(TEXTS, kind=kind)
    assert tokenizer(TEXTS[0])["input_ids"][-1] == tokenizer.eos_token_id
    assert tokenizer(text_target=TEXTS[1])["input_ids"][-1] == tokenizer.eos_token_id


@pytest.mark.parametrize("kind", ["word", "bpe"])
@pytest.mark.parametrize("text", TEXTS[1:])
def test_decoding_keeps_the_normalised_tokens(kind, text):
    tokenizer = train_tokenizer(TEXTS, kind=kind)
    decoded = tokenizer.decode(tokenizer(text_target=text)["input_ids"], skip_special_tokens=True)
    assert normalize_logical_form(decoded) == normalize_logical_form(text)


def test_word_level_keeps_sql_strings_and_typed_constants_whole():
    tokenizer = train_tokenizer(TEXTS)
    tokens = tokenizer.tokenize(TEXTS[2]) + tokenizer.tokenize(TEXTS[1])
    assert {'"new', 'york"', "texas:s", "(", "and:<t*,t>"} <= set(tokens)


def test_unseen_words_become_unk_in_word_level():
    tokenizer = train_tokenizer(TEXTS)
    assert tokenizer.tokenize("capital of ohio") == ["capital", "of", "<unk>"] or tokenizer(
        "capital of ohio"
    )["input_ids"][2] == tokenizer.unk_token_id


def test_bpe_round_trips_unseen_text():
    tokenizer = train_tokenizer(TEXTS, kind="bpe")
    text = "capital of ohio?"
    assert tokenizer.decode(tokenizer(text)["input_ids"], skip_special_tokens=True) == text


def test_unknown_kind_is_rejected():
    with pytest.raises(ValueError, match="word, bpe"):
        train_tokenizer(TEXTS, kind="sentencepiece")
