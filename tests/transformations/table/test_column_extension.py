"""ColumnExtension (RobuT's column extension): compound columns split into equivalent columns."""

from __future__ import annotations

from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_changes, table_of
from textattack_semparse.transformations.table.column_extension import ColumnExtension, split_compound


def test_the_issue_s_three_compound_kinds() -> None:
    # The issue: "Score" 2–1 -> two scores, dates -> year/month/day, "Name (Country)" -> two columns.
    assert split_compound("Score", ["2–1", "3-3", ""]) == (
        "score",
        ("Score (left)", "Score (right)"),
        [("2", "3", ""), ("1", "3", "")],
    )
    assert split_compound("Date", ["12 May 2001", "2002-06-03", "Jan. 4, 2003"])[2] == [
        ("2001", "2002", "2003"),
        ("May", "06", "Jan."),
        ("12", "03", "4"),
    ]
    assert split_compound("Athlete (Nation)", ["Ann Li (CHN)", "Bo Svensson (SWE)"]) == (
        "name (detail)",
        ("Athlete", "Nation"),
        [("Ann Li", "Bo Svensson"), ("CHN", "SWE")],
    )
    assert split_compound("Winner", ["Ann Li (CHN)", "Bo Svensson"])[1] == ("Winner", "Winner (in parentheses)")


def test_columns_that_are_not_compound() -> None:
    assert split_compound("Score", ["2–1", "walkover"]) is None
    assert split_compound("Score", ["2–1"]) is None  # one filled cell is no evidence
    assert split_compound("City", ["Oslo", "Rome (Italy)", "Bergen", "Paris"]) is None  # too few parentheses


def test_the_split_columns_replace_the_compound_one(table_text) -> None:
    table = Table(["Opponent", "Score", "Venue"], [["Chile", "2–1", "Lima"], ["Peru", "0–0", "Quito"]])
    (output,) = ColumnExtension()(table_text("where did they play chile?", table, ["Lima"]))
    extended = table_of(output)
    assert extended.header == ("Opponent", "Score (left)", "Score (right)", "Venue")
    assert extended.rows == (("Chile", "2", "1", "Lima"), ("Peru", "0", "0", "Quito"))
    assert "Score" in table_changes(output)[0].description


def test_a_column_holding_the_answer_is_not_split(table_text) -> None:
    table = Table(["Opponent", "Score"], [["Chile", "2–1"], ["Peru", "0–0"]])
    extension = ColumnExtension()
    text = table_text("what was the score against chile?", table, ["2–1"])
    assert extension(text) == []
    assert extension.skip_reason(text) == "compound columns hold a gold answer value or would repeat a header"
    assert extension.skip_reason(table_text("who?", Table(["A"], [["x"], ["y"]]), ["x"])) == "no compound column"
