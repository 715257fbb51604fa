"""A test run never reads the user's state: ``tests/conftest.py`` gives it a home and a plugin
cache of its own (empty at its start), so a user's filled caches change no result."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TEST_HOME, USER_STATE, USER_STATE_VARIABLES
from textattack_semparse.cache import cache_dir

REPOSITORY = Path(__file__).resolve().parents[2]
TEXTS = ["how many rivers are in texas", "what is the capital of ohio", "which states border utah"]

PROBE = """
import json, sys
if sys.argv[1] == "test-run":
    import tests.conftest  # what every test run imports first
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings
texts = json.loads(sys.argv[2])
(stored,) = SentenceEmbeddings(cache_size=0).encode_each([texts])
(fresh,) = SentenceEmbeddings(cache_size=0, persistent=False).encode_each([texts])
print(json.dumps({"same": bool((stored == fresh).all()), "zeros": bool((stored == 0).all())}))
"""
"""Embeddings through the disk store (``persistent``) against the same computed afresh, in a
fresh interpreter, as a test run (``tests.conftest`` imported) or as a user's process."""


def test_the_run_has_a_home_and_a_cache_of_its_own() -> None:
    assert Path.home() == TEST_HOME and cache_dir().is_relative_to(TEST_HOME)
    for value in USER_STATE.values():
        assert value is None or not cache_dir().is_relative_to(value)
    assert not any(name in os.environ for name in USER_STATE_VARIABLES)


def _fill_a_user_store_with_zeros(user_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's embedding store holding the packaged model's real keys for :data:`TEXTS`, with
    every vector replaced by zeros: what a stale or broken store would hand back."""
    from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings

    with monkeypatch.context() as patched:
        patched.setenv("TEXTATTACK_SEMPARSE_CACHE", str(user_cache))
        SentenceEmbeddings(cache_size=0).encode_each([TEXTS])
    store = user_cache / "sentence_embeddings.sqlite"
    with sqlite3.connect(store) as connection:
        updated = connection.execute("UPDATE vectors SET vector = zeroblob(length(vector))").rowcount
    assert updated == len(TEXTS)
    return store


def _probe(mode: str, home: Path, user_cache: Path) -> dict[str, bool]:
    env = {**os.environ, "HOME": str(home), "TEXTATTACK_SEMPARSE_CACHE": str(user_cache)}
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, mode, json.dumps(TEXTS)], cwd=REPOSITORY, env=env,
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_a_filled_user_store_changes_no_result_of_a_test_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    user_cache = home / ".cache" / "textattack_semparse"
    store = _fill_a_user_store_with_zeros(user_cache, monkeypatch)
    before = store.read_bytes()

    assert _probe("user", home, user_cache) == {"same": False, "zeros": True}  # a user's process reads it
    assert _probe("test-run", home, user_cache) == {"same": True, "zeros": False}  # a test run does not
    assert store.read_bytes() == before  # nor writes to it
