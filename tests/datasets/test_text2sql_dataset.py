"""Tests for Text2SQLDataset: TextAttack items, input columns and the Hugging Face export."""

from __future__ import annotations

import json
import pickle
from collections import OrderedDict
from types import MappingProxyType

import pytest

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.text2sql_dataset import Text2SQLDataset
from textattack_semparse.tables.table import Table

GOLD = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "new york" ;'
NEW_YORK = SemparseExample(
    question="what is the capital of new york",
    gold=GOLD,
    template_question="what is the capital of state_name0",
    template_gold=GOLD.replace("new york", "state_name0"),
    variables=MappingProxyType({"state_name0": "new york"}),
    variable_types=MappingProxyType({"state_name0": "state_name"}),
    question_split="test",
    query_split="train",
)
LONGEST = SemparseExample(
    question="what is the longest river",
    gold="SELECT RIVER_NAME FROM RIVER ORDER BY LENGTH DESC LIMIT 1 ;",
    question_split="train",
)


def test_is_a_textattack_dataset() -> None:
    import textattack

    assert isinstance(Text2SQLDataset([NEW_YORK]), textattack.datasets.Dataset)


def test_items_are_ordered_dict_and_gold() -> None:
    data = Text2SQLDataset([NEW_YORK, LONGEST])
    assert len(data) == 2
    assert data.input_columns == ("question",)
    inputs, gold = data[0]
    assert inputs == OrderedDict(question="what is the capital of new york")
    assert gold == GOLD
    assert [item[0]["question"] for item in data[0:2]] == [NEW_YORK.question, LONGEST.question]
    assert data.examples == (NEW_YORK, LONGEST)


def test_db_id_becomes_a_second_column() -> None:
    spider = [
        SemparseExample("how many singers are there", "SELECT count(*) FROM singer", db_id="concert_singer"),
        SemparseExample("list all pets", "SELECT * FROM pets", db_id="pets_1"),
    ]
    data = Text2SQLDataset(spider)
    assert data.input_columns == ("question", "db_id")
    inputs, gold = data[1]
    assert list(inputs.items()) == [("question", "list all pets"), ("db_id", "pets_1")]
    assert gold == "SELECT * FROM pets"


def test_mixed_db_ids_are_rejected() -> None:
    with pytest.raises(ValueError, match="1 of 2 examples have a db_id"):
        Text2SQLDataset([NEW_YORK, SemparseExample("q", "SELECT 1", db_id="pets_1")])


OLYMPICS = Table(("Year", "City"), (("2004", "Athens"), ("2008", "Beijing")), "csv/200-csv/0.csv")
TABLE_QA = SemparseExample("where were the 2004 games?", "Athens", db_id=OLYMPICS.name, table=OLYMPICS)


def test_table_becomes_the_second_column_as_json() -> None:
    data = Text2SQLDataset([TABLE_QA])
    assert data.input_columns == ("question", "table")
    inputs, gold = data[0]
    assert list(inputs) == ["question", "table"] and gold == "Athens"
    assert inputs["question"] == TABLE_QA.question and Table.from_json(inputs["table"]) == OLYMPICS


def test_example_with_table_pickles() -> None:
    assert pickle.loads(pickle.dumps(TABLE_QA)) == TABLE_QA


def test_mixed_tables_are_rejected() -> None:
    with pytest.raises(ValueError, match="1 of 2 examples have a table"):
        Text2SQLDataset([TABLE_QA, SemparseExample("q", "Athens", db_id=OLYMPICS.name)])


def test_to_hf_dataset_writes_the_table_json() -> None:
    row = Text2SQLDataset([TABLE_QA]).to_hf_dataset()[0]
    assert Table.from_json(row["table"]) == OLYMPICS and row["db_id"] == OLYMPICS.name
    assert Text2SQLDataset([NEW_YORK]).to_hf_dataset()[0]["table"] is None


def test_non_examples_are_rejected() -> None:
    with pytest.raises(TypeError, match="item 0 is a tuple"):
        Text2SQLDataset([("what is the capital of ohio", "SELECT 1")])  # type: ignore[list-item]


def test_empty_dataset() -> None:
    data = Text2SQLDataset([])
    assert len(data) == 0 and data.input_columns == ("question",)


def test_to_hf_dataset_keeps_every_field() -> None:
    hf = Text2SQLDataset([NEW_YORK, LONGEST]).to_hf_dataset()
    assert hf.column_names == list(SemparseExample.__dataclass_fields__)
    assert hf.num_rows == 2
    row = hf[0]
    assert row["question"] == NEW_YORK.question and row["gold"] == GOLD
    assert row["template_question"] == "what is the capital of state_name0"
    assert json.loads(row["variables"]) == {"state_name0": "new york"}
    assert json.loads(row["variable_types"]) == {"state_name0": "state_name"}
    assert (row["question_split"], row["query_split"], row["db_id"]) == ("test", "train", None)
    assert json.loads(hf[1]["variables"]) == {}
