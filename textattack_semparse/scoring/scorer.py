"""The scorer interface: compare one prediction with one gold output."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.errors import DatasetError


class GoldError(DatasetError):
    """The gold output of an example cannot be evaluated (its query fails or times out)."""


class MeasuredDistance:
    """Base of the verdicts that carry a distance, given or measured on first read.

    A distance may be a number or a function that measures it: the function runs once, when
    :attr:`distance` is first read. An evaluation reads only whether predictions match, so it
    never tokenises a wrong query; an attack reads the distance of every wrong one. Subclasses
    list their other fields in ``_FIELDS``, which equality, hashing, ``repr`` and pickling
    read (pickling measures first: a function does not travel). Instances are immutable.
    """

    __slots__ = ("_distance",)
    _FIELDS: tuple[str, ...] = ()
    _distance: float | Callable[[], float]

    def __init__(self, distance: float | Callable[[], float]) -> None:
        object.__setattr__(self, "_distance", distance)

    @property
    def distance(self) -> float:
        """The distance, measured now if it was given as a function."""
        distance = self._distance
        if callable(distance):
            distance = distance()
            object.__setattr__(self, "_distance", distance)
        return distance

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._FIELDS)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._FIELDS, self._values()))
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), self._values()


class Score(MeasuredDistance):
    """Whether a prediction matches the gold output, and how far off it is.

    Args:
        match (bool): The prediction means the gold output.
        distance (float | Callable[[], float]): 0.0 on a match; otherwise in (0, 1], larger is
            further off; or a function measuring it when first read (:class:`MeasuredDistance`).

    Example:
        >>> Score(False, lambda: 0.25)
        Score(match=False, distance=0.25)
    """

    __slots__ = ("match",)
    _FIELDS = ("match", "distance")
    match: bool

    def __init__(self, match: bool, distance: float | Callable[[], float]) -> None:
        object.__setattr__(self, "match", match)
        super().__init__(distance)


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
