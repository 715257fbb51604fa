"""ColumnMasking (RobuT's column masking): drop a column another column determines."""

from __future__ import annotations

from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_changes, table_of
from textattack_semparse.transformations.table.column_masking import ColumnMasking, determining_column

TABLE = Table(
    ["Year", "Nation", "Code", "Athlete"],
    [
        ["2001", "Chile", "CHI", "Ana"],
        ["2002", "Peru", "PER", "Bo"],
        ["2003", "Chile", "CHI", "Cy"],
        ["2004", "Peru", "PER", "Di"],
        ["2005", "Cuba", "CUB", "Ed"],
    ],
)


def test_dependencies_found_from_the_data() -> None:
    # Nation -> Code and Code -> Nation, each evidenced by two repeated values.
    assert determining_column(TABLE, 2) == 1 and determining_column(TABLE, 1) == 2
    assert determining_column(TABLE, 0) is None and determining_column(TABLE, 3) is None
    assert determining_column(TABLE, 2, min_evidence=3) is None


def test_a_dependency_needs_repeated_values() -> None:
    table = Table(["Nation", "Code"], [["Chile", "CHI"], ["Peru", "PER"]])
    assert determining_column(table, 1) is None


def test_the_dropped_column_is_determined_and_not_needed(table_text) -> None:
    masking = ColumnMasking(num_candidates=5)
    outputs = masking(table_text("who won in 2003?", TABLE, ["Cy"]))
    assert sorted(table_of(o).header for o in outputs) == [("Year", "Code", "Athlete"), ("Year", "Nation", "Athlete")]
    assert all("determined by" in table_changes(o)[0].description for o in outputs)


def test_never_a_column_the_question_or_the_answer_needs(table_text) -> None:
    masking = ColumnMasking(num_candidates=5)

    def kept(question: str, answer: str) -> list[tuple[str, ...]]:
        return [table_of(o).header for o in masking(table_text(question, TABLE, [answer]))]

    assert kept("which nation won in 2003?", "Chile") == [("Year", "Nation", "Athlete")]  # named, holds the answer
    assert kept("what code had the 2003 winner?", "CHI") == [("Year", "Code", "Athlete")]
    assert kept("who won for peru in 2004?", "Di") == [("Year", "Nation", "Athlete")]  # "peru" is a Nation cell
    text = table_text("which nation code won in 2003?", TABLE, ["CHI"])
    assert masking(text) == []
    assert masking.skip_reason(text) == (
        "determined columns hold a gold answer value or the question names them or their cells"
    )
    keyed = Table(["A", "B"], [["1", "x"], ["2", "y"]])
    assert masking.skip_reason(table_text("who?", keyed, ["x"])) == "no determined column"
