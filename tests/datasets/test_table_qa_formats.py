"""WikiSQL-Weak and SQA loaders on small files written here in the released formats.

WikiSQL answers are the denotations of the SQL as WikiSQL's engine (lib/dbengine.py) runs it
on the table's SQLite copy: ``SELECT agg(col) FROM table WHERE col op value AND ...``, text
compared lowercased, values on ``real`` columns read as numbers; the expected answers below
are worked out from those rules by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.sqa import load_sqa
from textattack_semparse.datasets.wikisql_weak import load_wikisql_weak, wikisql_denotation
from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table

TABLE = {
    "id": "1-100-1",
    "header": ["Player", "Country", "Goals", "Year"],
    "types": ["text", "text", "real", "real"],
    "rows": [
        ["Ann Lee", "Norway", 3, "1998"],
        ["Bo Kim", "Sweden", "12", "2001"],
        ["Cy Dahl", "norway", "7", "2001"],
        ["Di Orr", "Denmark", "n/a", "1,998"],
    ],
}


def run(sel: int, agg: int, conds: list[list[Any]]) -> list[str]:
    table = Table(TABLE["header"], [[str(cell) for cell in row] for row in TABLE["rows"]], name=TABLE["id"])
    return wikisql_denotation(table, TABLE["types"], {"sel": sel, "agg": agg, "conds": conds})


# Text conditions: both sides lowercased, so "NORWAY" finds "Norway" and "norway".
def test_text_equality_ignores_case() -> None:
    assert run(0, 0, [[1, 0, "NORWAY"]]) == ["Ann Lee", "Cy Dahl"]


# Real columns compare numbers; a value with words gives its first number ("10 goals" -> 10);
# a non-numeric cell ("n/a") is text, which SQLite orders above every number.
def test_real_conditions_compare_numbers() -> None:
    assert run(0, 0, [[2, 2, "10 goals"]]) == ["Ann Lee", "Cy Dahl"]
    assert run(0, 0, [[2, 1, 5]]) == ["Bo Kim", "Cy Dahl", "Di Orr"]
    assert run(0, 0, [[3, 0, "1,998"]]) == ["Ann Lee", "Di Orr"]
    assert run(0, 0, [[2, 0, "7.0"], [3, 0, 2001]]) == ["Cy Dahl"]


# Aggregations ['', 'MAX', 'MIN', 'COUNT', 'SUM', 'AVG'].
def test_aggregations() -> None:
    assert run(2, 4, [[3, 0, "2001"]]) == ["19"]  # SUM 12 + 7
    assert run(2, 5, [[1, 0, "norway"]]) == ["5"]  # AVG (3 + 7) / 2
    assert run(0, 3, [[2, 1, "5"]]) == ["3"]  # COUNT of 12, 7 and the text "n/a" (> every number)
    assert run(2, 1, [[1, 0, "sweden"]]) == ["12"]  # MAX
    assert run(2, 2, []) == ["3"]  # MIN over numbers (text sorts above them)
    assert run(2, 1, []) == ["n/a"]  # MAX: the text cell is above every number
    assert run(1, 2, []) == ["Denmark"]  # MIN of a text column, lowercased order
    assert run(2, 5, [[3, 0, "2001"]]) == ["9.5"]  # AVG (12 + 7) / 2


# No matching row: the selection is empty, COUNT is 0 and MAX/MIN/SUM/AVG are NULL.
def test_no_matching_row() -> None:
    assert run(0, 0, [[1, 0, "Finland"]]) == []
    assert run(0, 3, [[1, 0, "Finland"]]) == ["0"]
    assert run(2, 1, [[1, 0, "Finland"]]) == []
    # A number on a text column is compared as its text ('12'), which no country is.
    assert run(0, 0, [[1, 0, 12]]) == []


def write_wikisql(folder: Path, questions: list[Any], tables: tuple[Any, ...] = (TABLE,), split: str = "dev") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{split}.jsonl"
    path.write_text("".join((q if isinstance(q, str) else json.dumps(q)) + "\n" for q in questions), encoding="utf-8")
    (folder / f"{split}.tables.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tables), encoding="utf-8")
    return path


QUESTION = {
    "phase": 1,
    "table_id": "1-100-1",
    "question": "who played for norway?",
    "sql": {"sel": 0, "agg": 0, "conds": [[1, 0, "norway"]]},
}


def test_wikisql_line_becomes_example_answered_by_its_sql(tmp_path: Path) -> None:
    (example,) = load_wikisql_weak(write_wikisql(tmp_path, [QUESTION]), split="dev")
    assert (example.question, example.gold, example.db_id, example.question_split) == (
        "who played for norway?",
        format_answer(["Ann Lee", "Cy Dahl"]),
        "1-100-1",
        "dev",
    )
    assert example.table is not None and example.table.column(2) == ("3", "12", "7", "n/a")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"dev\.jsonl:2: not a JSON object"),
        ({**QUESTION, "table_id": "1-999-1"}, r"dev\.jsonl:2: table '1-999-1' is not in"),
        ({key: value for key, value in QUESTION.items() if key != "sql"}, r"dev\.jsonl:2: no 'sql' field"),
        ({**QUESTION, "question": " "}, r"dev\.jsonl:2: empty 'question'"),
        ({**QUESTION, "sql": {"sel": 0, "agg": 0, "conds": [[1, 3, "x"]]}}, r"dev\.jsonl:2: the query .* cannot run"),
        ({**QUESTION, "sql": {"sel": 9, "agg": 0, "conds": []}}, r"dev\.jsonl:2: the query .* cannot run"),
    ],
)
def test_malformed_wikisql_line_is_reported_by_number(tmp_path: Path, line: Any, message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        load_wikisql_weak(write_wikisql(tmp_path, [QUESTION, line]))


def test_wikisql_table_with_bad_types(tmp_path: Path) -> None:
    path = write_wikisql(tmp_path, [QUESTION], ({**TABLE, "types": ["text"]},))
    with pytest.raises(DatasetError, match=r"dev\.tables\.jsonl:1: 'types' must give"):
        load_wikisql_weak(path)


SQA_HEADER = "id\tannotator\tposition\tquestion\ttable_file\tanswer_coordinates\tanswer_text\n"
SQA_ROWS = (
    "nt-1\t0\t0\twho played for norway?\ttable_csv/203_1.csv\t['(0, 0)', '(2, 0)']\t['Ann Lee', 'Cy Dahl']\n"
    "nt-1\t0\t1\twhich of them scored more?\ttable_csv/203_1.csv\t['(2, 0)']\t['Cy Dahl']\n"
)
SQA_TABLE = 'Player,Country,Goals\nAnn Lee,Norway,3\nBo Kim,Sweden,12\n"Dahl, Cy",Norway,7\n'


def write_sqa(folder: Path, rows: str = SQA_ROWS, split: str = "train", table: str = SQA_TABLE) -> Path:
    (folder / "table_csv").mkdir(parents=True, exist_ok=True)
    (folder / "table_csv" / "203_1.csv").write_text(table, encoding="utf-8")
    path = folder / f"{split}.tsv"
    path.write_text(SQA_HEADER + rows, encoding="utf-8")
    return path


def test_sqa_rows_become_examples_sharing_their_table(tmp_path: Path) -> None:
    first, second = load_sqa(write_sqa(tmp_path), split="train")
    assert (first.question, first.gold, first.db_id) == (
        "who played for norway?",
        "Ann Lee|Cy Dahl",
        "table_csv/203_1.csv",
    )
    assert second.gold == "Cy Dahl" and second.table is first.table
    assert first.table is not None and first.table.column(0) == ("Ann Lee", "Bo Kim", "Dahl, Cy")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("nt-2\t0\t0\tq\ttable_csv/203_1.csv\t[]\n", r"train\.tsv:4: 6 tab-separated fields"),
        ("nt-2\t0\t0\t \ttable_csv/203_1.csv\t[]\t[]\n", r"train\.tsv:4: empty question"),
        ("nt-2\t0\t0\tq\ttable_csv/203_1.csv\t[]\tAnn\n", r"train\.tsv:4: answer_text 'Ann' is not a list"),
        ("nt-2\t0\t0\tq\ttable_csv/9.csv\t[]\t[]\n", r"train\.tsv:4: table file .*9\.csv' does not exist"),
    ],
)
def test_malformed_sqa_line_is_reported_by_number(tmp_path: Path, row: str, message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        load_sqa(write_sqa(tmp_path, SQA_ROWS + row))


def test_sqa_ragged_table_is_reported(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"train\.tsv:2: Row 1 .* has 2 cells"):
        load_sqa(write_sqa(tmp_path, table="A,B,C\n1,2,3\n4,5\n"))


def test_sqa_header_must_have_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "train.tsv"
    path.write_text("id\tquestion\n1\tq\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"train\.tsv:1: the header lacks annotator"):
        load_sqa(path)


def test_benchmarks_read_their_folders(tmp_path: Path) -> None:
    write_sqa(tmp_path / "sqa", split="train")
    write_sqa(tmp_path / "sqa", split="test")
    sqa = load_benchmark("sqa", data_dir=tmp_path)
    assert [len(sqa.split("question", split)) for split in ("train", "test")] == [2, 2]
    assert sqa.scoring.describe() == "denotation match (no database)" and sqa.source_format == "sqa"
    assert sqa.dataset("question", "test").input_columns == ("question", "table")
    for split in ("train", "dev", "test"):
        write_wikisql(tmp_path / "wikisql", [QUESTION], split=split)
    wikisql = load_benchmark("wikisql-weak", data_dir=tmp_path)
    assert len(wikisql.examples) == 3 and wikisql.source_file("test") == tmp_path / "wikisql" / "test.jsonl"


@pytest.mark.parametrize(("name", "folder"), [("wikisql-weak", "wikisql"), ("sqa", "sqa")])
def test_missing_folder_is_a_clear_error(tmp_path: Path, name: str, folder: str) -> None:
    with pytest.raises(DatasetError, match=rf"needs .*{folder}.*which does not exist.*SEMPARSE_DATA_DIR"):
        load_benchmark(name, data_dir=tmp_path)
