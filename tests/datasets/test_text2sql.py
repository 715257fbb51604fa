"""Tests for the text2sql-data loader: placeholder filling, splits, malformed rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from textattack_semparse.datasets.text2sql import fill_placeholders, load_text2sql, select_split
from textattack_semparse.errors import DatasetError

CAPITAL_SQL = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "state_name0" ;'
BORDER_BOTH_SQL = (
    "SELECT BORDER_INFOalias0.BORDER FROM BORDER_INFO AS BORDER_INFOalias0 WHERE BORDER_INFOalias0.STATE_NAME = "
    '"state_name0" AND BORDER_INFOalias0.BORDER IN ( SELECT BORDER_INFOalias1.BORDER FROM BORDER_INFO AS '
    'BORDER_INFOalias1 WHERE BORDER_INFOalias1.STATE_NAME = "state_name1" ) ;'
)


def variable(name: str, example: str, location: str = "both") -> dict[str, str]:
    return {"name": name, "type": name.rstrip("0123456789"), "example": example, "location": location}


def entry(
    sql: str | None,
    sentences: list[dict[str, Any]],
    variables: list[dict[str, str]],
    query_split: str = "train",
) -> dict[str, Any]:
    row: dict[str, Any] = {"query-split": query_split, "sentences": sentences, "variables": variables}
    if sql is not None:
        row["sql"] = [sql]
    return row


def sentence(text: str, values: dict[str, str], split: str = "train") -> dict[str, Any]:
    return {"text": text, "variables": values, "question-split": split}


def write(tmp_path: Path, entries: list[Any], name: str = "data.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


# fill_placeholders


def test_fill_multi_word_value_in_text_and_quoted_sql() -> None:
    values = {"state_name0": "new york"}
    assert fill_placeholders("what is the capital of state_name0", values) == "what is the capital of new york"
    assert fill_placeholders(CAPITAL_SQL, values).endswith('STATEalias0.STATE_NAME = "new york" ;')


def test_fill_leaves_longer_placeholder_with_same_prefix() -> None:
    filled = fill_placeholders("state_name0 and state_name01", {"state_name0": "ohio", "state_name01": "utah"})
    assert filled == "ohio and utah"
    assert fill_placeholders("state_name01 state_name0", {"state_name0": "ohio"}) == "state_name01 ohio"


def test_fill_ignores_placeholder_inside_identifier() -> None:
    assert fill_placeholders("xstate_name0 state_name0_x state_name0", {"state_name0": "ohio"}) == (
        "xstate_name0 state_name0_x ohio"
    )


def test_fill_value_appearing_twice() -> None:
    filled = fill_placeholders(
        'WHERE C.STATE_NAME = "state_name0" ) AND C.STATE_NAME = "state_name0" ;', {"state_name0": "rhode island"}
    )
    assert filled.count('"rhode island"') == 2
    assert "state_name0" not in filled


def test_fill_is_single_pass_when_value_looks_like_placeholder() -> None:
    assert fill_placeholders("city_name0 state_name0", {"city_name0": "state_name0", "state_name0": "texas"}) == (
        "state_name0 texas"
    )


def test_fill_bare_token_and_numbers() -> None:
    values = {"year0": "1991", "day_number0": "22"}
    assert fill_placeholders("WHERE D.YEAR = year0 AND D.DAY = day_number0 ;", values) == (
        "WHERE D.YEAR = 1991 AND D.DAY = 22 ;"
    )


def test_fill_without_values_returns_template() -> None:
    assert fill_placeholders("what is the longest river", {}) == "what is the longest river"


# load_text2sql


def test_load_fills_question_and_gold_and_keeps_templates(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [entry(CAPITAL_SQL, [sentence("what is the capital of state_name0", {"state_name0": "new mexico"})],
               [variable("state_name0", "texas")])],
    )
    (example,) = load_text2sql(path)
    assert example.question == "what is the capital of new mexico"
    assert example.gold == CAPITAL_SQL.replace("state_name0", "new mexico")
    assert example.template_question == "what is the capital of state_name0"
    assert example.template_gold == CAPITAL_SQL
    assert dict(example.variables) == {"state_name0": "new mexico"}
    assert dict(example.variable_types) == {"state_name0": "state_name"}
    assert (example.question_split, example.query_split, example.db_id) == ("train", "train", None)


def test_load_two_variables_of_the_same_type(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [entry(BORDER_BOTH_SQL,
               [sentence("which states border both state_name0 and state_name1",
                         {"state_name0": "new york", "state_name1": "rhode island"})],
               [variable("state_name0", "texas"), variable("state_name1", "ohio")])],
    )
    (example,) = load_text2sql(path)
    assert example.question == "which states border both new york and rhode island"
    assert '= "new york" AND' in example.gold and '= "rhode island" )' in example.gold


def test_load_sql_only_variable_takes_the_example(tmp_path: Path) -> None:
    sql = 'SELECT C.NAME FROM COURSE AS C WHERE C.DEPARTMENT = "department0" AND C.NUMBER = number0 ;'
    path = write(
        tmp_path,
        [entry(sql, [sentence("can undergrads take number0", {"number0": "550", "department0": ""})],
               [variable("department0", "EECS", "sql-only"), variable("number0", "400")])],
    )
    (example,) = load_text2sql(path)
    assert example.gold == 'SELECT C.NAME FROM COURSE AS C WHERE C.DEPARTMENT = "EECS" AND C.NUMBER = 550 ;'
    assert dict(example.variables) == {"department0": "EECS", "number0": "550"}


def test_load_unused_empty_variable_is_fine(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [entry(CAPITAL_SQL, [sentence("what is the capital of state_name0", {"state_name0": "utah", "city_name0": ""})],
               [variable("state_name0", "texas"), variable("city_name0", "austin")])],
    )
    (example,) = load_text2sql(path)
    assert dict(example.variables) == {"state_name0": "utah"}


def test_load_type_of_undeclared_variable_comes_from_its_name(tmp_path: Path) -> None:
    sql = 'SELECT F.ID FROM FLIGHT AS F WHERE F.TO = "city_name0" AND F.STATE = "state_code0" ;'
    path = write(
        tmp_path,
        [entry(sql, [sentence("flights to city_name0 state_code0", {"city_name0": "WASHINGTON", "state_code0": "DC"})],
               [variable("city_name0", "CHICAGO")])],
    )
    (example,) = load_text2sql(path)
    assert dict(example.variable_types) == {"city_name0": "city_name", "state_code0": "state_code"}


def test_load_database_becomes_db_id(tmp_path: Path) -> None:
    row = sentence("how many singers are there", {})
    row["database"] = "concert_singer"
    path = write(tmp_path, [entry("SELECT count(*) FROM singer", [row], [])])
    assert load_text2sql(path)[0].db_id == "concert_singer"


def test_load_filters_question_and_query_splits(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [
            entry(CAPITAL_SQL, [sentence("capital of state_name0", {"state_name0": "ohio"}, "train"),
                                sentence("capital of state_name0", {"state_name0": "utah"}, "test")],
                  [variable("state_name0", "ohio")], query_split="test"),
            entry("SELECT 1 ;", [sentence("one", {}, "test")], [], query_split="train"),
        ],
    )
    assert [e.question for e in load_text2sql(path, splits=["test"])] == ["capital of utah", "one"]
    assert [e.question for e in load_text2sql(path, split_type="query", splits=["test"])] == [
        "capital of ohio", "capital of utah"]
    assert [e.question for e in load_text2sql(path, splits="train")] == ["capital of ohio"]
    assert len(load_text2sql(path)) == 3


def test_load_unknown_split_names_the_available_ones(tmp_path: Path) -> None:
    path = write(tmp_path, [entry("SELECT 1 ;", [sentence("one", {}, "test")], [])])
    with pytest.raises(DatasetError, match=r"'tset'.*available: test.*Did you mean 'test'"):
        load_text2sql(path, splits=["tset"])


def test_load_bad_split_type_is_value_error(tmp_path: Path) -> None:
    path = write(tmp_path, [entry("SELECT 1 ;", [sentence("one", {})], [])])
    with pytest.raises(ValueError, match="'questions'.*Did you mean 'question'"):
        load_text2sql(path, split_type="questions")


def test_select_split_none_keeps_everything(tmp_path: Path) -> None:
    path = write(tmp_path, [entry("SELECT 1 ;", [sentence("one", {}, "dev"), sentence("uno", {}, "test")], [])])
    examples = load_text2sql(path)
    assert select_split(examples, "question", None) == examples


# malformed files and rows


def test_missing_file_names_path_and_env_var(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"nope\.json.*does not exist.*SEMPARSE_DATA_DIR"):
        load_text2sql(tmp_path / "nope.json")


def test_invalid_json_reports_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[{"sql": ["SELECT 1"],\n', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"broken\.json is not valid JSON \(line 2"):
        load_text2sql(path)


def test_top_level_object_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, {"sql": []})  # type: ignore[arg-type]
    with pytest.raises(DatasetError, match="holds a JSON dict.*list of entries"):
        load_text2sql(path)


def test_entry_without_sql_names_file_and_index(tmp_path: Path) -> None:
    good = entry("SELECT 1 ;", [sentence("one", {})], [])
    path = write(tmp_path, [good, entry(None, [sentence("two", {})], [])])
    with pytest.raises(DatasetError, match=r"data\.json: entry 1 [(]line [0-9]+[)] has no gold query.*non-empty 'sql' list"):
        load_text2sql(path)


def test_malformed_entry_names_the_line_it_starts_on(tmp_path: Path) -> None:
    good = entry("SELECT 1 ;", [sentence("one", {})], [])
    path = tmp_path / "data.json"
    path.write_text(json.dumps([good, good, {"sql": []}], indent=2))
    line = [number for number, text in enumerate(path.read_text().splitlines(), start=1) if text == "  {"][2]
    with pytest.raises(DatasetError, match=rf"data\.json: entry 2 \(line {line}\) has no gold query"):
        load_text2sql(path)


def test_entry_with_empty_sql_string(tmp_path: Path) -> None:
    path = write(tmp_path, [entry("  ", [sentence("one", {})], [])])
    with pytest.raises(DatasetError, match="entry 0 [(]line [0-9]+[)] has no gold query"):
        load_text2sql(path)


def test_entry_with_empty_sentences(tmp_path: Path) -> None:
    path = write(tmp_path, [entry("SELECT 1 ;", [], [])])
    with pytest.raises(DatasetError, match=r"entry 0 [(]line [0-9]+[)] has no questions.*Add at least one sentence"):
        load_text2sql(path)


def test_sentence_with_empty_question(tmp_path: Path) -> None:
    path = write(tmp_path, [entry("SELECT 1 ;", [sentence("one", {}), sentence(" ", {})], [])])
    with pytest.raises(DatasetError, match=r"entry 0 [(]line [0-9]+[)], sentence 1 has an empty question"):
        load_text2sql(path)


def test_placeholder_in_question_without_value(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [entry(CAPITAL_SQL, [sentence("what is the capital of state_name0", {"state_name0": ""})],
               [variable("state_name0", "texas")])],
    )
    with pytest.raises(DatasetError, match=r"entry 0 [(]line [0-9]+[)], sentence 0: placeholder 'state_name0' is used in the question "
                                           r"and the SQL but has no value\. Add a non-empty value"):
        load_text2sql(path)


def test_sql_only_placeholder_without_value_or_example(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [entry(CAPITAL_SQL, [sentence("what is the capital", {})], [variable("state_name0", "", "sql-only")])],
    )
    with pytest.raises(DatasetError, match=r"'state_name0' is used in the SQL but has no value.*'example'"):
        load_text2sql(path)


def test_variable_definition_without_name(tmp_path: Path) -> None:
    path = write(tmp_path, [entry("SELECT 1 ;", [sentence("one", {})], [{"type": "state_name"}])])
    with pytest.raises(DatasetError, match="entry 0 [(]line [0-9]+[)]: variable definition 0 .* has no 'name'"):
        load_text2sql(path)
