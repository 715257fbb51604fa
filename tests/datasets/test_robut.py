"""RobuT's loader on small hand-written files in the release's schema (tests/datasets/data/robut/).

The files follow the fields the authors' evaluation code reads (yilunzhao/RobuT,
utils/eval_utils.py and main/run_tapex_omnitab.py): question, table {header, rows}, answers,
perturbation_type, original_id; SQA rows hold their questions and answers as Python literals.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from textattack_semparse.datasets.benchmark import clear_benchmark_cache, load_benchmark
from textattack_semparse.datasets.example import ORIGINAL
from textattack_semparse.datasets.robut import ROBUT_DIR_ENV, robut_examples
from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.tables.table import Table

FIXTURE = Path(__file__).parent / "data" / "robut"


def rows(split: str) -> list[dict[str, Any]]:
    return json.loads((FIXTURE / f"{split}.json").read_text(encoding="utf-8"))


@pytest.fixture
def robut_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty folder named by SEMPARSE_ROBUT_DIR; benchmarks loaded before are forgotten."""
    folder = tmp_path / "robut"
    folder.mkdir()
    monkeypatch.setenv(ROBUT_DIR_ENV, str(folder))
    clear_benchmark_cache()
    yield folder
    clear_benchmark_cache()


def test_wtq_rows_become_originals_and_rewrites_with_their_own_tables(robut_dir: Path) -> None:
    shutil.copy(FIXTURE / "wtq.json", robut_dir / "wtq.json")
    benchmark = load_benchmark("robut-wtq")
    assert benchmark.leaderboard == "robut" and benchmark.scoring.scorer.name == "denotation"
    examples = benchmark.examples
    assert [(e.example_id, e.original_id, e.perturbation) for e in examples[:4]] == [
        ("t-0", None, ORIGINAL),
        ("t-1", None, ORIGINAL),
        ("t-2", None, ORIGINAL),
        ("t-0/synonym/0", "t-0", "synonym"),
    ]
    synonym = examples[3]
    assert synonym.table == Table(
        ("Season", "Town", "Nation"),
        (("2000", "Sydney", "Australia"), ("2004", "Athens", "Greece"), ("2008", "Beijing", "China")),
        "t-0",
    )
    assert synonym.table != examples[0].table and synonym.gold == "Athens"
    combined = next(e for e in examples if e.perturbation == "combined")
    assert combined.question == "the 2008 games took place in what nation?"
    assert combined.table is not None and combined.table.header == ("Yr", "Host city", "Host nation")
    assert {e.question_split for e in examples} == {ORIGINAL, "synonym", "row", "word", "combined"}


def test_each_perturbation_type_is_a_dataset(robut_dir: Path) -> None:
    from textattack_semparse.robustness.build_test_set import dataset_examples

    shutil.copy(FIXTURE / "wtq.json", robut_dir / "wtq.json")
    assert [e.example_id for e in dataset_examples("robut-wtq-word")] == ["t-0/word/0", "t-1/word/0", "t-9/word/0"]
    assert len(dataset_examples("robut-wtq")) == len(rows("wtq"))


def test_parquet_and_the_hub_layout_read_like_json(robut_dir: Path) -> None:
    import datasets

    expected = robut_examples(rows("wtq"), "wtq")
    datasets.Dataset.from_list(rows("wtq")).to_parquet(str(robut_dir / "wtq.parquet"))
    assert list(load_benchmark("robut-wtq").examples) == expected
    (robut_dir / "wtq.parquet").unlink()
    (robut_dir / "data").mkdir()
    datasets.Dataset.from_list(rows("wtq")[:4]).to_parquet(str(robut_dir / "data" / "wtq-00000-of-00002.parquet"))
    datasets.Dataset.from_list(rows("wtq")[4:]).to_parquet(str(robut_dir / "data" / "wtq-00001-of-00002.parquet"))
    clear_benchmark_cache()
    assert list(load_benchmark("robut-wtq").examples) == expected


def test_sqa_rows_become_one_example_per_turn() -> None:
    examples = robut_examples(rows("sqa"), "sqa")
    first = [e for e in examples if e.sequence_id == "s-1"]
    assert [(e.example_id, e.question, parse_answer(e.gold)) for e in first] == [
        ("s-1/1", "what years are listed?", ["2000", "2004", "2008"]),
        ("s-1/2", "what years are listed? which city hosted in 2004?", ["Athens"]),
        ("s-1/3", "what years are listed? which city hosted in 2004? and in 2008?", ["Beijing"]),
    ]
    rewrite = [e for e in examples if e.perturbation == "word"]
    assert [(e.example_id, e.original_id, e.sequence_id) for e in rewrite] == [
        ("s-1/word/0/1", "s-1/1", "s-1/word/0"),
        ("s-1/word/0/2", "s-1/2", "s-1/word/0"),
        ("s-1/word/0/3", "s-1/3", "s-1/word/0"),
    ]


def test_a_rewrite_with_its_own_id_keeps_it() -> None:
    row = {**rows("wtq")[3], "id": "wtq-synonym-17"}
    (example,) = robut_examples([row], "wtq")
    assert (example.example_id, example.original_id) == ("wtq-synonym-17", "t-0")


def test_offline_without_files_names_where_they_go(robut_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DatasetError, match=r"robut/wtq\.parquet.*--robut-dir DIR or SEMPARSE_ROBUT_DIR"):
        load_benchmark("robut-wtq")


def test_a_missing_robut_dir_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ROBUT_DIR_ENV, str(tmp_path / "absent"))
    clear_benchmark_cache()
    with pytest.raises(DatasetError, match="does not exist; point it at the folder"):
        load_benchmark("robut-sqa")


def test_a_file_without_a_field_names_the_field_and_the_release(robut_dir: Path) -> None:
    broken = [{key: value for key, value in row.items() if key != "original_id"} for row in rows("wtq")]
    (robut_dir / "wtq.json").write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"row 0: no 'original_id' field\. RobuT rows have .*yilunzhao/robut"):
        load_benchmark("robut-wtq")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"answers": "Athens"}, "'answers' must be a list of strings"),
        ({"perturbation_type": "synonyms"}, "perturbation_type 'synonyms' is not one of .* Did you mean 'synonym'"),
        ({"table": {"header": ["Year"], "rows": [["2000", "Sydney"]]}}, "Row 0 of table t-0 has 2 cells"),
        ({"table": ["Year", "City"]}, "'table' must be an object with 'header'"),
        ({"question": ""}, "'question' must be a non-empty string"),
    ],
)
def test_malformed_rows_are_named(change: dict[str, Any], message: str) -> None:
    with pytest.raises(DatasetError, match=rf"RobuT, split 'wtq', row 0: {message}"):
        robut_examples([{**rows("wtq")[0], **change}], "wtq")


def test_sqa_answers_must_be_list_literals_one_per_question() -> None:
    row = rows("sqa")[0]
    with pytest.raises(DatasetError, match="SQA's 'answers\\[0\\]' must be a string holding a Python list"):
        robut_examples([{**row, "answers": ["Bo, Cy", "['Cy']"]}], "sqa")
    with pytest.raises(DatasetError, match="one answer list per question, got 2 questions and 1 answers"):
        robut_examples([{**row, "answers": ["['Cy']"]}], "sqa")
