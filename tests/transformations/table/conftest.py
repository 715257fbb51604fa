"""Fixtures of the table perturbation tests: Table QA inputs and real WikiTableQuestions examples."""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.tables.answers import format_answer, parse_answer
from textattack_semparse.tables.table import Table, unescape_wtq
from textattack_semparse.tables.table_text import table_input

WTQ_DEV = Path("wtq") / "data" / "random-split-1-dev.tsv"
SAMPLE_SIZE = 300


@dataclass(frozen=True)
class WtqExample:
    question: str
    table: Table
    gold: str

    @property
    def answers(self) -> list[str]:
        return parse_answer(self.gold)


def make_table_text(question: str, table: Table, answers: list[str] | None = None) -> AttackedText:
    """A Table QA input with the gold recorded as the goal functions record it."""
    text = AttackedText(table_input(question, table))
    if answers is not None:
        record_gold_output(text, format_answer(answers))
    return text


@pytest.fixture
def table_text() -> Callable[..., AttackedText]:
    return make_table_text


@pytest.fixture(scope="session")
def wtq_sample(real_data_dir: Path) -> list[WtqExample]:
    """The first 300 examples of WTQ's random-split-1-dev, each with its table (read from the ``.tsv``)."""
    path = real_data_dir / WTQ_DEV
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    with path.open(encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))[:SAMPLE_SIZE]
    tables: dict[str, Table] = {}
    examples = []
    for record in records:
        context = record["context"]
        if context not in tables:
            tables[context] = Table.from_wtq_tsv(real_data_dir / "wtq" / context.replace(".csv", ".tsv"), name=context)
        examples.append(WtqExample(unescape_wtq(record["utterance"]), tables[context], record["targetValue"]))
    return examples
