"""Hub loaders (datasets/hub.py) on local folders in each Hub dataset's layout and schema.

``datasets.load_dataset`` reads the folder exactly as it reads the Hub's files from its cache:
parquet files per split with the Hub dataset's features, written here by ``datasets`` itself.
Nothing reaches the network (HF_HUB_OFFLINE=1); ``datasets``' own cache goes to tmp_path. Where
the real release is in SEMPARSE_DATA_DIR, the Hub rows are built from it as the Hub's dataset
scripts built them, and the Hub loader must give the local loader's examples.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import pytest
from datasets import Features, Sequence, Value

from textattack_semparse.datasets.benchmark_loaders import load_spider_benchmark, load_wtq_benchmark
from textattack_semparse.datasets.hub import (
    load_spider_hub_benchmark,
    load_wikisql_weak_hub_benchmark,
    load_wtq_hub_benchmark,
)
from textattack_semparse.datasets.wikisql_weak import load_wikisql_weak
from textattack_semparse.errors import DatasetError

SPIDER_FEATURES = Features(
    {
        "db_id": Value("string"),
        "query": Value("string"),
        "question": Value("string"),
        "query_toks": Sequence(Value("string")),
        "query_toks_no_value": Sequence(Value("string")),
        "question_toks": Sequence(Value("string")),
    }
)
WTQ_FEATURES = Features(
    {
        "id": Value("string"),
        "question": Value("string"),
        "answers": Sequence(Value("string")),
        "table": {
            "header": Sequence(Value("string")),
            "rows": Sequence(Sequence(Value("string"))),
            "name": Value("string"),
        },
    }
)
WIKISQL_FEATURES = Features(
    {
        "phase": Value("int32"),
        "question": Value("string"),
        "table": {
            "header": Sequence(Value("string")),
            "page_title": Value("string"),
            "page_id": Value("string"),
            "types": Sequence(Value("string")),
            "id": Value("string"),
            "section_title": Value("string"),
            "caption": Value("string"),
            "rows": Sequence(Sequence(Value("string"))),
            "name": Value("string"),
        },
        "sql": {
            "human_readable": Value("string"),
            "sel": Value("int32"),
            "agg": Value("int32"),
            "conds": Sequence(
                {"column_index": Value("int32"), "operator_index": Value("int32"), "condition": Value("string")}
            ),
        },
    }
)


@pytest.fixture(autouse=True)
def datasets_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``datasets`` prepares what it loads under tmp_path, never in ~/.cache."""
    cache = tmp_path / "hf-datasets-cache"
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", cache)
    return cache


def write_split(path: Path, rows: list[dict[str, Any]], features: Features) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_list(rows, features=features).to_parquet(str(path))


def spider_row(question: str, query: str, db_id: str) -> dict[str, Any]:
    return {
        "db_id": db_id,
        "query": query,
        "question": question,
        "query_toks": query.split(),
        "query_toks_no_value": query.split(),
        "question_toks": question.split(),
    }


def wtq_hub_row(root: Path, line: str) -> dict[str, Any]:
    """A line of a WTQ question file as the Hub's wikitablequestions.py made its row."""
    example_id, question, context, target = line.split("\t")
    table_name = context.replace(".csv", ".tsv")
    lines = (root / table_name).read_text(encoding="utf-8").removesuffix("\n").split("\n")
    cells = [[cell.replace("\n", " ").strip() for cell in text.split("\t")] for text in lines]
    return {
        "id": example_id,
        "question": question,
        "answers": target.split("|"),
        "table": {"header": cells[0], "rows": cells[1:], "name": table_name},
    }


def test_spider_hub_rows_become_spider_examples_with_dev_for_validation(tmp_path: Path) -> None:
    hub = tmp_path / "spider-hub"
    write_split(hub / "spider" / "train-00000-of-00001.parquet",
                [spider_row("How many heads? ", "SELECT count(*) FROM head", "department_management")], SPIDER_FEATURES)
    write_split(hub / "spider" / "validation-00000-of-00001.parquet",
                [spider_row("How many singers?", "SELECT count(*) FROM singer", "concert_singer")], SPIDER_FEATURES)
    (tmp_path / "data" / "spider-dev" / "database").mkdir(parents=True)
    benchmark = load_spider_hub_benchmark(name="spider-hub", data_dir=tmp_path / "data", hub_dataset=str(hub))
    assert [(e.question, e.gold, e.db_id, e.question_split) for e in benchmark.split("question", "dev")] == [
        ("How many singers?", "SELECT count(*) FROM singer", "concert_singer", "dev")
    ]
    assert benchmark.split("question", "train")[0].question == "How many heads?"
    assert benchmark.databases is not None and benchmark.databases.root == tmp_path / "data" / "spider-dev" / "database"


def test_spider_hub_without_databases_names_where_they_go(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"SEMPARSE_DATA_DIR/spider-dev/database/.*; set SEMPARSE_DATA_DIR\.$"):
        load_spider_hub_benchmark(name="spider-hub", data_dir=None, hub_dataset=str(tmp_path))


def test_spider_hub_row_without_a_query_is_named(tmp_path: Path) -> None:
    hub = tmp_path / "spider-hub"
    write_split(hub / "spider" / "validation-00000-of-00001.parquet",
                [spider_row("How many singers?", "", "concert_singer")], SPIDER_FEATURES)
    (tmp_path / "spider-dev" / "database").mkdir(parents=True)
    with pytest.raises(DatasetError, match=rf"{hub} dev row 0 has no 'query'"):
        load_spider_hub_benchmark(name="spider-hub", data_dir=tmp_path, hub_dataset=str(hub))


def test_hub_dataset_offline_and_not_cached_is_one_line_naming_both_ways_out() -> None:
    with pytest.raises(DatasetError) as raised:
        load_wtq_hub_benchmark(name="wtq-hub", data_dir=None)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("Benchmark 'wtq-hub' reads 'stanfordnlp/wikitablequestions' from the Hugging Face Hub")
    assert "go online once (HF_HUB_OFFLINE unset)" in message
    assert "use the benchmark 'wtq' with wtq/data/ and wtq/csv/ under SEMPARSE_DATA_DIR" in message


def test_local_table_qa_benchmark_without_data_names_the_hub_benchmark() -> None:
    with pytest.raises(DatasetError, match=r"Set SEMPARSE_DATA_DIR .* or read it from the Hugging Face Hub with 'wtq-hub'\.$"):
        load_wtq_benchmark(name="wtq", data_dir=None)


def test_local_spider_without_data_names_spider_hub() -> None:
    with pytest.raises(DatasetError, match=r"read the questions from the Hugging Face Hub with 'spider-hub'"):
        load_spider_benchmark(name="spider", data_dir=None)


def test_wtq_hub_row_rebuilds_context_answer_and_unescaped_table(tmp_path: Path) -> None:
    hub = tmp_path / "wtq-hub"
    row = {
        "id": "nt-7",
        "question": r"which team\pclub won in 2004?",
        "answers": ["Athens", r"Rome\pLazio"],
        "table": {"header": ["Year", "Club"], "rows": [["2004", r"Rome\pLazio"]], "name": "csv/200-csv/0.tsv"},
    }
    for split in ("train", "validation", "test"):
        write_split(hub / "random-split-1" / split / "0000.parquet", [row], WTQ_FEATURES)
    benchmark = load_wtq_hub_benchmark(name="wtq-hub", data_dir=None, hub_dataset=str(hub))
    (example,) = benchmark.split("question", "dev")
    assert example.question == "which team|club won in 2004?"
    assert example.gold == r"Athens|Rome\pLazio"  # WTQ's targetValue, verbatim
    assert example.db_id == "csv/200-csv/0.csv"
    assert example.table is not None and example.table.rows == (("2004", "Rome|Lazio"),)
    assert benchmark.scoring.scorer.name == "denotation"


def test_wikisql_hub_rows_give_the_local_loaders_examples(tmp_path: Path) -> None:
    table = {
        "id": "1-100-1",
        "header": ["Player", "Country", "Goals"],
        "types": ["text", "text", "real"],
        "rows": [["Ann Lee", "Norway", "3"], ["Bo Kim", "Sweden", "12"], ["Cy Dahl", "norway", "7"]],
    }
    questions = [
        {"phase": 1, "table_id": "1-100-1", "question": "Who is from Norway?", "sql": {"sel": 0, "agg": 0, "conds": [[1, 0, "NORWAY"]]}},
        {"phase": 1, "table_id": "1-100-1", "question": "How many scored over 5?", "sql": {"sel": 0, "agg": 3, "conds": [[2, 1, 5]]}},
    ]
    local = tmp_path / "local"
    local.mkdir()
    (local / "dev.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    (local / "dev.tables.jsonl").write_text(json.dumps(table) + "\n", encoding="utf-8")
    hub_table = {**table, "page_title": "", "page_id": "", "section_title": "", "caption": "", "name": "table_1_100_1"}
    hub_rows = [
        {
            "phase": q["phase"],
            "question": q["question"],
            "table": hub_table,
            "sql": {  # as Salesforce/wikisql's script: a sequence of condition structs (in Arrow, a struct of
                # lists), each value as text
                "human_readable": "",
                "sel": q["sql"]["sel"],
                "agg": q["sql"]["agg"],
                "conds": {
                    "column_index": [c[0] for c in q["sql"]["conds"]],
                    "operator_index": [c[1] for c in q["sql"]["conds"]],
                    "condition": [str(c[2]) for c in q["sql"]["conds"]],
                },
            },
        }
        for q in questions
    ]
    hub = tmp_path / "wikisql-hub"
    write_split(hub / "default" / "validation" / "0000.parquet", hub_rows, WIKISQL_FEATURES)
    benchmark = load_wikisql_weak_hub_benchmark(name="wikisql-weak-hub", data_dir=None, hub_dataset=str(hub))
    expected = load_wikisql_weak(local / "dev.jsonl", split="dev")
    assert benchmark.split("question", "dev") == expected
    assert [example.gold for example in expected] == ["Ann Lee|Cy Dahl", "2"]


@pytest.mark.real_data
def test_real_spider_dev_from_hub_rows_equals_the_local_benchmark(real_data_dir: Path, tmp_path: Path) -> None:
    entries = json.loads((real_data_dir / "spider-dev" / "dev.json").read_text(encoding="utf-8"))[:40]
    hub = tmp_path / "spider-hub"
    rows = [spider_row(entry["question"], entry["query"], entry["db_id"]) for entry in entries]
    write_split(hub / "spider" / "validation-00000-of-00001.parquet", rows, SPIDER_FEATURES)
    from_hub = load_spider_hub_benchmark(name="spider-hub", data_dir=real_data_dir, hub_dataset=str(hub))
    local = load_spider_benchmark(name="spider", data_dir=real_data_dir)
    assert from_hub.split("question", "dev") == local.split("question", "dev")[:40]
    assert from_hub.databases == local.databases


@pytest.mark.real_data
def test_real_wtq_dev_from_hub_rows_equals_the_local_benchmark(real_data_dir: Path, tmp_path: Path) -> None:
    root = real_data_dir / "wtq"
    hub = tmp_path / "wtq-hub"
    for split, file in (("train", "random-split-1-train"), ("validation", "random-split-1-dev"),
                        ("test", "pristine-unseen-tables")):
        lines = (root / "data" / f"{file}.tsv").read_text(encoding="utf-8").split("\n")[1:41]
        write_split(hub / "random-split-1" / split / "0000.parquet", [wtq_hub_row(root, line) for line in lines],
                    WTQ_FEATURES)
    from_hub = load_wtq_hub_benchmark(name="wtq-hub", data_dir=None, hub_dataset=str(hub))
    local = load_wtq_benchmark(name="wtq", data_dir=real_data_dir)
    for split in ("train", "dev", "test"):
        hub_examples, local_examples = from_hub.split("question", split), local.split("question", split)[:40]
        assert [(e.question, e.gold, e.db_id) for e in hub_examples] == [
            (e.question, e.gold, e.db_id) for e in local_examples
        ]
        # The Hub strips each cell, as its dataset script did; the cells are otherwise the local ones.
        for hub_example, local_example in zip(hub_examples, local_examples):
            assert hub_example.table is not None and local_example.table is not None
            assert hub_example.table.header == tuple(cell.strip() for cell in local_example.table.header)
            assert hub_example.table.rows == tuple(
                tuple(cell.strip() for cell in row) for row in local_example.table.rows
            )
