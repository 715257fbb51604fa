"""Shared fixtures: offline settings, the real-data directory, headless Chromium for the pages the package writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.browser import chromium_or_reason

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


# --- Browser fixtures: headless Chromium (tools/browser.py) and where its artifacts are kept ---

REPOSITORY = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium (installed first when missing and possible), or a skip naming the fix."""
    executable, reason = chromium_or_reason()
    if executable is None:
        pytest.skip(f"headless Chromium unavailable: {reason}")
    return executable


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Where browser tests leave screenshots and pages for a person (or a CI run) to look at:
    ``$TEST_ARTIFACTS_DIR``, else ``test-artifacts/`` at the repository's root."""
    directory = Path(os.environ.get("TEST_ARTIFACTS_DIR") or REPOSITORY / "test-artifacts")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


# --- end of the browser fixtures ---
