"""Fitting the error model from an M2 file whose counts are worked out by hand below."""

from __future__ import annotations

from pathlib import Path

import pytest
from textattack.shared import AttackedText

from textattack_semparse.errors import DatasetError
from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES, NULL, ErrorModel
from textattack_semparse.transformations.grammar.fit_error_model import fit_error_model
from textattack_semparse.transformations.grammar.grammar_error_art_or_det import GrammarErrorArtOrDet

# Each edit maps the learner's span to its correction; the pair counted is correction -> span.
M2 = """\
S This are a apple on the table .
A 1 2|||SVA|||is|||REQUIRED|||-NONE-|||0
A 2 3|||ArtOrDet|||an|||REQUIRED|||-NONE-|||0
A 4 5|||Prep|||in|||REQUIRED|||-NONE-|||0

S He go to school yesterday .
A 1 2|||Vt|||went|||REQUIRED|||-NONE-|||0
A 3 3|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0

S The rivers flows into sea .
A 2 3|||R:VERB:SVA|||flow|||REQUIRED|||-NONE-|||0
A 2 3|||R:VERB:SVA|||flow|||REQUIRED|||-NONE-|||1
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 4 4|||M:DET|||a|||REQUIRED|||-NONE-|||1

S He discussed about the problem toward the end .
A 2 3|||U:PREP||||||REQUIRED|||-NONE-|||0
A 4 5|||R:NOUN|||issue|||REQUIRED|||-NONE-|||0
A 5 6|||Prep|||towards|||REQUIRED|||-NONE-|||0

S She has many informations .
A 3 4|||R:NOUN:NUM|||information|||REQUIRED|||-NONE-|||0

S Everything is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S i always am happy in this days .
A 1 3|||WOadv|||am always|||REQUIRED|||-NONE-|||0
A 0 1|||Mec|||I|||REQUIRED|||-NONE-|||0
A 5 7|||R:OTHER|||these days|||REQUIRED|||-NONE-|||0

S I saw a elephant and the owl .
A 2 3|||ArtOrDet|||an|||REQUIRED|||-NONE-|||0
A 5 6|||ArtOrDet|||an|||REQUIRED|||-NONE-|||0
"""

# By hand (annotators merged):
#   ArtOrDet: an->a (s1, s8), the->∅ (s2, s3), a->∅ (s3, annotator 1), an->the (s8)     = 6
#   Prep:     in->on (s1), ∅->about (s4), towards->toward (not in the set: unpaired)   = 3
#   SVA:      3sg->non-3sg (s1: is->are), non-3sg->3sg (s3: flow->flows, once)          = 2
#   Vform:    past->present (s2: went->go)                                              = 1
#   Nn:       singular->plural (s5: information->informations)                          = 1
#   Wchoice:  R:NOUN (s4), R:OTHER (s7)                                                 = 2
#   Worder:   WOadv (s7)                                                                = 1
#   total 16; Mec unmapped; one noop; one duplicate (s3's second SVA edit).
EXPECTED_TYPES = {"ArtOrDet": 6, "Prep": 3, "Trans": 0, "Nn": 1, "SVA": 2, "Vform": 1, "Wchoice": 2, "Worder": 1}


@pytest.fixture
def m2_file(tmp_path: Path) -> Path:
    path = tmp_path / "learner.m2"
    path.write_text(M2, encoding="utf-8")
    return path


def test_type_counts_and_distribution(m2_file: Path) -> None:
    model = fit_error_model([m2_file])
    assert model.counts["types"] == EXPECTED_TYPES
    assert model.type_distribution == {name: EXPECTED_TYPES[name] / 16 for name in ERROR_TYPES}


def test_pair_counts_in_the_correction_to_error_direction(m2_file: Path) -> None:
    counts = fit_error_model([m2_file]).counts
    assert counts["pairs"]["ArtOrDet"] == {"an": {"a": 2, "the": 1}, "the": {NULL: 2}, "a": {NULL: 1}}
    assert counts["pairs"]["Prep"] == {"in": {"on": 1}, NULL: {"about": 1}}
    assert counts["pairs"]["SVA"] == {"3sg": {"non-3sg": 1}, "non-3sg": {"3sg": 1}}
    assert counts["pairs"]["Vform"] == {"past": {"present": 1}}
    assert counts["pairs"]["Nn"] == {"singular": {"plural": 1}}
    assert counts["unpaired"]["Prep"] == 1
    assert (counts["unmapped"], counts["skipped_noop"], counts["duplicates"], counts["sentences"]) == ({"Mec": 1}, 1, 1, 8)


def test_weights_are_row_normalised_counts(m2_file: Path) -> None:
    model = fit_error_model([m2_file])
    assert model.weights["ArtOrDet"] == {"an": {"a": 2 / 3, "the": 1 / 3}, "the": {NULL: 1.0}, "a": {NULL: 1.0}}
    assert model.weight("ArtOrDet", "an", "a") == pytest.approx(2 / 3)
    assert model.weight("ArtOrDet", NULL, "the") == 0.0  # no spurious article in the corpus
    assert model.weights["Trans"] == {}


def test_single_annotator(m2_file: Path) -> None:
    counts = fit_error_model([m2_file], annotator=0).counts
    assert counts["types"]["ArtOrDet"] == 5 and counts["duplicates"] == 0
    assert "a" not in counts["pairs"]["ArtOrDet"]


def test_smoothing_adds_a_pseudo_count_to_every_pair(m2_file: Path) -> None:
    model = fit_error_model([m2_file], smoothing=1)
    # an: a 2+1, the 1+1, ∅ 0+1 -> 3/6, 2/6, 1/6;  ∅: a, an, the 0+1 each
    assert model.weights["ArtOrDet"]["an"] == {"a": 0.5, "the": 2 / 6, NULL: 1 / 6}
    assert model.weights["ArtOrDet"][NULL] == {"a": 1 / 3, "an": 1 / 3, "the": 1 / 3}
    assert model.counts["pairs"]["ArtOrDet"]["an"] == {"a": 2, "the": 1}


def test_type_map_overrides_and_drops(m2_file: Path) -> None:
    counts = fit_error_model([m2_file], type_map={"Mec": "Wchoice", "R:OTHER": None}).counts
    assert counts["types"]["Wchoice"] == 2 and counts["unmapped"] == {"R:OTHER": 1}


def test_written_json_drives_the_transformations(m2_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "weights.json"
    fit_error_model([m2_file]).to_json(path)
    model = ErrorModel.from_json(path)
    assert model.counts["types"] == EXPECTED_TYPES and "learner.m2" in model.about
    # rate 0.1 of 7 words: one error per sample
    transformation = GrammarErrorArtOrDet(error_model=path, mode="probabilistic", rate=0.1, seed=0, num_samples=20)
    outputs = {output.text for output in transformation(AttackedText("I saw an elephant in the zoo"))}
    # fitted: an -> a (2/3) or the (1/3); the -> ∅; no insertion (∅ row empty)
    assert outputs <= {"I saw a elephant in the zoo", "I saw the elephant in the zoo", "I saw an elephant in zoo"}
    assert len(outputs) == 3


def test_several_files_add_up(m2_file: Path) -> None:
    model = fit_error_model([m2_file, m2_file])
    assert model.counts["types"]["ArtOrDet"] == 12 and model.counts["sentences"] == 16


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A 1 2|||SVA|||is|||REQUIRED|||-NONE-|||0\n", r"learner\.m2:1: an 'A' line comes before any 'S' line"),
        ("S a b .\nA 2 9|||SVA|||is|||REQUIRED|||-NONE-|||0\n", r"learner\.m2:2: edit span 2 9 lies outside"),
        ("S a b .\nA x 1|||SVA|||is\n", "is not two integers"),
        ("S a b .\nA 0 1|||Mec|||A|||REQUIRED|||-NONE-|||0\n", "No edit of a mapped error type.*Mec"),
        ("S a b .\nsomething else\n", "expected an 'S ' or 'A ' line"),
    ],
)
def test_malformed_m2_is_reported_with_its_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "learner.m2"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError, match=message):
        fit_error_model([path])


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="does not exist"):
        fit_error_model([tmp_path / "absent.m2"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"smoothing": -1}, "smoothing must be"), ({"type_map": {"Mec": "Spelling"}}, "not one of")],
)
def test_invalid_arguments(m2_file: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit_error_model([m2_file], **kwargs)
