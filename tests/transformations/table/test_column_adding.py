"""ColumnAdding (RobuT's column adding) with real WTQ tables as the pool."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from textattack_semparse.errors import ResourceError
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_changes, table_of
from textattack_semparse.transformations.table.answer_cells import content_words
from textattack_semparse.transformations.table.column_adding import ColumnAdding, header_text, read_table_pool

SMALL_POOL = Path("wtq") / "csv" / "200-csv"
MEDALS = Table(
    ["Rank", "Nation", "Gold", "Silver", "Bronze", "Total"],
    [["1", "Chile", "3", "1", "0", "4"], ["2", "Peru", "1", "2", "2", "5"], ["3", "Cuba", "0", "1", "1", "2"]],
    "medals",
)


@pytest.fixture(scope="module")
def pool_dir(real_data_dir: Path) -> str:
    return str(real_data_dir / SMALL_POOL)


def test_pool_tables_are_named_by_their_wtq_context(pool_dir: str) -> None:
    tables = read_table_pool(Path(pool_dir))
    assert tables and all(t.name.startswith("csv/200-csv/") and t.name.endswith(".csv") for t in tables)


def test_adds_a_column_of_a_related_table_without_the_answer(table_text, pool_dir: str) -> None:
    adding = ColumnAdding(table_dir=pool_dir)
    (output,) = adding(table_text("how many gold medals did peru win?", MEDALS, ["1"]))
    added = table_of(output)
    assert added.num_columns == MEDALS.num_columns + 1 and added.num_rows == MEDALS.num_rows
    (new,) = [i for i, name in enumerate(added.header) if name not in MEDALS.header]
    assert not {"1", "peru", "gold"} & {cell.casefold() for cell in added.column(new)}
    assert not content_words(added.header[new]) & content_words(" ".join(MEDALS.header))
    related = next(adding.ranked(MEDALS))
    assert content_words(header_text(related)) & content_words(header_text(MEDALS))
    assert "added column" in table_changes(output)[0].description


def test_the_table_itself_is_not_a_source(table_text, pool_dir: str) -> None:
    adding = ColumnAdding(table_dir=pool_dir)
    table = read_table_pool(Path(pool_dir))[0]
    assert table.name not in {t.name for t in adding.ranked(table)}


def test_default_pool_is_the_data_dir_wtq_tables(monkeypatch, real_data_dir: Path) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    assert ColumnAdding().pool_dir() == real_data_dir / "wtq" / "csv"
    monkeypatch.delenv("SEMPARSE_DATA_DIR")
    with pytest.raises(ResourceError, match="SEMPARSE_DATA_DIR"):
        ColumnAdding().pool_dir()


def test_sentence_bert_similarity_option(table_text, pool_dir: str) -> None:
    adding = ColumnAdding(table_dir=pool_dir, similarity="sentence-bert")
    (output,) = adding(table_text("how many gold medals did peru win?", MEDALS, ["1"]))
    assert table_of(output).num_columns == MEDALS.num_columns + 1
    assert adding.similarities(MEDALS).shape == (len(adding.pool()),)


def test_the_index_is_built_once_and_not_pickled(table_text, pool_dir: str) -> None:
    adding = ColumnAdding(table_dir=pool_dir)
    adding(table_text("how many gold medals did peru win?", MEDALS, ["1"]))
    index = adding._encoder()
    assert adding._encoder() is index
    copy = pickle.loads(pickle.dumps(adding))
    assert copy._index is None and copy._pool is None


def test_bad_options_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="tfidf"):
        ColumnAdding(similarity="bm25")
    with pytest.raises(ResourceError, match="table_dir"):
        ColumnAdding(table_dir=str(tmp_path / "missing"))
