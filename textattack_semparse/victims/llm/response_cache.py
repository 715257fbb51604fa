"""A persistent cache of LLM completions, so an attack, a re-run or a resumed run never pays
twice for the same prompt.

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model", query Codex thousands of times per study; the perturbed questions of one
attack recur across strategies and runs. Completions are stored in SQLite, keyed by the model,
the full prompt and the decoding parameters (a SHA-256 of their canonical JSON), one row per
key. Writes are committed at once, so a run killed midway keeps every completion it received.
The cache is safe to share between threads (one connection, a lock) and between processes
(SQLite's own locking, WAL journal).

Original to textattack-semparse. This module does not import TextAttack.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textattack_semparse.errors import ConfigurationTypeError


@dataclass(frozen=True)
class CacheCounts:
    """Lookups answered from the cache (``hits``) and not (``misses``) since it was opened."""

    hits: int
    misses: int


class ResponseCache:
    """Completions by (model, prompt, decoding parameters), in an SQLite file.

    Args:
        path (str | os.PathLike): The SQLite file (created with its folder if missing).

    Example:
        >>> import tempfile, pathlib
        >>> cache = ResponseCache(pathlib.Path(tempfile.mkdtemp()) / "responses.sqlite")
        >>> cache.get("smollm2", "-- how big is texas\\nSELECT", {"temperature": 0}) is None
        True
        >>> cache.put("smollm2", "-- how big is texas\\nSELECT", {"temperature": 0}, " area FROM state")
        >>> cache.get("smollm2", "-- how big is texas\\nSELECT", {"temperature": 0})
        ' area FROM state'
        >>> cache.counts()
        CacheCounts(hits=1, misses=1)
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0
        self._connection = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, "
            "prompt TEXT NOT NULL, parameters TEXT NOT NULL, completion TEXT NOT NULL)"
        )
        self._connection.commit()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.path)!r})"

    def __len__(self) -> int:
        with self._lock:
            return self._connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def get(self, model: str, prompt: str, parameters: Mapping[str, Any]) -> str | None:
        """The stored completion, or ``None`` (counted as a miss)."""
        key = cache_key(model, prompt, parameters)
        with self._lock:
            row = self._connection.execute("SELECT completion FROM responses WHERE key = ?", (key,)).fetchone()
            if row is None:
                self._misses += 1
                return None
            self._hits += 1
            return row[0]

    def put(self, model: str, prompt: str, parameters: Mapping[str, Any], completion: str) -> None:
        """Store ``completion`` (replacing an earlier one for the same key) and commit."""
        if not isinstance(completion, str):
            raise TypeError(f"completion must be a str, got {type(completion).__name__}.")
        key = cache_key(model, prompt, parameters)
        with self._lock:
            self._connection.execute(
                "INSERT OR REPLACE INTO responses (key, model, prompt, parameters, completion) VALUES (?, ?, ?, ?, ?)",
                (key, model, prompt, _canonical(parameters), completion),
            )
            self._connection.commit()

    def counts(self) -> CacheCounts:
        with self._lock:
            return CacheCounts(self._hits, self._misses)

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __getstate__(self) -> dict[str, Any]:
        # A victim holding the cache may be pickled (TextAttack's parallel workers): reopen by path.
        return {"path": str(self.path)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])  # type: ignore[misc]


def cache_key(model: str, prompt: str, parameters: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of (model, prompt, parameters): equal for equal requests,
    whatever the order of the parameters.

    Example:
        >>> cache_key("m", "p", {"a": 1, "b": 2}) == cache_key("m", "p", {"b": 2, "a": 1})
        True
    """
    payload = json.dumps([model, prompt, json.loads(_canonical(parameters))], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _canonical(parameters: Mapping[str, Any]) -> str:
    try:
        return json.dumps(dict(parameters), sort_keys=True, ensure_ascii=False)
    except TypeError as error:
        raise ConfigurationTypeError(f"Decoding parameters must be JSON values (numbers, strings, lists): {error}.") from error
