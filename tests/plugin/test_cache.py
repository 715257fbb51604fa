"""The cache directory shared by converted databases, geo-mini and NLTK resources."""

from __future__ import annotations

from pathlib import Path

from textattack_semparse.cache import CACHE_ENV, cache_dir, write_atomically


def test_cache_dir_honours_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    assert cache_dir() == tmp_path / "cache"
    monkeypatch.delenv(CACHE_ENV)
    assert cache_dir() == Path.home() / ".cache" / "textattack_semparse"


def test_write_atomically_creates_parents_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "a" / "b" / "file.txt"
    write_atomically(target, b"x\n")
    assert target.read_bytes() == b"x\n"
    assert [path.name for path in target.parent.iterdir()] == ["file.txt"]
