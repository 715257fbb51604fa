"""The WikiTableQuestions loader and the ``wtq`` benchmark: format errors on small files written
here, counts and golds on the real data (``SEMPARSE_DATA_DIR``, skipped without it)."""

from __future__ import annotations

import pickle
import time
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import Benchmark, clear_benchmark_cache, load_benchmark
from textattack_semparse.datasets.wtq import load_wtq
from textattack_semparse.errors import DatasetError
from textattack_semparse.registry import get_registry
from textattack_semparse.scoring import TableAnswerScorer
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.tables.table import Table

HEADER = "id\tutterance\tcontext\ttargetValue\n"


def write_wtq(tmp_path: Path, lines: list[str]) -> Path:
    (tmp_path / "csv" / "200-csv").mkdir(parents=True, exist_ok=True)
    (tmp_path / "csv" / "200-csv" / "0.tsv").write_text("Year\tCity\n2004\tAthens\n2008\tBeijing\n", encoding="utf-8")
    (tmp_path / "data").mkdir(exist_ok=True)
    path = tmp_path / "data" / "dev.tsv"
    path.write_text(HEADER + "".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_line_becomes_example_with_table_and_verbatim_gold(tmp_path: Path) -> None:
    path = write_wtq(tmp_path, [r"nt-0	which cities?	csv/200-csv/0.csv	Athens|Bei\pjing"])
    (example,) = load_wtq(path, split="dev")
    assert (example.question, example.gold, example.db_id, example.question_split) == (
        "which cities?",
        r"Athens|Bei\pjing",
        "csv/200-csv/0.csv",
        "dev",
    )
    assert example.table == Table(("Year", "City"), (("2004", "Athens"), ("2008", "Beijing")), "csv/200-csv/0.csv")


def test_examples_of_one_table_share_it(tmp_path: Path) -> None:
    path = write_wtq(tmp_path, ["nt-0\tq1\tcsv/200-csv/0.csv\tAthens", "nt-1\tq2\tcsv/200-csv/0.csv\t2008"])
    tables: dict[str, Table] = {}
    first, second = load_wtq(path, tables=tables)
    assert first.table is second.table and list(tables) == ["csv/200-csv/0.csv"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("nt-0\tq\tcsv/200-csv/0.csv", r"dev\.tsv:3: 3 tab-separated fields, expected 4"),
        ("nt-0\tq\tcsv/200-csv/0.csv\tAthens\textra", r"dev\.tsv:3: 5 tab-separated fields"),
        ("nt-0\t  \tcsv/200-csv/0.csv\tAthens", r"dev\.tsv:3: empty question"),
        ("nt-0\tq\t\tAthens", r"dev\.tsv:3: empty table"),
        ("nt-0\tq\tcsv/200-csv/9.csv\tAthens", r"dev\.tsv:3: Table 'csv/200-csv/9\.csv' has no file .*9\.tsv"),
    ],
)
def test_malformed_line_is_reported_with_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = write_wtq(tmp_path, ["nt-0\tq\tcsv/200-csv/0.csv\tAthens", line])
    with pytest.raises(DatasetError, match=message):
        load_wtq(path)


def test_wrong_header_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "data" / "x.tsv"
    with pytest.raises(DatasetError, match="does not exist.*SEMPARSE_DATA_DIR"):
        load_wtq(path)
    path.parent.mkdir()
    path.write_text("question\tanswer\nq\ta\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"x\.tsv:1: header"):
        load_wtq(path)


def test_wtq_without_data_dir_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SEMPARSE_DATA_DIR", raising=False)
    with pytest.raises(DatasetError, match="SEMPARSE_DATA_DIR.*'wtq/'"):
        load_benchmark("wtq")


def test_unknown_random_split_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="random splits 1, 2, 3, 4, 5, not 7"):
        get_registry().get("benchmark", "wtq").create(name="wtq", data_dir=tmp_path, random_split=7)


def test_dataset_names_derive_from_the_benchmark() -> None:
    names = set(get_registry().names("dataset"))
    assert {"wtq-train", "wtq-dev", "wtq-test"} <= names


# --- real data ---------------------------------------------------------------------------

SPLIT_FILES = {"train": "random-split-1-train.tsv", "dev": "random-split-1-dev.tsv", "test": "pristine-unseen-tables.tsv"}


@pytest.fixture(scope="module")
def wtq(real_data_dir: Path) -> Benchmark:
    clear_benchmark_cache()
    return load_benchmark("wtq", data_dir=real_data_dir)


def test_split_sizes_equal_the_files_line_counts(wtq: Benchmark, real_data_dir: Path) -> None:
    for split, file in SPLIT_FILES.items():
        lines = (real_data_dir / "wtq" / "data" / file).read_text(encoding="utf-8").count("\n")
        assert len(wtq.split("question", split)) == lines - 1, split
    assert len(wtq.split("question", "dev")) == 2831
    assert dict(wtq.source_files) == {split: real_data_dir / "wtq" / "data" / file for split, file in SPLIT_FILES.items()}
    assert wtq.source_format == "wtq"


def test_every_gold_parses_and_matches_itself(wtq: Benchmark) -> None:
    # Official rule: a denotation matches a prediction of the same size whose every value it matches,
    # so each gold answer, as a prediction, is correct against itself.
    scorer = wtq.scoring.scorer
    assert isinstance(scorer, TableAnswerScorer) and wtq.databases is None
    for example in wtq.examples:
        assert parse_answer(example.gold), example
    for example in wtq.split("question", "dev"):
        assert scorer.score(example.gold, example.gold).match, example.gold


def test_tables_are_shared_and_named_by_context(wtq: Benchmark) -> None:
    tables = {id(example.table) for example in wtq.examples}
    contexts = {example.db_id for example in wtq.examples}
    assert len(tables) == len(contexts)
    assert all(example.table is not None and example.table.name == example.db_id for example in wtq.examples)


def test_dataset_columns_are_question_and_table_json(wtq: Benchmark) -> None:
    dataset = wtq.dataset("question", "dev")
    assert dataset.input_columns == ("question", "table")
    columns, gold = dataset[0]
    example = dataset.examples[0]
    assert (columns["question"], gold) == (example.question, example.gold)
    assert Table.from_json(columns["table"]) == example.table
    hf = dataset.to_hf_dataset()
    assert Table.from_json(hf[0]["table"]) == example.table


def test_examples_with_tables_pickle(wtq: Benchmark) -> None:
    example = wtq.split("question", "dev")[0]
    assert pickle.loads(pickle.dumps(example)) == example


def test_loading_is_fast(real_data_dir: Path) -> None:
    clear_benchmark_cache()
    start = time.perf_counter()
    load_benchmark("wtq", data_dir=real_data_dir)
    # 18,496 questions over 2,108 tables load in about a second on 2 shared cores.
    assert time.perf_counter() - start < 10.0
