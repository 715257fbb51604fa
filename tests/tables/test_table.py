"""Table round trips (JSON, CSV, WTQ escaping) on every real WikiTableQuestions table, and the
errors of malformed tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.table import Table, TableError, escape_wtq, unescape_wtq


@pytest.fixture(scope="module")
def wtq_tables(real_data_dir: Path) -> list[tuple[Path, Table]]:
    paths = sorted((real_data_dir / "wtq" / "csv").glob("*-csv/*.tsv"))
    if not paths:
        pytest.skip(f"no WikiTableQuestions tables under {real_data_dir / 'wtq' / 'csv'}")
    return [(path, Table.from_wtq_tsv(path, name=f"csv/{path.parent.name}/{path.stem}.csv")) for path in paths]


def test_all_wtq_tables_are_read(wtq_tables: list[tuple[Path, Table]]) -> None:
    # WTQ README: 2,108 tables.
    assert len(wtq_tables) == 2108
    assert all(table.num_columns > 0 for _, table in wtq_tables)


def test_json_round_trip_on_real_tables(wtq_tables: list[tuple[Path, Table]]) -> None:
    for _, table in wtq_tables:
        assert Table.from_json(table.to_json()) == table


def test_csv_round_trip_on_real_tables(wtq_tables: list[tuple[Path, Table]]) -> None:
    for _, table in wtq_tables:
        assert Table.from_csv(table.to_csv(), name=table.name) == table


def test_wtq_escaping_reproduces_the_tsv_files(wtq_tables: list[tuple[Path, Table]]) -> None:
    # WTQ README: newline -> \n, backslash -> \\, pipe -> \p; escaping every cell back gives the file.
    escaped_cells = 0
    for path, table in wtq_tables:
        lines = ["\t".join(escape_wtq(cell) for cell in row) for row in (table.header, *table.rows)]
        assert "\n".join(lines) + "\n" == path.read_text(encoding="utf-8"), path
        escaped_cells += sum(escape_wtq(cell) != cell for row in table.rows for cell in row)
    assert escaped_cells > 0  # the real tables do use the escapes


@pytest.mark.parametrize(("raw", "text"), [(r"a\nb", "a\nb"), (r"a\pb", "a|b"), ("a\\\\b", "a\\b"), ("a\\\\nb", "a\\nb")])
def test_wtq_escapes(raw: str, text: str) -> None:
    assert unescape_wtq(raw) == text and escape_wtq(text) == raw


def test_ragged_row_is_an_error() -> None:
    with pytest.raises(TableError, match="Row 1 of table t has 1 cells but the header has 2 columns"):
        Table(("a", "b"), (("1", "2"), ("3",)), "t")
    assert issubclass(TableError, DatasetError)


def test_ragged_wtq_file_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "0.tsv"
    path.write_text("Year\tCity\n2004\tAthens\n2008\n", encoding="utf-8")
    with pytest.raises(TableError, match=r"0\.tsv:3: 1 cells under a 2-column header"):
        Table.from_wtq_tsv(path)


def test_text_that_is_not_a_table() -> None:
    with pytest.raises(TableError, match="Not a serialised table"):
        Table.from_json('{"header": ["a"]}')
