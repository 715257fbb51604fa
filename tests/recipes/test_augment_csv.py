"""`textattack augment` with a plugin recipe leaves every other column byte-identical."""

from __future__ import annotations

import csv

import pytest

from textattack_semparse.augmentation.csv_augmentation import augment_csv
from textattack_semparse.errors import DatasetError

from tests.helpers import run_command

ROWS = [
    {"question": "what is the population density of the state of texas", "sql": 'SELECT population / area FROM state WHERE state_name = "texas"', "note": "a/b, \"quoted\""},
    {"question": "how many people live in the city of boston", "sql": "SELECT population / 1000 FROM city WHERE city_name = 'boston'", "note": "x//y"},
]


@pytest.fixture
def input_csv(tmp_path):
    path = tmp_path / "in.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question", "sql", "note"])
        writer.writeheader()
        writer.writerows(ROWS)
    return path


def _read(path):
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("recipe", ["semparse-mda", "semparse-function-words"])
def test_stock_augment_command_keeps_sql_column_byte_identical(recipe, input_csv, tmp_path):
    output = tmp_path / "out.csv"
    result = run_command(
        "textattack", "augment", "--input-csv", str(input_csv), "--output-csv", str(output),
        "--input-column", "question", "--recipe", recipe, "--transformations-per-example", "2",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = _read(output)
    assert len(rows) > len(ROWS)
    originals = {row["question"]: row for row in ROWS}
    augmented = [row for row in rows if row["question"] not in originals]
    assert augmented, "no augmented rows were written"
    for row in rows:
        source = next(original for original in ROWS if original["sql"] == row["sql"])
        assert row["sql"] == source["sql"] and row["note"] == source["note"]
    assert {row["sql"] for row in rows} == {row["sql"] for row in ROWS}


def test_augment_csv_reports_missing_column_with_suggestion(input_csv, tmp_path):
    with pytest.raises(DatasetError, match="Did you mean 'question'"):
        augment_csv(input_csv, tmp_path / "o.csv", "questoin", lambda text: [text])


def test_augment_csv_refuses_to_overwrite(input_csv, tmp_path):
    output = tmp_path / "o.csv"
    output.write_text("keep me")
    with pytest.raises(DatasetError, match="--overwrite"):
        augment_csv(input_csv, output, "question", lambda text: [text])
    assert output.read_text() == "keep me"


def test_augment_csv_copies_rows_and_changes_only_the_input_column(input_csv, tmp_path):
    output = tmp_path / "o.csv"
    written = augment_csv(input_csv, output, "question", lambda text: [text.upper()], include_original=False)
    rows = _read(output)
    assert written == 2
    assert [row["question"] for row in rows] == [row["question"].upper() for row in ROWS]
    assert [(row["sql"], row["note"]) for row in rows] == [(row["sql"], row["note"]) for row in ROWS]
