"""Shared fixtures: offline settings, the real-data directory, subprocess helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Tests that score on a test suite pass its folder explicitly; a user's suites must not leak in.
os.environ.pop("SEMPARSE_TEST_SUITE_DIR", None)


@pytest.fixture(scope="session")
def real_data_dir() -> Path:
    """``SEMPARSE_DATA_DIR``, or a visible skip when it is unset."""
    value = os.environ.get("SEMPARSE_DATA_DIR")
    if not value:
        pytest.skip("SEMPARSE_DATA_DIR is unset: real-benchmark test skipped (CI sets it to ../shared/data)")
    path = Path(value)
    if not path.is_dir():
        pytest.skip(f"SEMPARSE_DATA_DIR={value} is not a directory")
    return path
