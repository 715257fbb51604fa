"""Fixtures for the dataset tests: a private cache directory and the real-data directory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import clear_benchmark_cache


@pytest.fixture(scope="session")
def cache_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("semparse-cache")


@pytest.fixture(scope="module", autouse=True)
def private_cache(cache_root: Path) -> Iterator[Path]:
    """Build derived databases under a temporary directory, never in ~/.cache.

    Module-scoped so that module-scoped fixtures see it too.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(cache_root))
        clear_benchmark_cache()
        yield cache_root
    clear_benchmark_cache()


@pytest.fixture
def data_dir() -> Path:
    """The real benchmarks' directory; skips the test when SEMPARSE_DATA_DIR is unset."""
    value = os.environ.get("SEMPARSE_DATA_DIR")
    if not value:
        pytest.skip("SEMPARSE_DATA_DIR is not set: real GeoQuery data unavailable")
    return Path(value)
