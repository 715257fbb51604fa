"""RowShuffle and ColumnShuffle (RobuT's row and column order shuffles) on small tables."""

from __future__ import annotations

import pytest

from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_of
from textattack_semparse.transformations.table.column_shuffle import ColumnShuffle
from textattack_semparse.transformations.table.positional_questions import table_position_words
from textattack_semparse.transformations.table.row_shuffle import RowShuffle

TABLE = Table(["Year", "City"], [["2001", "Oslo"], ["2004", "Rome"], ["2008", "Bergen"]])


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("which city is listed first?", ("first", "listed")),
        ("what is the last city on the list?", ("last", "list")),
        ("which city is at the top of the table?", ("top", "table")),
        ("what city is listed after oslo?", ("after", "listed")),
        ("what is the last entry of the chart?", ("last", "entry")),
        # An order word alone asks about ranks or dates the cells carry: kept.
        ("who came in first?", None),
        ("which cities hosted after 2001?", None),
        ("what was the last city to host?", None),
        # "list" opening the question is an instruction, not the table's layout.
        ("list the last two cities.", None),
        ("how many cities are listed?", None),
    ],
)
def test_questions_about_position_in_the_table_are_left_out(table_text, question: str, words) -> None:
    # RobuT leaves out a small number of questions asking about absolute position: those naming
    # the table's layout and an order.
    assert table_position_words(question) == words
    for shuffle in (RowShuffle(), ColumnShuffle()):
        text = table_text(question, TABLE, ["3"])
        if words is None:
            assert shuffle(text) and shuffle.skip_reason(text) is None
        else:
            reason = f"question asks about position ({words[0]!r} with {words[1]!r})"
            assert shuffle(text) == [] and shuffle.skip_reason(text) == reason


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
