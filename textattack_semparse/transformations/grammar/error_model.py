"""Confusion sets, confusion weights and error-type distribution of the grammatical errors.

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/ (Table 1).
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from textattack_semparse.errors import ResourceError, closest_match_hint

ERROR_TYPES = ("ArtOrDet", "Prep", "Trans", "Nn", "SVA", "Vform", "Wchoice", "Worder")
"""The eight error types of Yin et al. (2020), Table 1, in the paper's order."""

CONFUSION_TYPES = ERROR_TYPES[:6]
"""Types with a confusion set and weights (Wchoice and Worder pick uniformly)."""

CLOSED_CLASS_TYPES = ("ArtOrDet", "Prep", "Trans")
"""Types whose confusion set is a list of words (plus ``NULL``)."""

NULL = "∅"
"""The empty token: ``NULL -> w`` inserts ``w``, ``w -> NULL`` deletes ``w``."""

FORM_SETS: dict[str, tuple[str, ...]] = {
    "Nn": ("singular", "plural"),
    "SVA": ("3sg", "non-3sg"),
    "Vform": ("present", "past", "progressive", "perfect"),
}
"""Confusion sets of the inflection types: grammatical forms rather than words."""

FORMAT_VERSION = 1
_PACKAGED = ("textattack_semparse.resources", "grammar/confusion_sets.json")


def _fail(origin: str, where: str, problem: str) -> ResourceError:
    end = "" if problem.endswith(("?", ".")) else "."
    return ResourceError(
        f"Invalid grammatical error model {origin}: {where} {problem}{end} See docs/grammatical_errors.md "
        "for the format, or regenerate the file with `textattack-semparse fit-grammar-errors`."
    )


def _check_weight(origin: str, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise _fail(origin, where, f"is {value!r}; weights must be finite numbers >= 0")
    return float(value)


@dataclass(frozen=True)
class ErrorModel:
    """Confusion sets with weights ``w_ij`` and a distribution over the eight error types.

    ``weights[type][i][j]`` is the relative weight of writing ``j`` where ``i`` is correct
    (identity excluded; rows are normalised on use, a missing pair weighs 0). Worst-case
    transformations enumerate the whole set; probabilistic ones sample by these weights.
    Load with :meth:`default` (the paper's sets, uniform weights, uniform type distribution)
    or :meth:`from_json`; ``fit_error_model`` estimates one from M2 files.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.

    Args:
        sets (dict[str, tuple[str, ...]]): confusion set of each of ``CONFUSION_TYPES``.
        weights (dict[str, dict[str, dict[str, float]]]): ``type -> correct -> written -> weight``.
        type_distribution (dict[str, float]): relative frequency of each of ``ERROR_TYPES``.
        about (str, default ""): provenance and choices, kept in the JSON.
        counts (dict | None, default None): raw counts of a fitted model, kept in the JSON.
        origin (str, default "<memory>"): where the model came from (not serialised).

    Example:
        >>> model = ErrorModel.default()
        >>> model.targets("ArtOrDet", "the")
        ('a', 'an', '∅')
        >>> round(model.weight("ArtOrDet", "the", "a"), 3), model.type_probability("SVA")
        (0.333, 0.125)
    """

    sets: dict[str, tuple[str, ...]]
    weights: dict[str, dict[str, dict[str, float]]]
    type_distribution: dict[str, float]
    about: str = ""
    counts: dict[str, Any] | None = field(default=None, compare=False)
    origin: str = field(default="<memory>", compare=False)

    def __post_init__(self) -> None:
        validated = _validate(
            {"sets": self.sets, "weights": self.weights, "type_distribution": self.type_distribution},
            self.origin,
        )
        object.__setattr__(self, "sets", validated["sets"])
        object.__setattr__(self, "weights", validated["weights"])
        object.__setattr__(self, "type_distribution", validated["type_distribution"])

    def __repr__(self) -> str:
        return f"ErrorModel(origin={self.origin!r})"

    @classmethod
    def default(cls) -> ErrorModel:
        """The packaged model: the paper's confusion sets with documented default weights."""
        return _packaged_model()

    @classmethod
    def from_json(cls, path: str | os.PathLike[str]) -> ErrorModel:
        """Load a model written by :meth:`to_json` (or by hand in the same format)."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as error:
            raise ResourceError(
                f"Grammatical error model {path} does not exist. Pass the path of a JSON file written "
                "by `textattack-semparse fit-grammar-errors`, or omit it for the default model."
            ) from error
        except json.JSONDecodeError as error:
            raise ResourceError(f"Grammatical error model {path} is not valid JSON: {error}.") from error
        return cls.from_dict(data, origin=str(path))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, origin: str = "<dict>") -> ErrorModel:
        """Build a model from the JSON structure (see docs/grammatical_errors.md)."""
        if not isinstance(data, Mapping):
            raise _fail(origin, "the top level", f"is a {type(data).__name__}; expected a JSON object")
        version = data.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise _fail(origin, "'version'", f"is {version!r}; this release reads version {FORMAT_VERSION}")
        return cls(
            sets=data.get("sets"),  # type: ignore[arg-type]  # validated in __post_init__
            weights=data.get("weights"),  # type: ignore[arg-type]
            type_distribution=data.get("type_distribution"),  # type: ignore[arg-type]
            about=str(data.get("about", "")),
            counts=data.get("counts"),
            origin=origin,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON structure read by :meth:`from_dict`."""
        data: dict[str, Any] = {
            "about": self.about,
            "version": FORMAT_VERSION,
            "type_distribution": dict(self.type_distribution),
            "sets": {name: list(members) for name, members in self.sets.items()},
            "weights": {
                name: {source: dict(row) for source, row in rows.items()}
                for name, rows in self.weights.items()
            },
        }
        if self.counts is not None:
            data["counts"] = self.counts
        return data

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Write the model as UTF-8 JSON (``NULL`` is written as ``"∅"``)."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    def targets(self, error_type: str, source: str) -> tuple[str, ...]:
        """Every member of the set of ``error_type`` other than ``source`` (worst case)."""
        return tuple(member for member in self.sets[error_type] if member != source)

    def weight(self, error_type: str, source: str, target: str) -> float:
        """``P(written = target | correct = source, an error of this type occurs)``."""
        row = self.weights[error_type].get(source, {})
        total = sum(row.values())
        return row.get(target, 0.0) / total if total > 0 else 0.0

    def type_probability(self, error_type: str) -> float:
        """Probability of ``error_type`` under the type distribution."""
        return self.type_distribution.get(error_type, 0.0) / sum(self.type_distribution.values())


def _validate_sets(data: Mapping[str, Any], origin: str) -> dict[str, tuple[str, ...]]:
    sets = data.get("sets")
    if not isinstance(sets, Mapping):
        raise _fail(origin, "'sets'", "is missing or not an object mapping each error type to its confusion set")
    unknown = [name for name in sets if name not in CONFUSION_TYPES]
    if unknown:
        hint = closest_match_hint(unknown[0], CONFUSION_TYPES)
        raise _fail(origin, f"'sets' key {unknown[0]!r}", f"is not one of {', '.join(CONFUSION_TYPES)}.{hint}")
    result: dict[str, tuple[str, ...]] = {}
    for name in CONFUSION_TYPES:
        members = sets.get(name)
        if not isinstance(members, (list, tuple)) or not members:
            raise _fail(origin, f"'sets.{name}'", "is missing or empty; expected a list of tokens")
        for member in members:
            if not isinstance(member, str) or not member or member != member.lower() or len(member.split()) != 1:
                raise _fail(origin, f"'sets.{name}' member {member!r}", "is not a lowercase single token")
        if len(set(members)) != len(members):
            raise _fail(origin, f"'sets.{name}'", "lists a member twice")
        if name in FORM_SETS and set(members) != set(FORM_SETS[name]):
            raise _fail(origin, f"'sets.{name}'", f"is {list(members)}; it must be {list(FORM_SETS[name])}")
        result[name] = tuple(members)
    return result


def _validate(data: Mapping[str, Any], origin: str) -> dict[str, Any]:
    sets = _validate_sets(data, origin)
    weights = data.get("weights")
    if not isinstance(weights, Mapping):
        raise _fail(origin, "'weights'", "is missing or not an object (type -> correct -> written -> weight)")
    checked: dict[str, dict[str, dict[str, float]]] = {}
    for name, rows in weights.items():
        if name not in CONFUSION_TYPES:
            hint = closest_match_hint(str(name), CONFUSION_TYPES)
            raise _fail(origin, f"'weights' key {name!r}", f"is not one of {', '.join(CONFUSION_TYPES)}.{hint}")
        if not isinstance(rows, Mapping):
            raise _fail(origin, f"'weights.{name}'", "is not an object")
        checked[name] = {}
        for source, row in rows.items():
            if source not in sets[name]:
                raise _fail(origin, f"'weights.{name}' row {source!r}", f"is not in sets.{name}")
            if not isinstance(row, Mapping):
                raise _fail(origin, f"'weights.{name}.{source}'", "is not an object")
            checked[name][source] = {}
            for target, value in row.items():
                where = f"'weights.{name}.{source}.{target}'"
                if target not in sets[name]:
                    raise _fail(origin, where, f"names {target!r}, which is not in sets.{name}")
                if target == source:
                    raise _fail(origin, where, "pairs a token with itself; the identity is not an error")
                checked[name][source][target] = _check_weight(origin, where, value)
    for name in CONFUSION_TYPES:
        checked.setdefault(name, {})
    distribution = data.get("type_distribution")
    if not isinstance(distribution, Mapping):
        raise _fail(origin, "'type_distribution'", "is missing or not an object (error type -> weight)")
    type_distribution: dict[str, float] = {}
    for name, value in distribution.items():
        if name not in ERROR_TYPES:
            hint = closest_match_hint(str(name), ERROR_TYPES)
            raise _fail(origin, f"'type_distribution' key {name!r}", f"is not one of {', '.join(ERROR_TYPES)}.{hint}")
        type_distribution[name] = _check_weight(origin, f"'type_distribution.{name}'", value)
    if sum(type_distribution.values()) <= 0:
        raise _fail(origin, "'type_distribution'", "gives every error type weight 0")
    return {"sets": sets, "weights": checked, "type_distribution": type_distribution}


@functools.lru_cache(maxsize=1)
def _packaged_model() -> ErrorModel:
    package, name = _PACKAGED
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return ErrorModel.from_dict(json.loads(text), origin="default")
