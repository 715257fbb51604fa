"""Sentence-BERT embeddings kept on disk, so that the next process does not compute them again.

Ranking rewrites by Sentence-BERT is most of what ``robustness build`` does: on GeoQuery's 280
lambda-calculus test questions, 24 of its 43 s go to encoding 5,846 texts, one CPU thread at the
model's arithmetic. The texts a ranking perturbation encodes (every rewrite of substitution
(WordNet) and reordering, and each question) do not depend on the seed, so building the test set
again (another seed, ``robustness run`` for another victim) encodes the same texts again. They are
kept here: per model (:func:`model_identity`), text and the padded length it was encoded at (an
embedding's last bits depend on that length, :meth:`~textattack_semparse.linguistics.sentence_embeddings.SentenceEmbeddings.encode_each`),
the float32 vector as computed, and each text's token count. A vector read back is the vector
computed, bit for bit, so a test set built from stored embeddings is the one built without them.

The store is an optimisation only: when it cannot be read or written (a read-only or corrupt
file) the texts are encoded. Beyond :data:`MAX_VECTORS` the oldest entries are dropped. Delete
``$TEXTATTACK_SEMPARSE_CACHE/sentence_embeddings.sqlite`` to empty it. Original to textattack-semparse.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import torch

from textattack_semparse.cache import cache_dir, file_version, store_transaction

logger = logging.getLogger(__name__)

STORE_NAME = "sentence_embeddings.sqlite"
"""The file under :func:`~textattack_semparse.cache.cache_dir`."""

MAX_VECTORS = 100_000
"""Vectors (and token counts) kept: about 240 MB for a 384-dimensional model such as all-MiniLM-L6-v2;
beyond it the oldest are dropped."""

_CHUNK = 500
"""Texts per look-up (SQLite allows 999 parameters in a statement on old builds)."""


def model_identity(model_directory: str | os.PathLike[str], device: str) -> str | None:
    """A digest of what a model's embeddings depend on, to their last bits: its directory's files as
    they are (path, size and modification time of each), the torch version and the hardware its
    kernels are chosen for (the CPU's vector extensions, or the GPU and CUDA version); ``None`` when
    ``model_directory`` is not a local directory (nothing is stored for it). Machines sharing one
    cache directory (a cluster's home) thus keep their embeddings apart where they could differ."""
    directory = Path(model_directory)
    if not directory.is_dir():
        return None
    try:
        files = sorted(
            (str(path.relative_to(directory)), *file_version(path))
            for path in directory.rglob("*")
            if path.is_file() and not any(part.startswith(".") for part in path.relative_to(directory).parts)
        )
    except OSError:
        return None
    kind = torch.device(device).type
    if kind == "cuda":
        hardware = [kind, torch.cuda.get_device_name(torch.device(device)), torch.version.cuda]
    else:
        hardware = [kind, torch.backends.cpu.get_cpu_capability()]
    identity = json.dumps([str(directory.resolve()), files, torch.__version__, hardware])
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()


class EmbeddingStore:
    """The stored token counts and vectors of one model (:func:`model_identity`).

    Example:
        >>> import tempfile
        >>> store = EmbeddingStore("model-a", Path(tempfile.mkdtemp()) / STORE_NAME)
        >>> store.put_vectors({("rivers in texas", 7): torch.ones(3)})
        >>> store.vectors([("rivers in texas", 7), ("rivers in texas", 9)])
        {('rivers in texas', 7): tensor([1., 1., 1.])}
    """

    def __init__(self, model: str, path: Path | None = None) -> None:
        self.model = model
        self.path = path if path is not None else cache_dir() / STORE_NAME

    def token_counts(self, texts: Sequence[str]) -> dict[str, int]:
        """The stored token counts of those of ``texts`` that have one."""
        found: dict[str, int] = {}
        for rows in self._select("SELECT text, tokens FROM token_counts WHERE model = ? AND text IN ({})", texts):
            found.update((text, int(tokens)) for text, tokens in rows)
        return found

    def put_token_counts(self, counts: Mapping[str, int]) -> None:
        """Store ``counts`` (text -> tokens)."""
        self._insert("token_counts", [(self.model, text, int(tokens)) for text, tokens in counts.items()])

    def vectors(self, keys: Sequence[tuple[str, int]]) -> dict[tuple[str, int], torch.Tensor]:
        """The stored vectors of those of ``keys`` (text, padded length) that have one."""
        wanted = set(keys)
        found: dict[tuple[str, int], torch.Tensor] = {}
        texts = list(dict.fromkeys(text for text, _ in keys))
        for rows in self._select("SELECT text, width, vector FROM vectors WHERE model = ? AND text IN ({})", texts):
            for text, width, vector in rows:
                if (text, width) in wanted:
                    found[(text, int(width))] = torch.frombuffer(bytearray(vector), dtype=torch.float32)
        return found

    def put_vectors(self, vectors: Mapping[tuple[str, int], torch.Tensor]) -> None:
        """Store ``vectors`` ((text, padded length) -> float32 vector)."""
        rows = [(self.model, text, width, vector.to(torch.float32).contiguous().numpy().tobytes())
                for (text, width), vector in vectors.items()]  # fmt: skip
        self._insert("vectors", rows)

    def _select(self, query: str, texts: Sequence[str]) -> Iterator[list[tuple]]:
        """``query``'s rows for ``texts``, a chunk at a time (none when the store cannot be read)."""
        if not texts or not self.path.exists():
            return
        try:
            with self._connection() as connection:
                for start in range(0, len(texts), _CHUNK):
                    chunk = texts[start : start + _CHUNK]
                    yield connection.execute(query.format(",".join("?" * len(chunk))), (self.model, *chunk)).fetchall()
        except (sqlite3.Error, OSError) as error:
            logger.debug("sentence embeddings: not read (%s)", error)

    def _insert(self, table: str, rows: Sequence[tuple]) -> None:
        """Add ``rows`` to ``table`` (those already there are kept), then drop its oldest rows beyond :data:`MAX_VECTORS`."""
        if not rows:
            return
        try:
            with self._connection() as connection:
                connection.executemany(f"INSERT OR IGNORE INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
                connection.execute(f"DELETE FROM {table} WHERE rowid <= (SELECT MAX(rowid) FROM {table}) - {MAX_VECTORS}")
        except (sqlite3.Error, OSError) as error:
            logger.debug("sentence embeddings: not written (%s)", error)

    def _connection(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A connection for one transaction (committed when the block ends), then closed."""
        return store_transaction(
            self.path,
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, text TEXT NOT NULL, width INTEGER NOT NULL, "
            "vector BLOB NOT NULL, PRIMARY KEY (model, text, width))",
            "CREATE TABLE IF NOT EXISTS token_counts (model TEXT NOT NULL, text TEXT NOT NULL, tokens INTEGER "
            "NOT NULL, PRIMARY KEY (model, text))",
        )
