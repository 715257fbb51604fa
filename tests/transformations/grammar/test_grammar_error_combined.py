"""The combined transformation: union of the types, sampling by the type distribution,
and the gold query's literals kept on GeoQuery when composed with PreserveLiterals."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from textattack.augmentation import Augmenter
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.sql.literals import literal_words, sql_literals
from textattack_semparse.transformations.grammar.error_model import ErrorModel
from textattack_semparse.transformations.grammar.grammar_error_combined import (
    TRANSFORMATION_OF_TYPE,
    GrammarErrorCombined,
)
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

SENTENCE = "The results are clearly presented, and the cat can easily jump over fences."


def test_worst_case_is_the_union_of_the_types() -> None:
    text = AttackedText(SENTENCE)
    per_type = {name: {o.text for o in cls()(text)} for name, cls in TRANSFORMATION_OF_TYPE.items()}
    combined = [output.text for output in GrammarErrorCombined()(text)]
    assert set(combined) == set().union(*per_type.values())
    assert len(combined) == len(set(combined))
    assert {name: len(texts) for name, texts in per_type.items()} == {
        "ArtOrDet": 9, "Prep": 29, "Trans": 34, "Nn": 3, "SVA": 1, "Vform": 0, "Wchoice": 44, "Worder": 2,
    }
    assert len(combined) == 9 + 29 + 34 + 3 + 1 + 44 + 2  # no two types reach the same text here


def test_error_types_restrict_the_union() -> None:
    outputs = GrammarErrorCombined(error_types=("Nn", "Worder"))(AttackedText(SENTENCE))
    assert len(outputs) == 3 + 2
    assert {output.attack_attrs[GRAMMAR_ERRORS_ATTR][0].error_type for output in outputs} == {"Nn", "Worder"}


def test_probabilistic_types_follow_the_distribution() -> None:
    data = ErrorModel.default().to_dict()
    data["type_distribution"] = {"SVA": 1.0, "Worder": 3.0}
    transformation = GrammarErrorCombined(error_model=ErrorModel.from_dict(data), mode="probabilistic", seed=5)
    text = AttackedText(SENTENCE)  # 13 words: one error per sample; one SVA and two Worder candidates
    counts = Counter(edit.error_type for _ in range(200) for edit in transformation(text)[0].attack_attrs[GRAMMAR_ERRORS_ATTR])
    assert set(counts) == {"SVA", "Worder"}
    assert 0.65 < counts["Worder"] / sum(counts.values()) < 0.85


def test_type_without_weight_is_never_sampled() -> None:
    data = ErrorModel.default().to_dict()
    data["type_distribution"] = {"Nn": 1.0}
    transformation = GrammarErrorCombined(error_model=ErrorModel.from_dict(data), mode="probabilistic", seed=0, rate=1.0)
    (output,) = transformation(AttackedText(SENTENCE))
    assert {edit.error_type for edit in output.attack_attrs[GRAMMAR_ERRORS_ATTR]} == {"Nn"}
    assert len(output.attack_attrs[GRAMMAR_ERRORS_ATTR]) == 3  # every noun, nothing else


def test_unknown_error_type_gets_a_hint() -> None:
    with pytest.raises(ValueError, match="Did you mean 'Worder'"):
        GrammarErrorCombined(error_types=("Wordr",))


def test_augmenter_uses_the_probabilistic_mode() -> None:
    augmenter = Augmenter(
        transformation=GrammarErrorCombined(mode="probabilistic", seed=0),
        pct_words_to_swap=0.15,
        transformations_per_example=2,
    )
    augmented = augmenter.augment(SENTENCE)
    assert len(augmented) == 2 and SENTENCE not in augmented


@pytest.fixture(scope="module")
def geo_benchmark_examples(request: pytest.FixtureRequest) -> list:
    if request.param == "geo-mini":
        return load_benchmark("geo-mini").split("question", None)[:25]
    data_dir: Path = request.getfixturevalue("real_data_dir")
    return load_benchmark("geoquery", data_dir=data_dir).split("question", "test")[:40]


@pytest.mark.parametrize("geo_benchmark_examples", ["geo-mini", "geoquery"], indirect=True)
def test_geoquery_literals_are_never_touched(geo_benchmark_examples: list) -> None:
    transformation = GrammarErrorCombined()
    checked = 0
    for example in geo_benchmark_examples:
        text = AttackedText(example.question)
        record_gold_output(text, example.gold)
        literals = [" ".join(literal_words(literal)) for literal in sql_literals(example.gold)]
        present = [literal for literal in literals if f" {literal} " in f" {' '.join(text.words).lower()} "]
        outputs = transformation(text, pre_transformation_constraints=[PreserveLiterals()])
        assert outputs
        for output in outputs:
            joined = f" {' '.join(output.words).lower()} "
            assert all(f" {literal} " in joined for literal in present), (output.text, present)
        checked += bool(present)
    assert checked >= 5
