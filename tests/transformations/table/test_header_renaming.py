"""HeaderSynonymReplacement and HeaderAbbreviation (RobuT's header perturbations) on small tables."""

from __future__ import annotations

import pytest

from textattack_semparse.tables.header_names import header_abbreviations, header_synonyms
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_changes, table_of
from textattack_semparse.transformations.table.header_abbreviation import HeaderAbbreviation
from textattack_semparse.transformations.table.header_synonym_replacement import HeaderSynonymReplacement

TABLE = Table(
    ["Year", "Attendance", "Opponent", "Points"], [["2001", "5,000", "Chile", "3"], ["2002", "7,100", "Peru", "1"]]
)


@pytest.mark.parametrize(
    ("build", "alternatives", "renameable"),
    [(HeaderSynonymReplacement, header_synonyms, 2), (HeaderAbbreviation, header_abbreviations, 4)],
)
def test_every_renameable_column_is_renamed_by_default(table_text, build, alternatives, renameable) -> None:
    (output,) = build()(table_text("what was the attendance against chile?", TABLE, ["5,000"]))
    renamed = table_of(output)
    changed = [(old, new) for old, new in zip(TABLE.header, renamed.header) if old != new]
    assert len(changed) == renameable and renamed.rows == TABLE.rows
    assert all(new in alternatives(old) for old, new in changed)
    assert table_changes(output)[0].description.count("header") == renameable


def test_columns_to_change_limits_the_renamed_columns(table_text) -> None:
    outputs = HeaderAbbreviation(columns_to_change=1, num_candidates=3)(table_text("how many points?", TABLE, ["4"]))
    assert len(outputs) == 3
    for output in outputs:
        assert sum(old != new for old, new in zip(TABLE.header, table_of(output).header)) == 1


def test_a_header_equal_to_the_answer_keeps_its_name(table_text) -> None:
    table = Table(["Country", "Gold", "Silver"], [["Chile", "3", "1"], ["Peru", "1", "2"]])
    (output,) = HeaderSynonymReplacement()(table_text("which medal did chile win most of?", table, ["Gold"]))
    assert table_of(output).header == ("Nation", "Gold", "Silver medals")


def test_new_names_never_collide_with_existing_headers(table_text) -> None:
    table = Table(["Country", "Nation"], [["Chile", "CHI"], ["Peru", "PER"]])
    perturbation = HeaderSynonymReplacement()
    text = table_text("what is chile's code?", table, ["CHI"])
    assert perturbation(text) == [] and perturbation.skip_reason(text) == "no header has a synonym"


def test_no_alternative_no_output(table_text) -> None:
    table = Table(["#", "2007"], [["1", "x"], ["2", "y"]])
    assert HeaderAbbreviation().skip_reason(table_text("what in 2007?", table, ["x"])) == "no header has an abbreviation"


def test_columns_to_change_is_checked() -> None:
    with pytest.raises(ValueError, match="columns_to_change"):
        HeaderSynonymReplacement(columns_to_change=0)
