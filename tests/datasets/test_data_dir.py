"""Tests for resolve_data_dir: explicit argument, environment variable, missing folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from textattack_semparse.datasets.data_dir import resolve_data_dir, resolve_test_suite_dir
from textattack_semparse.errors import DatasetError


def test_unset_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SEMPARSE_DATA_DIR", raising=False)
    assert resolve_data_dir() is None


def test_empty_env_counts_as_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    assert resolve_data_dir() is None


def test_env_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(tmp_path))
    assert resolve_data_dir() == tmp_path


def test_explicit_argument_wins_over_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(tmp_path / "missing"))
    explicit = tmp_path / "data"
    explicit.mkdir()
    assert resolve_data_dir(str(explicit)) == explicit


def test_missing_explicit_dir_names_it_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"'.*nowhere' \(from the data_dir argument\) does not exist.*geo-mini"):
        resolve_data_dir(tmp_path / "nowhere")


def test_missing_env_dir_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(tmp_path / "gone"))
    with pytest.raises(DatasetError, match="from the environment variable SEMPARSE_DATA_DIR"):
        resolve_data_dir()


def test_a_file_is_not_a_data_dir(tmp_path: Path) -> None:
    file = tmp_path / "geography.json"
    file.write_text("[]", encoding="utf-8")
    with pytest.raises(DatasetError, match="is not a directory"):
        resolve_data_dir(file)


def test_test_suite_dir_follows_the_same_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SEMPARSE_TEST_SUITE_DIR", raising=False)
    assert resolve_test_suite_dir() is None
    monkeypatch.setenv("SEMPARSE_TEST_SUITE_DIR", str(tmp_path))
    assert resolve_test_suite_dir() == tmp_path
    with pytest.raises(DatasetError, match=r"\(from the test_suite_dir argument\).*test-suite build --benchmark"):
        resolve_test_suite_dir(tmp_path / "nowhere")
