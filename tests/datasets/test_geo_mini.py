"""Tests for the embedded geo-mini benchmark: its files, its database and its questions."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.datasets.text2sql import load_text2sql
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.execution_scorer import TIMEOUT
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor

TABLE_COLUMNS = {
    "state": ["state_name", "population", "area", "country_name", "capital", "density"],
    "city": ["city_name", "population", "country_name", "state_name"],
    "river": ["river_name", "length", "country_name", "traverse"],
    "border_info": ["state_name", "border"],
    "highlow": ["state_name", "highest_elevation", "lowest_point", "highest_point", "lowest_elevation"],
    "lake": ["lake_name", "area", "country_name", "state_name"],
    "mountain": ["mountain_name", "mountain_altitude", "country_name", "state_name"],
}


@pytest.fixture(scope="module")
def examples() -> list[SemparseExample]:
    json_path, _ = geo_mini_paths()
    return load_text2sql(json_path)


def test_paths_exist(private_cache: Path) -> None:
    json_path, database = geo_mini_paths()
    assert json_path.is_file() and json_path.name == "geo-mini.json"
    assert database.is_file() and database.parent == private_cache / "sqlite"


def test_database_is_built_once_and_reused() -> None:
    _, first = geo_mini_paths()
    mtime = first.stat().st_mtime_ns
    _, second = geo_mini_paths()
    assert second == first and second.stat().st_mtime_ns == mtime
    assert not list(first.parent.glob("*.tmp")), "no temporary file is left behind"


def test_database_name_is_keyed_by_script_hash() -> None:
    _, database = geo_mini_paths()
    assert re.fullmatch(r"geo-mini-[0-9a-f]{16}\.sqlite", database.name)


def test_unwritable_cache_raises_dataset_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(blocker))
    with pytest.raises(DatasetError, match="Cannot build the geo-mini database.*TEXTATTACK_SEMPARSE_CACHE"):
        geo_mini_paths()


def test_schema_matches_geoquery() -> None:
    _, database = geo_mini_paths()
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        for table, columns in TABLE_COLUMNS.items():
            found = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            assert found == columns, table
            assert connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] > 0, table


def test_borders_are_symmetric_and_between_listed_states() -> None:
    _, database = geo_mini_paths()
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        pairs = set(connection.execute("SELECT state_name, border FROM border_info"))
        states = {row[0] for row in connection.execute("SELECT state_name FROM state")}
    assert pairs == {(b, a) for a, b in pairs}
    assert {name for pair in pairs for name in pair} <= states


def test_every_capital_is_a_city_of_its_state() -> None:
    _, database = geo_mini_paths()
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        missing = connection.execute(
            "SELECT s.capital FROM state AS s LEFT JOIN city AS c "
            "ON c.city_name = s.capital AND c.state_name = s.state_name WHERE c.city_name IS NULL"
        ).fetchall()
    assert missing == []


def test_size_templates_and_splits(examples: list[SemparseExample]) -> None:
    assert len(examples) >= 80
    assert 35 <= len({example.template_gold for example in examples}) <= 45
    question_split = Counter(example.question_split for example in examples)
    query_split = Counter(example.query_split for example in examples)
    assert set(question_split) == set(query_split) == {"train", "dev", "test"}
    assert 0.55 <= question_split["train"] / len(examples) <= 0.75
    assert 0.18 <= question_split["test"] / len(examples) <= 0.32


def test_every_gold_executes_non_empty(examples: list[SemparseExample]) -> None:
    _, database = geo_mini_paths()
    executor = SQLiteExecutor(database, timeout=TIMEOUT)
    failures = {}
    for example in examples:
        result = executor.execute(example.gold)
        if result.error or not result.rows:
            failures[example.question] = result.error or "empty"
    assert failures == {}


def test_some_templates_only_in_query_test(examples: list[SemparseExample]) -> None:
    train_templates = {e.template_gold for e in examples if e.query_split == "train"}
    test_templates = {e.template_gold for e in examples if e.query_split == "test"}
    assert test_templates and not test_templates & train_templates


def test_most_test_questions_have_a_train_template_sibling(examples: list[SemparseExample]) -> None:
    train_templates = {e.template_gold for e in examples if e.question_split == "train"}
    test = [e for e in examples if e.question_split == "test"]
    covered = sum(e.template_gold in train_templates for e in test)
    assert covered / len(test) >= 0.9


def test_questions_are_lowercase_geoquery_style(examples: list[SemparseExample]) -> None:
    for example in examples:
        assert example.question == example.question.lower().strip()
        assert example.gold.endswith(" ;") and example.gold.startswith("SELECT ")
        assert not re.search(r"\b[a-z_]+name\d\b|\bcapital\d\b", example.question + example.gold)


def test_multi_word_values_and_function_words(examples: list[SemparseExample]) -> None:
    values = {value for example in examples for value in example.variables.values()}
    assert {"new york", "rio grande", "rhode island"} <= values
    with_function_words = [e for e in examples if {"the", "of", "in"} & set(e.question.split())]
    assert len(with_function_words) >= len(examples) // 2
