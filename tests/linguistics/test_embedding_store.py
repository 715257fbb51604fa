"""Sentence-BERT embeddings kept on disk: read back bit for bit, per model as it is, and never in the
way (with the packaged all-MiniLM-L6-v2, a real model loaded offline)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import torch

from textattack_semparse.linguistics import embedding_store
from textattack_semparse.linguistics.embedding_store import STORE_NAME, EmbeddingStore, model_identity
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings, default_model_path

GROUPS = [
    ["what is the capital of texas", "what is capital of texas", "what is the capital city of texas"],
    ["how many rivers are in colorado", "how many rivers in colorado", "in colorado how many rivers are there"],
    [f"which state number {i} borders texas" for i in range(40)],  # more than a batch of 32
]


class CountingEmbeddings(SentenceEmbeddings):
    """The embeddings, with the texts the model was run on counted."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.encoded = 0

    def _forward(self, batch: list[str], *, pad_to: int | None = None) -> torch.Tensor:
        self.encoded += len(batch)
        return super()._forward(batch, pad_to=pad_to)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path))
    return tmp_path


def test_a_later_process_reads_the_embeddings_bit_for_bit_without_loading_the_model(cache: Path) -> None:
    unstored = SentenceEmbeddings(persistent=False).encode_each(GROUPS)
    first = CountingEmbeddings()
    assert all(torch.equal(a, b) for a, b in zip(first.encode_each(GROUPS), unstored, strict=True))
    assert first.encoded == sum(len(group) for group in GROUPS)
    assert (cache / STORE_NAME).is_file()
    later = CountingEmbeddings()  # as a new process has it: nothing in memory
    again = later.encode_each(GROUPS)
    assert all(torch.equal(a, b) for a, b in zip(again, unstored, strict=True))
    assert later.encoded == 0 and later._model is None  # token counts and vectors both stored


def test_only_the_texts_not_stored_are_encoded(cache: Path) -> None:
    CountingEmbeddings().encode_each(GROUPS[:1])
    later = CountingEmbeddings()
    together = later.encode_each(GROUPS[:2])
    assert later.encoded == len(GROUPS[1])
    unstored = SentenceEmbeddings(persistent=False).encode_each(GROUPS[:2])
    assert all(torch.equal(a, b) for a, b in zip(together, unstored, strict=True))


def test_a_vector_is_stored_per_padded_length(tmp_path: Path) -> None:
    # An embedding's last bits depend on how far its batch was padded: another length is another entry.
    store = EmbeddingStore("model", tmp_path / STORE_NAME)
    vector = torch.tensor([0.1, -2.5, 3.0e-8], dtype=torch.float32)
    store.put_vectors({("rivers in texas", 7): vector})
    found = store.vectors([("rivers in texas", 7), ("rivers in texas", 9), ("lakes in texas", 7)])
    assert list(found) == [("rivers in texas", 7)]
    assert found[("rivers in texas", 7)].numpy().tobytes() == vector.numpy().tobytes()
    assert EmbeddingStore("other model", tmp_path / STORE_NAME).vectors([("rivers in texas", 7)]) == {}


def test_the_model_s_identity_follows_its_files_and_hardware(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "model"
    shutil.copytree(default_model_path(), model)
    identity = model_identity(model, "cpu")
    assert identity is not None and identity == model_identity(model, "cpu")
    other = "AVX2" if torch.backends.cpu.get_cpu_capability() != "AVX2" else "AVX512"
    monkeypatch.setattr(torch.backends.cpu, "get_cpu_capability", lambda: other)  # a node with other vector extensions
    assert model_identity(model, "cpu") != identity
    monkeypatch.undo()
    assert model_identity(tmp_path / "no-such-model", "cpu") is None
    assert model_identity("sentence-transformers/all-MiniLM-L6-v2", "cpu") is None  # a hub name: nothing stored
    config = model / "config.json"
    config.write_text(config.read_text() + "\n")
    assert model_identity(model, "cpu") != identity


def test_the_oldest_vectors_are_dropped_beyond_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding_store, "MAX_VECTORS", 3)
    store = EmbeddingStore("model", tmp_path / STORE_NAME)
    for index in range(5):
        store.put_vectors({(f"text {index}", 5): torch.full((2,), float(index))})
    kept = store.vectors([(f"text {index}", 5) for index in range(5)])
    assert sorted(kept) == [("text 2", 5), ("text 3", 5), ("text 4", 5)]


def test_a_store_that_cannot_be_used_is_left_alone(cache: Path) -> None:
    (cache / STORE_NAME).mkdir()  # not a database: neither read nor written
    embeddings = CountingEmbeddings()
    rows = embeddings.encode_each(GROUPS[:1])
    assert embeddings.encoded == len(GROUPS[0])
    assert torch.equal(rows[0], SentenceEmbeddings(persistent=False).encode_uncached(GROUPS[0]))


def test_not_persistent_writes_nothing(cache: Path) -> None:
    SentenceEmbeddings(persistent=False).encode_each(GROUPS[:1])
    assert not os.path.exists(cache / STORE_NAME)
