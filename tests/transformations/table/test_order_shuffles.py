"""RowShuffle and ColumnShuffle (RobuT's row and column order shuffles) on small tables."""

from __future__ import annotations

import pytest

from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_of
from textattack_semparse.transformations.table.column_shuffle import ColumnShuffle
from textattack_semparse.transformations.table.positional_questions import positional_word
from textattack_semparse.transformations.table.row_shuffle import RowShuffle

TABLE = Table(["Year", "City"], [["2001", "Oslo"], ["2004", "Rome"], ["2008", "Bergen"]])


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("which city is listed first?", "listed"),
        ("what is the last city?", "last"),
        ("which city is at the top of the table?", "top"),
        ("who is at the bottom?", "bottom"),
        ("what came next after oslo?", "next"),
        ("how many wins in a row?", "in a row"),
        ("how many cities hosted?", None),
    ],
)
def test_positional_questions_are_left_out(table_text, question: str, word: str | None) -> None:
    # The issue: questions about absolute position -- "first", "last", "listed", "top/bottom
    # of the table" -- are left out and reported.
    assert positional_word(question) == word
    for shuffle in (RowShuffle(), ColumnShuffle()):
        text = table_text(question, TABLE, ["3"])
        if word is None:
            assert shuffle(text) and shuffle.skip_reason(text) is None
        else:
            assert shuffle(text) == [] and shuffle.skip_reason(text) == f"question asks about position ({word!r})"


def test_two_rows_are_always_swapped(table_text) -> None:
    table = Table(["Year", "City"], [["2001", "Oslo"], ["2004", "Rome"]])
    for seed in range(10):
        (output,) = RowShuffle(seed=seed)(table_text("where in 2004?", table, ["Rome"]))
        assert table_of(output).rows == (("2004", "Rome"), ("2001", "Oslo"))


def test_identical_rows_cannot_be_reordered(table_text) -> None:
    table = Table(["Year"], [["2001"], ["2001"]])
    assert RowShuffle().skip_reason(table_text("when?", table, ["2001"])) == "fewer than two distinct rows"
    assert ColumnShuffle().skip_reason(table_text("when?", table, ["2001"])) == "fewer than two distinct columns"


def test_columns_move_with_their_headers(table_text) -> None:
    (output,) = ColumnShuffle()(table_text("where in 2004?", TABLE, ["Rome"]))
    shuffled = table_of(output)
    assert shuffled.header == ("City", "Year")
    assert shuffled.column(0) == TABLE.column(1) and shuffled.column(1) == TABLE.column(0)
