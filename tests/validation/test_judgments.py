"""Judgment files: the annotation page's CSV, a platform's results through --columns, and the
messages for files that cannot be read."""

from __future__ import annotations

import pytest

from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.validation.judgments import MTURK_COLUMNS, parse_columns, read_judgments, same_meaning_label

# Amazon Mechanical Turk's batch results: one row per assignment, the uploaded row as Input.*, the form as Answer.*.
MTURK_RESULTS = '''"HITId","AssignmentId","WorkerId","Input.item_id","Input.original","Input.rewrite","Answer.label"
"3X1","3A1","A2WORKER1","a1b2","what rivers are in texas","what rivers are there in texas","same"
"3X1","3A2","A2WORKER2","a1b2","what rivers are in texas","what rivers are there in texas","Not sure"
'''


def test_the_page_s_csv_is_read_in_order(tmp_path):
    path = tmp_path / "judgments-ann.csv"
    path.write_text("item_id,annotator,label\nx1,ann,same\n\nx2,ann,different\n", encoding="utf-8")
    judgments = read_judgments([path])
    assert [(j.item_id, j.annotator, j.label) for j in judgments] == [("x1", "ann", "same"), ("x2", "ann", "different")]
    assert judgments[1].where == f"{path}:4"


def test_mechanical_turk_results_through_columns(tmp_path):
    path = tmp_path / "Batch_123_batch_results.csv"
    path.write_text(MTURK_RESULTS, encoding="utf-8-sig")  # Excel's byte order mark is read too
    judgments = read_judgments([path], parse_columns(MTURK_COLUMNS))
    assert [(j.item_id, j.annotator, same_meaning_label(j.label)) for j in judgments] == [
        ("a1b2", "A2WORKER1", "same"),
        ("a1b2", "A2WORKER2", "unsure"),
    ]


def test_a_platform_file_without_columns_names_the_option(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text(MTURK_RESULTS, encoding="utf-8")
    with pytest.raises(DatasetError, match=r"no column for item_id \('item_id'\), annotator .*--columns item_id=Input.item_id,annotator=WorkerId,label=Answer.label"):
        read_judgments([path])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        ("item_id,annotator,label\nx1,ann\n", r":2: 2 fields where the header has 3"),
        ("item_id,annotator,label\nx1,,same\n", r":2: the annotator field is empty"),
    ],
)
def test_malformed_files_are_refused_naming_the_line(tmp_path, text, message):
    path = tmp_path / "judgments.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError, match=message):
        read_judgments([path])


def test_missing_and_binary_files(tmp_path):
    with pytest.raises(DatasetError, match="does not exist; pass the CSV files the annotators sent back"):
        read_judgments([tmp_path / "none.csv"])
    binary = tmp_path / "judgments.xlsx.csv"
    binary.write_bytes(b"PK\x03\x04\xff\xfe")
    with pytest.raises(DatasetError, match="is not UTF-8 text"):
        read_judgments([binary])


def test_columns_option_is_checked():
    assert parse_columns("annotator=WorkerId")["item_id"] == "item_id"
    with pytest.raises(ConfigurationError, match="is not FIELD=COLUMN"):
        parse_columns("WorkerId")
    with pytest.raises(ConfigurationError, match="names the field 'annotater'; the fields are .* Did you mean 'annotator'"):
        parse_columns("annotater=WorkerId")


def test_label_spellings():
    assert [same_meaning_label(label) for label in ("SAME", "same meaning", "Different-Meaning", "not sure", " unsure ")] == [
        "same", "same", "different", "unsure", "unsure",
    ]  # fmt: skip
    assert same_meaning_label("yes") is None
