"""One perturbed utterance of a robustness test set, as stored in its JSONL files."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from textattack_semparse.errors import DatasetError
from textattack_semparse.tables.table import Table

_REQUIRED = ("example_id", "original", "perturbed", "gold", "perturbation")


@dataclass(frozen=True)
class PerturbedUtterance:
    """A perturbed question paired with its original and the original's gold output.

    Original to textattack-semparse.

    Args:
        example_id (int): Position of the original example in its dataset split.
        original (str): The original question.
        perturbed (str): The question after the perturbation; equal to ``original`` only when
            the perturbation changed the table instead (RobuT's header and content perturbations).
        gold (str): The gold SQL or logical form of the original, which the perturbation
            must not change; a rewrite of a released benchmark carries its own (a RobuT row's
            answers, a Dr.Spider post-perturbation query).
        perturbation (str): The registered perturbation that produced it.
        db_id (str | None, default None): Database of the example (multi-database benchmarks).
        similarity (float | None, default None): Sentence-BERT cosine similarity to the
            original, when candidates were ranked.
        table (Table | None, default None): The table a Table QA question is asked about: the
            perturbed table, or the original one for question-only perturbations. Stored in a
            CSV file of its own (:class:`~textattack_semparse.robustness.robustness_test_set.RobustnessTestSet`).
        turns (int | None, default None): The utterance is one turn of a question sequence
            (RobuT's SQA) whose perturbation has ``turns`` turns: it weighs ``1 / turns`` in the
            metrics, so each sequence counts once, its turns averaged (RobuT's per-turn scoring);
            ``None`` for a question asked alone (weight 1).

    Example:
        >>> line = {"example_id": 3, "original": "rivers in texas", "perturbed": "the rivers in texas",
        ...         "gold": "SELECT ...", "perturbation": "insertion"}
        >>> PerturbedUtterance.from_json(line).to_json() == line
        True
    """

    example_id: int
    original: str
    perturbed: str
    gold: str
    perturbation: str
    db_id: str | None = None
    similarity: float | None = None
    table: Table | None = None
    turns: int | None = None

    def __post_init__(self) -> None:
        if self.turns is not None and (isinstance(self.turns, bool) or not isinstance(self.turns, int) or self.turns < 1):
            raise DatasetError(f"turns of perturbed utterance {self.perturbed!r} must be a positive integer, got {self.turns!r}.")

    @property
    def weight(self) -> Fraction:
        """What the utterance counts for in the metrics: ``1 / turns``, else 1."""
        return Fraction(1, self.turns or 1)

    def to_json(self) -> dict[str, Any]:
        """The JSONL record: the required fields, plus ``db_id``, ``similarity`` and ``turns`` when set
        (the test set adds the path of the table's CSV file)."""
        record: dict[str, Any] = {name: getattr(self, name) for name in _REQUIRED}
        for name in ("db_id", "similarity", "turns"):
            if getattr(self, name) is not None:
                record[name] = getattr(self, name)
        return record

    @classmethod
    def from_json(cls, record: Any, *, source: str = "record", table: Table | None = None) -> PerturbedUtterance:
        """Read a JSONL record; ``source`` names the file and line in errors, ``table`` is the
        table its CSV file holds.

        Raises:
            DatasetError: The record is not an object with the required fields.
        """
        if not isinstance(record, dict) or any(name not in record for name in _REQUIRED):
            raise DatasetError(
                f"{source} is not a perturbed utterance: expected an object with the fields "
                f"{', '.join(_REQUIRED)} (and optionally db_id, similarity, turns), got {record!r:.200}. "
                "Rebuild the test set with `textattack-semparse robustness build`."
            )
        if isinstance(record["example_id"], bool) or not isinstance(record["example_id"], int):
            raise DatasetError(f"{source}: example_id must be an integer, got {record['example_id']!r}.")
        return cls(
            example_id=record["example_id"],
            original=str(record["original"]),
            perturbed=str(record["perturbed"]),
            gold=str(record["gold"]),
            perturbation=str(record["perturbation"]),
            db_id=record.get("db_id"),
            similarity=record.get("similarity"),
            table=table,
            turns=record.get("turns"),
        )
