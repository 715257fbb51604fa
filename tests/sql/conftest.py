"""Fixtures for the sql tests: a small GeoQuery-like SQLite database written per test."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

STATES = [
    ("texas", 14229000, 266807.0, "austin", 53.33),
    ("ohio", 10798000, 41330.0, "columbus", 261.26),
    ("alaska", 401800, 591004.0, "juneau", 0.68),
    ("rhode island", 947200, 1212.0, "providence", 781.52),
]
CITIES = [
    ("houston", 1595138, "texas"),
    ("dallas", 904078, "texas"),
    ("austin", 345496, "texas"),
    ("columbus", 564871, "ohio"),
    ("anchorage", 174431, "alaska"),
    ("providence", 156804, "rhode island"),
]
BORDERS = [("texas", "oklahoma"), ("ohio", "indiana"), ("ohio", "kentucky")]


def write_geo_db(path: Path) -> Path:
    """Write the small GeoQuery-like database to ``path`` and return it."""
    with sqlite3.connect(path) as connection:
        connection.execute(
            "CREATE TABLE state (state_name TEXT, population INTEGER, area REAL, capital TEXT, density REAL)"
        )
        connection.execute("CREATE TABLE city (city_name TEXT, population INTEGER, state_name TEXT)")
        connection.execute("CREATE TABLE border_info (state_name TEXT, border TEXT)")
        connection.executemany("INSERT INTO state VALUES (?, ?, ?, ?, ?)", STATES)
        connection.executemany("INSERT INTO city VALUES (?, ?, ?)", CITIES)
        connection.executemany("INSERT INTO border_info VALUES (?, ?)", BORDERS)
    connection.close()
    return path


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def file_digest() -> Callable[[Path], str]:
    """The sha256 of a file's bytes, to prove a database was not modified."""
    return _sha256


@pytest.fixture
def geo_db(tmp_path: Path) -> Path:
    return write_geo_db(tmp_path / "geo.sqlite")


@pytest.fixture
def data_dir() -> Path:
    """The real benchmarks' directory; skips the test when SEMPARSE_DATA_DIR is unset."""
    value = os.environ.get("SEMPARSE_DATA_DIR")
    if not value:
        pytest.skip("SEMPARSE_DATA_DIR is not set: real GeoQuery data unavailable")
    return Path(value)
