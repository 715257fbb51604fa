"""Fixtures of the robustness tests: geo-mini instead of the real data, a shared Sentence-BERT, a tiny T5."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import save_tiny_t5


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
    return save_tiny_t5(tmp_path_factory.mktemp("tiny-t5"), T5_WORDS)
