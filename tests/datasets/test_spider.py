"""Tests for the Spider JSON loader and, with the real data, the Spider dev benchmark."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.spider import load_spider
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring import Databases, ExecutionScorer
from textattack_semparse.sql.sqlite_executor import executor_for

ENTRY = {
    "db_id": "concert_singer",
    "query": "SELECT count(*) FROM singer",
    "question": "How many singers do we have?",
    "query_toks": ["SELECT", "count", "(", "*", ")", "FROM", "singer"],
}


def write(tmp_path: Path, entries: Any) -> Path:
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def test_entry_becomes_example_with_db_id_and_dev_split(tmp_path: Path) -> None:
    (example,) = load_spider(write(tmp_path, [ENTRY]))
    assert (example.question, example.gold, example.db_id) == (
        "How many singers do we have?",
        "SELECT count(*) FROM singer",
        "concert_singer",
    )
    assert example.question_split == example.query_split == "dev"
    assert example.template_question is None and dict(example.variables) == {}


def test_split_label_is_a_parameter(tmp_path: Path) -> None:
    (example,) = load_spider(write(tmp_path, [ENTRY]), split="train")
    assert example.question_split == "train"


@pytest.mark.parametrize("field", ["question", "query", "db_id"])
def test_entry_without_field_names_file_entry_and_field(tmp_path: Path, field: str) -> None:
    broken = {key: value for key, value in ENTRY.items() if key != field}
    with pytest.raises(DatasetError, match=rf"dev\.json: entry 1 has no '{field}'"):
        load_spider(write(tmp_path, [ENTRY, broken]))


def test_non_list_file_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="holds a JSON dict"):
        load_spider(write(tmp_path, {"data": [ENTRY]}))


def test_invalid_json_reports_position(tmp_path: Path) -> None:
    path = tmp_path / "dev.json"
    path.write_text("[{", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"not valid JSON \(line 1"):
        load_spider(path)


def test_missing_file_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"does not exist.*spider-dev/"):
        load_spider(tmp_path / "dev.json")


# real data (SEMPARSE_DATA_DIR)


@pytest.mark.real_data
def test_spider_benchmark_sizes_and_databases(data_dir: Path) -> None:
    spider = load_benchmark("spider", data_dir=data_dir)
    assert len(spider.examples) == 1034 and spider.scoring.scorer == ExecutionScorer(mode="test-suite")
    assert spider.database is None and spider.databases == Databases(root=data_dir / "spider-dev" / "database")
    assert len({example.db_id for example in spider.examples}) == 20
    assert len(spider.split("question", "dev")) == len(spider.split("query", "dev")) == 1034


@pytest.mark.real_data
def test_spider_has_no_test_split(data_dir: Path) -> None:
    with pytest.raises(DatasetError, match=r"'test' does not exist.*available: dev"):
        load_benchmark("spider", data_dir=data_dir).split("question", "test")


@pytest.mark.real_data
def test_spider_dataset_has_question_and_db_id_columns(data_dir: Path) -> None:
    dataset = load_benchmark("spider", data_dir=data_dir).dataset("question", "dev")
    assert dataset.input_columns == ("question", "db_id")
    columns, gold = dataset[0]
    assert columns == {"question": "How many singers do we have?", "db_id": "concert_singer"}
    assert gold == "SELECT count(*) FROM singer"


@pytest.mark.real_data
def test_all_spider_gold_queries_run(data_dir: Path) -> None:
    spider = load_benchmark("spider", data_dir=data_dir)
    assert spider.databases is not None and spider.databases.root is not None
    counts: Counter[str] = Counter()
    for example in spider.examples:
        database = spider.databases.for_example(example.db_id)[0]
        assert database == spider.databases.root / str(example.db_id) / f"{example.db_id}.sqlite"
        result = executor_for(database, timeout=60.0).execute(example.gold)
        counts["error" if result.error else "non-empty" if result.rows else "empty"] += 1
    assert counts == Counter({"non-empty": 1007, "empty": 27})
