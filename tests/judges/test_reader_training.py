"""``judge train``: the pairs the reader learns from, and a real (tiny) training run on files written
in text2sql-data's released format, loaded back as ``cross-encoder:<dir>``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.judges.reader_data import (
    agree_on_constants,
    minimal_edits,
    slip,
    spider_syn_pairs,
    template_pairs,
    with_slips,
)


def _entry(sql: str, sentences: list[tuple[str, dict[str, str]]], split: str = "train") -> dict:
    return {
        "query-split": split,
        "sql": [sql],
        "variables": [{"name": name, "example": value, "location": "both", "type": name[:-1]}
                      for name, value in sentences[0][1].items()],
        "sentences": [{"text": text, "variables": values, "question-split": split} for text, values in sentences],
    }  # fmt: skip


ADVISING = [
    _entry('SELECT DISTINCT C.NAME FROM COURSE AS C WHERE C.DEPARTMENT = "department0" AND C.NUMBER = number0 ;', [
        ("what is the name of department0 number0 ?", {"department0": "EECS", "number0": "482"}),
        ("what is department0 number0 called ?", {"department0": "MATH", "number0": "115"}),
        ("tell me the name of department0 number0", {"department0": "EECS", "number0": "280"}),
    ]),
    _entry('SELECT COUNT(*) FROM COURSE AS C WHERE C.DEPARTMENT = "department0" AND C.CREDITS > number0 ;', [
        ("how many department0 courses have more than number0 credits ?", {"department0": "EECS", "number0": "3"}),
        ("count the department0 courses with over number0 credits", {"department0": "PHYS", "number0": "4"}),
    ]),
    _entry('SELECT DISTINCT C.NAME FROM COURSE AS C WHERE C.DEPARTMENT = "department0" ORDER BY C.CREDITS DESC LIMIT 1 ;', [
        ("which department0 course has the most credits ?", {"department0": "EECS"}),
        ("what department0 course is worth the most credits ?", {"department0": "MATH"}),
    ]),
    _entry('SELECT DISTINCT C.NAME FROM COURSE AS C WHERE C.DEPARTMENT = "department0" ;', [
        ("what are the department0 courses ?", {"department0": "EECS"}),
        ("list the department0 courses", {"department0": "MATH"}),
    ], split="test"),  # a held-out split: never a pair
]
SCHOLAR = [
    _entry('SELECT DISTINCT P.PAPERID FROM PAPER AS P, WRITES AS W, AUTHOR AS A WHERE A.AUTHORNAME = "author0" '
           "AND W.AUTHORID = A.AUTHORID AND W.PAPERID = P.PAPERID ;", [
        ("papers by author0", {"author0": "jane smith"}),
        ("what papers did author0 write", {"author0": "john lee"}),
        ("which papers has author0 written", {"author0": "ann chen"}),
    ]),
    _entry('SELECT COUNT(*) FROM PAPER AS P WHERE P.YEAR = year0 ;', [
        ("how many papers were published in year0", {"year0": "2015"}),
        ("number of papers from year0", {"year0": "2016"}),
    ]),
]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data" / "text2sql"
    folder.mkdir(parents=True)
    (folder / "advising.json").write_text(json.dumps(ADVISING), encoding="utf-8")
    (folder / "scholar.json").write_text(json.dumps(SCHOLAR), encoding="utf-8")
    return tmp_path / "data"


def _examples(data_dir: Path, name: str) -> list[SemparseExample]:
    from textattack_semparse.datasets.benchmark import load_benchmark

    return list(load_benchmark(name, data_dir=data_dir).examples)


def test_positives_share_the_values_and_negatives_change_one(data_dir: Path) -> None:
    examples = [e for e in _examples(data_dir, "advising") if e.question_split == "train"]
    pairs = list(template_pairs("advising", examples, random.Random(0)))
    positives = [pair for pair in pairs if pair.label == 1]
    negatives = [pair for pair in pairs if pair.label == 0]
    assert positives and negatives
    for pair in positives:  # the other template filled with the same values
        assert {w for w in pair.original.split() if w.isupper() or w.isdigit()} == {
            w for w in pair.rewrite.split() if w.isupper() or w.isdigit()
        }, pair
    assert all(pair.source == "advising:other-values" for pair in negatives)
    assert all(pair.original.split() != pair.rewrite.split() for pair in negatives)


def test_minimal_edits_change_what_the_gold_names() -> None:
    example = SemparseExample(
        "which states that have more than 3 rivers border texas",
        "SELECT state_name FROM state WHERE state_name IN (SELECT border FROM border_info WHERE state_name = 'texas')",
    )
    edits = {pair.source.split("edit-")[1]: pair.rewrite for pair in
             minimal_edits("geo", example, ["city", "lake", "state", "river"], ["ohio", "utah"], random.Random(0))}  # fmt: skip
    from textattack_semparse.judges.lexicon import operator_marks

    (comparison,) = [mark for mark in operator_marks(edits["comparative"].split()) if mark.kind == "comparative"]
    assert ("amount", "less") in comparison.senses  # "more than" turned around
    assert edits["number"] != example.question and " 3 " not in edits["number"]
    assert edits["value"].endswith(("ohio", "utah")) and edits["negation"] != example.question
    assert all(pair_text != example.question for pair_text in edits.values())


def test_slips_are_small_and_leave_operators_alone() -> None:
    rng = random.Random(3)
    question = "which rivers are longer than the mississippi"
    for _ in range(50):
        slipped = slip(question, rng)
        assert slipped != question and "longer" in slipped.split() and "than" in slipped.split()
    pairs = list(with_slips(spider_syn_pairs([{"SpiderQuestion": "How many singers?", "SpiderSynQuestion": "How many "
                                               "vocalists?", "db_id": "c", "query": "SELECT count(*) FROM singer"}]),
                            random.Random(0)))  # fmt: skip
    assert pairs[0].label == 1 and {pair.label for pair in pairs} == {1}
    assert agree_on_constants("flights on monday", "monday flights") and not agree_on_constants("3 pm", "4 pm")


def test_judge_train_writes_a_reader_loaded_as_a_cross_encoder(data_dir: Path, tmp_path: Path, capsys) -> None:
    from textattack_semparse.cli import main
    from textattack_semparse.judges.meaning_judge import judge_from_name
    from textattack_semparse.judges.reader import PairReader

    output = tmp_path / "reader"
    arguments = ["judge", "train", "--data-dir", str(data_dir), "--output-dir", str(output), "--train", "advising",
                 "--measure", "scholar", "--epochs", "1", "--max-pairs-per-source", "16"]  # fmt: skip
    assert main(arguments) == 0
    record = json.loads((output / "reader.json").read_text(encoding="utf-8"))
    assert 0 < record["threshold"] < 1 and record["config"]["train"] == ["advising"]
    assert "output_dir" not in record["config"] and "data_dir" not in record["config"]
    assert set(record["data_files"]) == {"text2sql/advising.json", "text2sql/scholar.json"}
    assert record["measured"]["pairs"] > 0 and any(source.startswith("scholar:") for source in record["pairs"])
    assert (output / "adapter" / "adapter_model.safetensors").stat().st_size < 2_000_000
    reader = PairReader(str(output))
    assert reader.threshold == record["threshold"]
    judge = judge_from_name(f"cross-encoder:{output}")
    assert judge("papers by jane smith", "papers by jane smith?").keeps_meaning  # the same words
    assert judge("papers by jane smith", "papers by jane smith written in 2015").layer in ("reader", "veto:number")
    capsys.readouterr()
    assert main(arguments) == 2  # a reader is there: refused, one line
    assert "add --overwrite" in capsys.readouterr().err
