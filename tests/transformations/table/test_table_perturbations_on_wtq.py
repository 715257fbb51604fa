"""RobuT's table perturbations on the first 300 examples of WTQ random-split-1-dev: the gold answer survives.

Zhao et al. (2023), "RobuT: A Systematic Study of Table QA Robustness Against Human-Annotated
Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321; WikiTableQuestions:
Pasupat and Liang (2015), https://arxiv.org/abs/1508.00305.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.tables.header_names import header_abbreviations, header_synonyms
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import QUESTION_COLUMN, table_changes, table_input, table_of
from textattack_semparse.transformations.table.answer_cells import normalize_value
from textattack_semparse.transformations.table.column_adding import ColumnAdding
from textattack_semparse.transformations.table.column_extension import ColumnExtension
from textattack_semparse.transformations.table.column_masking import ColumnMasking
from textattack_semparse.transformations.table.column_shuffle import ColumnShuffle
from textattack_semparse.transformations.table.header_abbreviation import HeaderAbbreviation
from textattack_semparse.transformations.table.header_synonym_replacement import HeaderSynonymReplacement
from textattack_semparse.transformations.table.positional_questions import table_position_words
from textattack_semparse.transformations.table.row_shuffle import RowShuffle
from textattack_semparse.transformations.table.table_transformation import TableTransformation

PERTURBATIONS: dict[str, Callable[[], TableTransformation]] = {
    "header-synonym": HeaderSynonymReplacement,
    "header-abbreviation": HeaderAbbreviation,
    "row-shuffle": RowShuffle,
    "column-shuffle": ColumnShuffle,
    "column-extension": ColumnExtension,
    "column-masking": ColumnMasking,
    "column-adding": ColumnAdding,
}

# RobuT leaves out of both shuffles "a small number" of questions about absolute position; the
# plainest of them say where a row is listed.
LISTED_FIRST_OR_LAST = re.compile(r"\b(first|last)\b.*\blisted\b|\blisted\b.*\b(first|last)\b", re.IGNORECASE)


def _text(example) -> AttackedText:
    text = AttackedText(table_input(example.question, example.table))
    record_gold_output(text, example.gold)
    return text


@pytest.fixture(scope="module")
def runs(wtq_sample) -> dict[str, list[tuple[AttackedText, list[AttackedText], str | None]]]:
    """Per perturbation: each sampled input, its outputs and its skip reason."""
    results = {}
    for name, build in PERTURBATIONS.items():
        perturbation = build()
        results[name] = [
            (text, perturbation(text), perturbation.skip_reason(text)) for text in map(_text, wtq_sample)
        ]
    return results


def _cells(table: Table) -> set[str]:
    return {normalize_value(cell) for cell in table.cells()}


def _answers_that_are_cells(text: AttackedText, example) -> set[str]:
    return {normalize_value(value) for value in example.answers} & _cells(table_of(text))


@pytest.mark.parametrize("name", list(PERTURBATIONS))
def test_every_input_gets_one_output_or_a_reason(runs, name) -> None:
    outcomes = runs[name]
    for text, outputs, reason in outcomes:
        assert (len(outputs) == 1) != (reason is not None), (name, reason)
        for output in outputs:
            assert output._text_input[QUESTION_COLUMN] == text._text_input[QUESTION_COLUMN]
            changes = table_changes(output)
            assert [change.perturbation for change in changes] == [name]
            assert changes[0].description and changes[0].answer_kept
    applied = sum(1 for _, outputs, _ in outcomes if outputs)
    reasons = Counter(reason for _, _, reason in outcomes if reason)
    assert applied > 0, (name, reasons)


@pytest.mark.parametrize("name", ["row-shuffle", "column-shuffle", "column-adding"])
def test_every_gold_value_that_was_a_cell_stays_a_cell(runs, wtq_sample, name) -> None:
    for (text, outputs, _), example in zip(runs[name], wtq_sample):
        for output in outputs:
            assert _answers_that_are_cells(text, example) <= _cells(table_of(output)), example.question


@pytest.mark.parametrize("name", ["column-masking", "column-extension"])
def test_no_cell_equal_to_a_gold_value_is_removed(runs, wtq_sample, name) -> None:
    for (text, outputs, _), example in zip(runs[name], wtq_sample):
        for output in outputs:
            assert _answers_that_are_cells(text, example) <= _cells(table_of(output)), example.question


def test_column_adding_keeps_every_original_column_in_order_and_adds_none_with_the_answer(runs, wtq_sample) -> None:
    for (text, outputs, _), example in zip(runs["column-adding"], wtq_sample):
        for output in outputs:
            before, after = table_of(text), table_of(output)
            columns = [(name, after.column(i)) for i, name in enumerate(after.header)]
            original = [(name, before.column(i)) for i, name in enumerate(before.header)]
            remaining = iter(columns)
            assert all(column in remaining for column in original)
            added = [column for column in columns if column not in original]
            assert len(added) == 1
            answers = {normalize_value(value) for value in example.answers}
            assert not answers & {normalize_value(cell) for cell in added[0][1]}
            assert normalize_value(added[0][0]) not in {normalize_value(name) for name in before.header}


@pytest.mark.parametrize(
    ("name", "alternatives"),
    [("header-synonym", header_synonyms), ("header-abbreviation", header_abbreviations)],
)
def test_header_perturbations_change_header_text_and_nothing_else(runs, name, alternatives) -> None:
    for text, outputs, _ in runs[name]:
        for output in outputs:
            before, after = table_of(text), table_of(output)
            assert after.rows == before.rows and after.name == before.name
            changed = [(old, new) for old, new in zip(before.header, after.header) if old != new]
            assert changed and len(after.header) == len(before.header)
            assert all(new in alternatives(old) for old, new in changed)
            assert len({normalize_value(h) for h in after.header}) >= len({normalize_value(h) for h in before.header})


def test_row_shuffle_reorders_the_same_rows(runs) -> None:
    for text, outputs, _ in runs["row-shuffle"]:
        for output in outputs:
            before, after = table_of(text), table_of(output)
            assert after.rows != before.rows and sorted(after.rows) == sorted(before.rows)
            assert after.header == before.header


def test_column_shuffle_reorders_the_same_columns(runs) -> None:
    for text, outputs, _ in runs["column-shuffle"]:
        for output in outputs:
            before, after = table_of(text), table_of(output)
            old = [(h, before.column(i)) for i, h in enumerate(before.header)]
            new = [(h, after.column(i)) for i, h in enumerate(after.header)]
            assert new != old and sorted(new) == sorted(old)


@pytest.mark.parametrize("name", ["row-shuffle", "column-shuffle"])
def test_questions_about_position_in_the_table_are_left_out_and_few(runs, name) -> None:
    listed, left_out = 0, 0
    for text, outputs, reason in runs[name]:
        if reason is not None and reason.startswith("question asks about position ("):
            left_out += 1
            assert outputs == []
        if LISTED_FIRST_OR_LAST.search(text._text_input[QUESTION_COLUMN]) is not None:
            listed += 1
            assert outputs == [] and reason is not None and reason.startswith("question asks about position (")
    assert listed > 0
    # "A small number": under a tenth of the questions.
    assert 0 < left_out < len(runs[name]) / 10


@pytest.mark.parametrize("name", list(PERTURBATIONS))
def test_same_seed_same_output(runs, wtq_sample, name) -> None:
    again = PERTURBATIONS[name]()
    for (text, outputs, _), example in list(zip(runs[name], wtq_sample))[:60]:
        assert [table_of(o) for o in again(_text(example))] == [table_of(o) for o in outputs]


@pytest.mark.parametrize("build", [RowShuffle, ColumnShuffle])
def test_another_seed_gives_another_order(runs, wtq_sample, build) -> None:
    first, second = build(seed=0), build(seed=1)
    texts = [_text(example) for example in wtq_sample[:40]]
    pairs = [(first(text), second(text)) for text in texts]
    assert any(a and b and table_of(a[0]) != table_of(b[0]) for a, b in pairs)


def test_the_shuffles_leave_out_141_of_the_2831_dev_questions(real_data_dir) -> None:
    # The figure docs/tables.md and positional_questions quote (the rule alone; a shuffle also
    # leaves out tables with fewer than two distinct rows or columns).
    with (real_data_dir / "wtq" / "data" / "random-split-1-dev.tsv").open(encoding="utf-8", newline="") as handle:
        questions = [record["utterance"] for record in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)]
    assert len(questions) == 2831
    assert sum(table_position_words(question) is not None for question in questions) == 141
