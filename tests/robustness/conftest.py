"""Fixtures of the robustness tests: geo-mini instead of the real data, a shared Sentence-BERT, a tiny T5."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def geo_mini_env() -> Iterator[None]:
    """Registered ``geo-*`` datasets and ``knn-geo`` resolve to the embedded geo-mini (module-wide)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", "")
        yield


@pytest.fixture(scope="session")
def encoder():
    """One Sentence-BERT scorer (the packaged all-MiniLM-L6-v2) for every build in the session."""
    from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity

    return SentenceBERTSimilarity()


T5_WORDS = (
    "what is the capital of texas new york rivers in which states border how many people live area "
    "does do are run through largest SELECT FROM WHERE STATE CITY RIVER STATEalias0.CAPITAL AS "
    "STATEalias0 STATEalias0.STATE_NAME = ; \"texas\" COUNT ( )"
).split()


@pytest.fixture(scope="module")
def t5_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised T5 with a whitespace word-level tokenizer (no download)."""
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {token: index for index, token in enumerate(["<pad>", "</s>", "<unk>", *dict.fromkeys(T5_WORDS)])}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    backend.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )
    config = transformers.T5Config(
        vocab_size=len(tokenizer),
        d_model=32,
        d_ff=64,
        d_kv=16,
        num_layers=2,
        num_heads=2,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        initializer_factor=3.0,
    )
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = transformers.T5ForConditionalGeneration(config)
    path = tmp_path_factory.mktemp("tiny-t5")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path
