"""Tests of textattack_semparse/victims/llm/prompts.py: the "Create Table + Select 3" prompt."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import SchemaError
from textattack_semparse.victims.llm.prompts import DEFAULT_TEMPLATE, INSTRUCTION, DatabasePrompt, PromptTemplate


@pytest.fixture(scope="module")
def geo_mini_db() -> Path:
    database = load_benchmark("geo-mini").database
    assert database is not None
    return database


@pytest.fixture(scope="module")
def geo_mini_train() -> list[SemparseExample]:
    return load_benchmark("geo-mini").split("question", "train")


def checksum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tables_of(path: Path) -> list[str]:
    """Table names read directly from sqlite_master, independently of the prompt code."""
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as connection:
        return [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )]


def first_rows(path: Path, table: str) -> tuple[list[str], list[tuple[object, ...]]]:
    """Header and rows of ``SELECT * FROM table LIMIT 3``, run here."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        cursor = connection.execute(f'SELECT * FROM "{table}" LIMIT 3')
        return [column[0] for column in cursor.description], cursor.fetchall()
    finally:
        connection.close()


def shown(value: object) -> str:
    return "NULL" if value is None else str(value)


def rows_comment_of(prompt: str, table: str) -> list[str]:
    """The header and row lines of ``table``'s example-row comment in ``prompt``."""
    match = re.search(
        r"/\*\n3 example rows:\nSELECT \* FROM " + re.escape(table) + r" LIMIT 3;\n(.*?)\n\*/", prompt, re.DOTALL
    )
    assert match is not None, f"no example-row comment for {table}"
    return match.group(1).split("\n")


def assert_create_table_select_3(path: Path, prompt: str) -> None:
    tables = tables_of(path)
    assert tables
    assert re.findall(r'^CREATE TABLE "([^"]+)" \($', prompt, re.MULTILINE) == tables
    assert prompt.count("3 example rows:") == len(tables)
    for table in tables:
        header, rows = first_rows(path, table)
        lines = rows_comment_of(prompt, table)
        assert lines[0] == "\t".join(header)
        assert len(lines) - 1 == len(rows) <= 3
        for line, row in zip(lines[1:], rows):
            assert line.split("\t") == [shown(value) for value in row]


def make_db(path: Path) -> Path:
    with sqlite3.connect(path) as connection:
        connection.executescript(
            """
            CREATE TABLE state (state_name TEXT PRIMARY KEY, population INT NOT NULL, note TEXT);
            CREATE TABLE city (city_name TEXT, state_name TEXT REFERENCES state (state_name), PRIMARY KEY (city_name, state_name));
            CREATE TABLE "odd name" (x INT);
            CREATE TABLE empty (y REAL);
            INSERT INTO state VALUES ('texas', 1, 'big' || char(9) || 'state' || char(10) || 'in the south'),
                                     ('ohio', 2, NULL), ('alaska', 3, 'cold */ here'), ('utah', 4, NULL);
            INSERT INTO city VALUES ('austin', 'texas');
            INSERT INTO "odd name" VALUES (1), (2);
            """
        )
    connection.close()
    return path


def test_geo_mini_prompt_has_every_table_and_three_rows(geo_mini_db):
    assert_create_table_select_3(geo_mini_db, DatabasePrompt(geo_mini_db)("how many states are there"))


def test_geo_mini_database_is_not_modified(geo_mini_db, geo_mini_train):
    before = checksum(geo_mini_db)
    DatabasePrompt(geo_mini_db)("how many states are there", geo_mini_train[:3])
    assert checksum(geo_mini_db) == before


def test_zero_shot_ends_with_instruction_question_and_select(geo_mini_db):
    prompt = DatabasePrompt(geo_mini_db)("what is the capital of texas")
    assert prompt.endswith(f"*/\n\n{INSTRUCTION}\n\n-- what is the capital of texas\nSELECT")


def test_k_shot_has_demonstrations_in_order_and_question_last(geo_mini_db, geo_mini_train):
    demonstrations = geo_mini_train[:4]
    prompt = DatabasePrompt(geo_mini_db)("how many rivers are there", demonstrations)
    position = prompt.index(INSTRUCTION) + len(INSTRUCTION) + 2
    for example in demonstrations:
        block = f"-- {example.question}\n{example.gold.strip()}\n\n"
        assert prompt.index(block, position) == position  # next, right after the previous one
        position += len(block)
    assert prompt[position:] == "-- how many rivers are there\nSELECT"


def test_output_is_deterministic(geo_mini_db, geo_mini_train):
    first = DatabasePrompt(geo_mini_db)("q", geo_mini_train[:2])
    assert DatabasePrompt(geo_mini_db)("q", geo_mini_train[:2]) == first


def test_custom_template_is_honoured(geo_mini_db, geo_mini_train):
    template = PromptTemplate("### Schema\n{schema}\n### Examples\n{demonstrations}### Q: {question}\n### SQL:", prefix="")
    prompt = DatabasePrompt(geo_mini_db, template=template)("how big is texas", geo_mini_train[:1])
    assert prompt.startswith('### Schema\nCREATE TABLE "state" (')
    assert f"### Examples\n-- {geo_mini_train[0].question}\n" in prompt
    assert prompt.endswith("### Q: how big is texas\n### SQL:")
    assert INSTRUCTION not in prompt


def test_default_template_matches_paper_layout():
    assert PromptTemplate().template == DEFAULT_TEMPLATE
    assert PromptTemplate().prefix == "SELECT"


def test_unknown_placeholder_is_rejected_with_hint():
    with pytest.raises(ValueError, match=r"\{questoin\} is unknown \(did you mean \{question\}\?\); use \{schema\}"):
        PromptTemplate("{schema} {questoin}", prefix="")


def test_attribute_access_placeholder_is_rejected():
    with pytest.raises(ValueError, match="unknown"):
        PromptTemplate("{question.__class__}", prefix="")


def test_template_without_question_is_rejected():
    with pytest.raises(ValueError, match="no \\{question\\}"):
        PromptTemplate("{schema}", prefix="")


def test_template_not_ending_with_prefix_is_rejected():
    with pytest.raises(ValueError, match="must end with its prefix 'SELECT'"):
        PromptTemplate("{schema}\n{question}")


def test_primary_and_foreign_keys_are_shown(tmp_path):
    prompt = DatabasePrompt(make_db(tmp_path / "keys.sqlite"))("q")
    assert 'PRIMARY KEY ("state_name")' in prompt
    assert 'PRIMARY KEY ("city_name", "state_name")' in prompt
    assert 'FOREIGN KEY ("state_name") REFERENCES "state" ("state_name")' in prompt
    assert '"population" INT' in prompt


def test_fewer_rows_for_small_tables_and_none_for_empty(tmp_path):
    prompt = DatabasePrompt(make_db(tmp_path / "small.sqlite"))("q")
    assert rows_comment_of(prompt, "city") == ["city_name\tstate_name", "austin\ttexas"]
    assert rows_comment_of(prompt, "empty") == ["y"]
    assert 'SELECT * FROM "odd name" LIMIT 3;\nx\n1\n2\n*/' in prompt


def test_values_stay_on_one_line_and_inside_the_comment(tmp_path):
    prompt = DatabasePrompt(make_db(tmp_path / "values.sqlite"))("q")
    assert rows_comment_of(prompt, "state")[1:] == [
        "texas\t1\tbig state in the south", "ohio\t2\tNULL", "alaska\t3\tcold * / here"
    ]


def test_long_values_are_truncated(tmp_path):
    path = tmp_path / "long.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (text TEXT)")
        connection.execute("INSERT INTO t VALUES (?)", ("x" * 500,))
    connection.close()
    prompt = DatabasePrompt(path, max_value_chars=20)("q")
    assert rows_comment_of(prompt, "t")[1] == "x" * 17 + "..."


def test_num_rows_zero_omits_example_rows(geo_mini_db):
    prompt = DatabasePrompt(geo_mini_db, num_rows=0)("q")
    assert "example rows" not in prompt and prompt.startswith('CREATE TABLE "state"')


def test_schema_text_is_read_once_and_cached(tmp_path):
    path = make_db(tmp_path / "cached.sqlite")
    prompt = DatabasePrompt(path)
    first = prompt("q")
    path.unlink()
    assert prompt("q") == first


def test_database_file_is_not_modified_and_no_journal_is_left(tmp_path):
    path = make_db(tmp_path / "ro.sqlite")
    before = checksum(path)
    DatabasePrompt(path)("q")
    assert checksum(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro.sqlite"]


def test_missing_database_raises_schema_error_on_first_use(tmp_path):
    prompt = DatabasePrompt(tmp_path / "missing.sqlite")
    with pytest.raises(SchemaError, match="does not exist"):
        prompt("q")


def test_question_and_demonstration_are_put_on_one_line(geo_mini_db):
    demo = SemparseExample(question="cities\nin texas", gold="SELECT city_name FROM city ;\n")
    prompt = DatabasePrompt(geo_mini_db)("rivers\n in  ohio", [demo])
    assert prompt.endswith("-- cities in texas\nSELECT city_name FROM city ;\n\n-- rivers in ohio\nSELECT")


def test_bad_parameters_are_rejected(geo_mini_db):
    with pytest.raises(ValueError, match="num_rows"):
        DatabasePrompt(geo_mini_db, num_rows=-1)
    with pytest.raises(TypeError, match="PromptTemplate"):
        DatabasePrompt(geo_mini_db, template="{question}")  # type: ignore[arg-type]


def test_repr_lists_parameters(geo_mini_db):
    text = repr(DatabasePrompt(geo_mini_db, num_rows=2))
    assert "num_rows=2" in text and "max_value_chars=100" in text and "template=PromptTemplate(" in text


def test_real_geoquery_prompt(real_data_dir, tmp_path):
    source = real_data_dir / "text2sql" / "geography.sqlite"
    if not source.is_file():
        pytest.skip(f"{source} is missing")
    before = checksum(source)
    geo = load_benchmark("geo-mini")
    prompt = DatabasePrompt(source)("what is the highest point in texas", geo.split("question", "train")[:2])
    assert_create_table_select_3(source, prompt)
    assert prompt.endswith("-- what is the highest point in texas\nSELECT")
    assert checksum(source) == before
