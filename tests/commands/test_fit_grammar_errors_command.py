"""``textattack-semparse fit-grammar-errors``: counts of an M2 file written here, by hand."""

from __future__ import annotations

import json

import pytest
from textattack.shared import AttackedText

from textattack_semparse.cli import main
from textattack_semparse.transformations.grammar.error_model import ErrorModel
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined

M2 = """\
S The cat sat on mat .
A 4 4|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 3 4|||Prep|||in|||REQUIRED|||-NONE-|||0

S He go to a school every days .
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0
A 3 4|||ArtOrDet|||-NONE-|||REQUIRED|||-NONE-|||1
A 6 7|||Nn|||day|||REQUIRED|||-NONE-|||0
A 0 1|||Mec|||he|||REQUIRED|||-NONE-|||0
"""


@pytest.fixture
def m2_file(tmp_path):
    path = tmp_path / "tiny.m2"
    path.write_text(M2, encoding="utf-8")
    return path


def test_fits_type_distribution_and_weights_counted_by_hand(m2_file, tmp_path, capsys):
    output = tmp_path / "weights.json"
    assert main(["fit-grammar-errors", str(m2_file), "--output", str(output)]) == 0
    data = json.loads(output.read_text(encoding="utf-8"))
    # 5 edits of the eight types: ArtOrDet 2, Prep 1, SVA 1, Nn 1; Mec is not one of them
    assert data["counts"]["types"] == {
        "ArtOrDet": 2, "Prep": 1, "Trans": 0, "Nn": 1, "SVA": 1, "Vform": 0, "Wchoice": 0, "Worder": 0,
    }
    assert data["type_distribution"]["ArtOrDet"] == pytest.approx(0.4)
    assert data["type_distribution"]["Prep"] == pytest.approx(0.2)
    # correction -> learner's text: missing "the" is the -> ∅; extra "a" is ∅ -> a; "on" for "in" is in -> on
    assert data["counts"]["pairs"]["ArtOrDet"] == {"the": {"∅": 1}, "∅": {"a": 1}}
    assert data["weights"]["ArtOrDet"] == {"the": {"∅": 1.0}, "∅": {"a": 1.0}}
    assert data["weights"]["Prep"] == {"in": {"on": 1.0}}
    assert data["weights"]["SVA"] == {"3sg": {"non-3sg": 1.0}}
    assert data["weights"]["Nn"] == {"singular": {"plural": 1.0}}
    assert data["counts"]["unmapped"] == {"Mec": 1}
    out = capsys.readouterr().out
    assert "ArtOrDet" in out and f"Wrote {output}" in out and "Mec" in out


def test_one_annotator(m2_file, tmp_path):
    output = tmp_path / "weights.json"
    assert main(["fit-grammar-errors", str(m2_file), "--output", str(output), "--annotator", "1"]) == 0
    data = json.loads(output.read_text(encoding="utf-8"))
    assert data["counts"]["types"]["ArtOrDet"] == 1 and sum(data["counts"]["types"].values()) == 1
    assert data["type_distribution"]["ArtOrDet"] == 1.0


def test_type_map_and_smoothing(m2_file, tmp_path):
    output = tmp_path / "weights.json"
    args = ["fit-grammar-errors", str(m2_file), "--output", str(output), "--map", "Mec=Wchoice", "--smoothing", "1"]
    assert main(args) == 0
    data = json.loads(output.read_text(encoding="utf-8"))
    assert data["counts"]["types"]["Wchoice"] == 1 and data["counts"]["unmapped"] == {}
    # smoothing: "the" row = {a: 1, an: 1, ∅: 1 + 1}
    assert data["weights"]["ArtOrDet"]["the"] == {"a": 0.25, "an": 0.25, "∅": 0.5}


def test_written_model_drives_the_transformations(m2_file, tmp_path):
    output = tmp_path / "weights.json"
    assert main(["fit-grammar-errors", str(m2_file), "--output", str(output)]) == 0
    assert ErrorModel.from_json(output).weight("ArtOrDet", "the", "∅") == 1.0
    sampler = GrammarErrorCombined(error_model=str(output), error_types=("ArtOrDet",), mode="probabilistic", seed=0)
    for _ in range(5):  # "the" is only ever deleted, never exchanged
        assert sampler(AttackedText("the capital of the state"))[0].text in {"capital of the state", "the capital of state"}


def test_missing_file_and_bad_map_are_clear_errors(m2_file, tmp_path, capsys):
    assert main(["fit-grammar-errors", str(tmp_path / "nope.m2"), "--output", str(tmp_path / "w.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["fit-grammar-errors", str(m2_file), "--output", str(tmp_path / "w.json"), "--map", "Mec=Wchioce"]) == 2
    assert "Did you mean 'Wchoice'" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()
