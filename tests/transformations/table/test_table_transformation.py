"""The table perturbation base: what it reads, when it skips, how it seeds, how it is registered."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from textattack.shared import AttackedText

from textattack_semparse.registry import get_registry
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_changes, table_of
from textattack_semparse.transformations.table.row_shuffle import RowShuffle
from textattack_semparse.transformations.table.table_transformation import NO_GOLD, NO_TABLE

TABLE_PERTURBATIONS = (
    "header-synonym",
    "header-abbreviation",
    "row-shuffle",
    "column-shuffle",
    "column-extension",
    "column-masking",
    "column-adding",
)
TABLE = Table(
    ["Year", "City", "Country"], [["2001", "Oslo", "Norway"], ["2004", "Rome", "Italy"], ["2008", "Bergen", "Norway"]]
)


@pytest.mark.parametrize("name", TABLE_PERTURBATIONS)
def test_registered_and_silent_on_text_to_sql_inputs(name: str) -> None:
    perturbation = get_registry().get("perturbation", name).create()
    spider = AttackedText(OrderedDict(question="how many singers do we have?", db_id="concert_singer"))
    assert perturbation(spider) == []
    assert perturbation.skip_reason(spider) == NO_TABLE
    assert perturbation.seed == 0 and perturbation.deterministic


def test_the_example_read_from_the_text(table_text) -> None:
    example = RowShuffle().example(table_text("where was it in 2004?", TABLE, ["Rome"]))
    assert (example.question, example.table, example.answers) == ("where was it in 2004?", TABLE, ("Rome",))
    assert RowShuffle().example(table_text("where was it in 2004?", TABLE)).answers is None


def test_perturbations_that_need_the_gold_skip_without_it(table_text) -> None:
    masking = get_registry().get("perturbation", "column-masking").create()
    assert masking.skip_reason(table_text("which country?", TABLE)) == NO_GOLD
    assert RowShuffle().skip_reason(table_text("where was it in 2004?", TABLE)) is None


def test_output_records_the_change_and_keeps_the_question(table_text) -> None:
    text = table_text("where was it in 2004?", TABLE, ["Rome"])
    (output,) = RowShuffle()(text)
    assert output.attack_attrs["last_transformation"].__class__ is RowShuffle
    assert output.attack_attrs["previous_attacked_text"] is text
    assert [change.perturbation for change in table_changes(output)] == ["row-shuffle"]
    assert output.words[: len(text.words_per_input[0])] == text.words_per_input[0]


def test_indices_to_modify_are_ignored(table_text) -> None:
    text = table_text("where was it in 2004?", TABLE, ["Rome"])
    unrestricted = [table_of(t) for t in RowShuffle()(text)]
    assert [table_of(t) for t in RowShuffle()(text, indices_to_modify=set())] == unrestricted


def test_the_generator_depends_on_seed_and_input_only(table_text) -> None:
    text = table_text("where was it in 2004?", TABLE, ["Rome"])
    same_input = table_text("where was it in 2004?", TABLE)
    assert RowShuffle(seed=3).rng(text).random() == RowShuffle(seed=3).rng(same_input).random()
    assert RowShuffle(seed=3).rng(text).random() != RowShuffle(seed=4).rng(text).random()
    assert not RowShuffle(seed=None).deterministic


def test_num_candidates_caps_the_outputs(table_text) -> None:
    text = table_text("where was it in 2004?", TABLE, ["Rome"])
    outputs = RowShuffle(num_candidates=4)(text)
    assert len(outputs) == 4 and len({table_of(o) for o in outputs}) == 4


@pytest.mark.parametrize(("argument", "value"), [("num_candidates", 0), ("seed", True)])
def test_bad_arguments_are_rejected(argument: str, value: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        RowShuffle(**{argument: value})


def test_table_perturbations_compose_and_keep_reading_the_original_gold(table_text) -> None:
    # RobuT's "mix": perturbations applied one after another; the gold stays on the original.
    text = table_text("what city hosted in 2004?", TABLE, ["Rome"])
    (shuffled,) = RowShuffle()(text)
    masking = get_registry().get("perturbation", "column-masking").create()
    assert masking.example(shuffled).answers == ("Rome",)
    (abbreviated,) = get_registry().get("perturbation", "header-abbreviation").create()(shuffled)
    assert [change.perturbation for change in table_changes(abbreviated)] == ["row-shuffle", "header-abbreviation"]
    assert table_of(abbreviated).rows == table_of(shuffled).rows
