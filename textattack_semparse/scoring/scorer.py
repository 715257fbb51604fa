"""The scorer interface: compare one prediction with one gold output."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import DatasetError


class GoldError(DatasetError):
    """The gold output of an example cannot be evaluated (its query fails or times out)."""


@dataclass(frozen=True)
class Score:
    """Whether a prediction matches the gold output, and how far off it is.

    Args:
        match (bool): The prediction means the gold output.
        distance (float): 0.0 on a match; otherwise in (0, 1], larger is further off.
    """

    match: bool
    distance: float


class Scorer(ABC):
    """Compares predictions with gold outputs; a benchmark names the scorer it is scored by.

    Subclasses say whether they need databases (:attr:`needs_databases`) and implement
    :meth:`score` and :meth:`distance`. A scorer never raises for a bad prediction (that is a mismatch); it raises
    :class:`GoldError` when the gold output itself cannot be evaluated. Original to
    textattack-semparse.
    """

    #: Short name shown in reports ("execution", "exact").
    name: str = ""

    @property
    def needs_databases(self) -> bool:
        """Whether :meth:`score` runs queries (and so needs at least one database)."""
        return False

    @abstractmethod
    def score(self, prediction: str, gold: str, databases: Sequence[Path] = ()) -> Score:
        """Score ``prediction`` against ``gold`` (on every one of ``databases`` when needed).

        Raises:
            GoldError: ``gold`` cannot be evaluated.
        """

    @abstractmethod
    def distance(self, prediction: str, gold: str) -> float:
        """How far the text of ``prediction`` is from ``gold``, in [0, 1] (guides the search
        among predictions that still match)."""

    def check_gold(self, gold: str, databases: Sequence[Path] = ()) -> None:
        """Raise :class:`GoldError` when ``gold`` cannot be evaluated (scores it against itself)."""
        self.score(gold, gold, databases)
