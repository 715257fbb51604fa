"""The record every dataset loader produces and every victim consumes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from textattack_semparse.tables.table import Table

ORIGINAL = "original"
"""``SemparseExample.perturbation`` of an unperturbed example of a released robustness benchmark
(RobuT's ``perturbation_type`` of its originals)."""


@dataclass(frozen=True)
class SemparseExample:
    """One question paired with its gold meaning representation.

    Args:
        question (str): The natural-language question, database values filled in.
        gold (str): Gold SQL or logical form, database values filled in.
        db_id (str | None): Database identifier for multi-database benchmarks (Spider);
            ``None`` when the benchmark has a single database.
        template_question (str | None): The question with typed placeholders
            (``"cities in state_name0"``), when the format provides one.
        template_gold (str | None): The gold query with the same placeholders.
        variables (Mapping[str, str]): Placeholder -> database value (``{"state_name0": "texas"}``).
        variable_types (Mapping[str, str]): Placeholder -> value type (``{"state_name0": "state_name"}``).
        question_split (str | None): ``train``/``dev``/``test`` (or a fold number) in the question split.
        query_split (str | None): The same for the query split.
        table (Table | None): The table a Table QA question is asked about (WikiTableQuestions,
            Pasupat and Liang 2015, https://arxiv.org/abs/1508.00305); ``gold`` is then the answer
            in WTQ's ``targetValue`` format and ``db_id`` the table's name. ``None`` for
            text-to-SQL and logical-form examples.
        example_id (str | None): The example's id in a released benchmark (RobuT's ``id``,
            Dr.Spider's ``<set>/pre/<index>``), when the release gives one.
        original_id (str | None): Released robustness benchmarks: the ``example_id`` of the
            unperturbed example this rewrite derives from (RobuT's ``original_id``); ``None`` for
            an original and for every other dataset.
        perturbation (str | None): Released robustness benchmarks: the perturbation that made this
            example (RobuT's ``perturbation_type``, a Dr.Spider set, Huang et al.'s operation), or
            :data:`ORIGINAL` for an unperturbed example; ``None`` for every other dataset.
        sequence_id (str | None): A turn of a question sequence (RobuT's SQA rows): the id of
            the sequence, whose turns are scored one by one and averaged per sequence; ``None``
            for a question asked alone.
    """

    question: str
    gold: str
    db_id: str | None = None
    template_question: str | None = None
    template_gold: str | None = None
    variables: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    variable_types: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    question_split: str | None = None
    query_split: str | None = None
    table: Table | None = None
    example_id: str | None = None
    original_id: str | None = None
    perturbation: str | None = None
    sequence_id: str | None = None

    def __getstate__(self) -> dict[str, object]:
        # MappingProxyType cannot be pickled; victims bound to a benchmark carry its examples.
        return {
            name: dict(value) if name in _MAPPINGS else value for name, value in self.__dict__.items()
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, MappingProxyType(dict(value)) if name in _MAPPINGS else value)  # type: ignore[call-overload]


_MAPPINGS = frozenset({"variables", "variable_types"})
