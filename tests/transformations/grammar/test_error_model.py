"""The packaged confusion sets and the JSON format of the error model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from textattack_semparse.errors import ResourceError
from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES, FORM_SETS, NULL, ErrorModel

PAPER_PREPOSITIONS = (
    "on in at from for under over with into during until against among throughout to by about like before "
    "across behind but out up after since down off of"
).split()
PAPER_LINK_WORDS = "and but so however as that thus also because therefore if although which where moreover besides of".split()


def default_dict() -> dict[str, Any]:
    return ErrorModel.default().to_dict()


def test_default_sets_are_the_papers_table_1() -> None:
    sets = ErrorModel.default().sets
    assert sets["ArtOrDet"] == ("a", "an", "the", NULL)
    assert sets["Prep"] == (*PAPER_PREPOSITIONS, NULL)
    assert sets["Trans"] == (*PAPER_LINK_WORDS, NULL)
    assert {name: sets[name] for name in FORM_SETS} == FORM_SETS


def test_default_weights_are_uniform_without_identity() -> None:
    model = ErrorModel.default()
    assert model.weight("ArtOrDet", "the", "a") == pytest.approx(1 / 3)
    assert model.weight("ArtOrDet", NULL, "the") == pytest.approx(1 / 3)
    assert model.weight("Prep", "on", "in") == pytest.approx(1 / 29)
    assert model.weight("Vform", "past", "perfect") == pytest.approx(1 / 3)
    assert model.weight("Nn", "singular", "plural") == 1.0
    assert model.weight("Prep", "on", "on") == 0.0


def test_default_type_distribution_is_uniform() -> None:
    model = ErrorModel.default()
    assert [model.type_probability(name) for name in ERROR_TYPES] == [pytest.approx(1 / 8)] * 8


def test_default_json_documents_its_choice() -> None:
    about = ErrorModel.default().about
    assert "NOT estimated" in about and "uniform" in about and "fit-grammar-errors" in about


def test_targets_are_the_set_without_the_source() -> None:
    assert ErrorModel.default().targets("ArtOrDet", "an") == ("a", "the", NULL)


def test_json_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    ErrorModel.default().to_json(path)
    assert ErrorModel.from_json(path) == ErrorModel.default()
    assert "∅" in path.read_text(encoding="utf-8")


def test_weights_are_relative_within_a_row() -> None:
    data = default_dict()
    data["weights"]["ArtOrDet"]["the"] = {"a": 3, "∅": 1}
    model = ErrorModel.from_dict(data)
    assert model.weight("ArtOrDet", "the", "a") == 0.75
    assert model.weight("ArtOrDet", "the", "an") == 0.0


def test_missing_row_weighs_nothing() -> None:
    data = default_dict()
    del data["weights"]["Prep"]["on"]
    assert ErrorModel.from_dict(data).weight("Prep", "on", "in") == 0.0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["weights"]["ArtOrDet"]["the"].update({"a": -1}), r"weights\.ArtOrDet\.the\.a.*-1.*>= 0"),
        (lambda d: d["weights"]["ArtOrDet"]["the"].update({"the": 1}), "identity"),
        (lambda d: d["weights"]["Prep"]["on"].update({"onto": 1}), "'onto', which is not in sets.Prep"),
        (lambda d: d["weights"].update({"Prepp": {}}), "Did you mean 'Prep'"),
        (lambda d: d["type_distribution"].update({"SVa": 1}), "Did you mean 'SVA'"),
        (lambda d: d["type_distribution"].update(dict.fromkeys(ERROR_TYPES, 0)), "weight 0"),
        (lambda d: d["sets"].update({"Nn": ["singular", "dual"]}), r"sets\.Nn.*must be \['singular', 'plural'\]"),
        (lambda d: d["sets"].update({"Prep": ["On"]}), "not a lowercase single token"),
        (lambda d: d["sets"].pop("Trans"), r"sets\.Trans.*missing"),
        (lambda d: d.update({"version": 2}), "reads version 1"),
        (lambda d: d["type_distribution"].update({"Nn": True}), "finite numbers"),
    ],
)
def test_invalid_model_is_rejected_with_its_field(change: Any, message: str) -> None:
    data = default_dict()
    change(data)
    with pytest.raises(ResourceError, match=message):
        ErrorModel.from_dict(data, origin="bad.json")


def test_error_names_the_file_and_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    data = default_dict()
    data["weights"]["SVA"]["3sg"] = {"non-3sg": "often"}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ResourceError, match=r"bad\.json.*'often'.*fit-grammar-errors"):
        ErrorModel.from_json(path)


def test_missing_file_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="does not exist.*fit-grammar-errors"):
        ErrorModel.from_json(tmp_path / "absent.json")


def test_invalid_json_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ResourceError, match="not valid JSON"):
        ErrorModel.from_json(path)


def test_repr_is_short() -> None:
    assert repr(ErrorModel.default()) == "ErrorModel(origin='default')"
