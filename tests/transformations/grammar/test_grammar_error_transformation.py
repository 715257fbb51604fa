"""Modes, index restriction, sampling and bookkeeping shared by every grammatical-error type."""

from __future__ import annotations

import inspect
import math
import pickle
from pathlib import Path

import pytest
from textattack.search_methods import AlzantotGeneticAlgorithm, BeamSearch, GreedyWordSwapWIR
from textattack.shared import AttackedText

from textattack_semparse.transformations.grammar.error_model import ErrorModel
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_art_or_det import GrammarErrorArtOrDet
from textattack_semparse.transformations.grammar.grammar_error_combined import (
    TRANSFORMATION_OF_TYPE,
    GrammarErrorCombined,
)
from textattack_semparse.transformations.grammar.grammar_error_nn import GrammarErrorNn
from textattack_semparse.transformations.grammar.grammar_error_transformation import (
    GRAMMAR_ERRORS_ATTR,
    GrammarErrorTransformation,
    match_case,
)

LONG = "I have always been careful, but he quickly went into the house during the storm and the rain."
SHORT = "She has walked to school quickly."
QUESTIONS = [
    "what is the capital of texas",
    "how many rivers run through states that border california",
    "which states border the state with the largest population",
]


def edits_of(text: AttackedText) -> tuple[GrammarEdit, ...]:
    return text.attack_attrs[GRAMMAR_ERRORS_ATTR]


def test_worst_case_is_deterministic_and_probabilistic_is_not() -> None:
    assert GrammarErrorNn().deterministic
    assert not GrammarErrorNn(mode="probabilistic").deterministic


def test_worst_case_returns_one_text_per_edit() -> None:
    text = AttackedText(LONG)
    transformation = GrammarErrorArtOrDet()
    outputs = transformation(text)
    assert len(outputs) == len(transformation.candidate_edits(text))
    assert all(len(edits_of(output)) == 1 for output in outputs)


def test_only_indices_to_modify_are_touched() -> None:
    text = AttackedText(LONG)
    allowed = {8, 9, 10, 11}  # "went into the house"
    outputs = GrammarErrorCombined()(text, indices_to_modify=allowed)
    assert outputs
    for output in outputs:
        assert all(set(edit.indices) <= allowed for edit in edits_of(output))
        assert output.words[:8] == text.words[:8] and output.words[-5:] == text.words[-5:]


def test_an_insertion_belongs_to_the_word_after_it() -> None:
    text = AttackedText(SHORT)  # "school" (index 4) takes an article in front
    transformation = GrammarErrorArtOrDet()
    assert transformation(text, indices_to_modify={0, 1, 2, 3, 5}) == []
    assert {output.text for output in transformation(text, indices_to_modify={4})} == {
        f"She has walked to {article} school quickly." for article in ("a", "an", "the")
    }


def test_probabilistic_mode_is_reproducible_by_seed() -> None:
    def run(seed: int) -> list[list[str]]:
        transformation = GrammarErrorCombined(mode="probabilistic", seed=seed, num_samples=3)
        return [[output.text for output in transformation(AttackedText(q))] for q in [LONG, *QUESTIONS] * 2]

    assert run(11) == run(11)
    assert run(11) != run(12)


@pytest.mark.parametrize("rate", [0.15, 0.3])
def test_probabilistic_mode_respects_the_rate(rate: float) -> None:
    text = AttackedText(LONG)
    budget = max(1, math.floor(rate * len(text.words)))
    counts = []
    for seed in range(20):
        (output,) = GrammarErrorCombined(mode="probabilistic", rate=rate, seed=seed)(text)
        edits = edits_of(output)
        counts.append(len(edits))
        touched = [index for edit in edits for index in edit.indices]
        assert len(touched) == len(set(touched))  # errors never overlap
    assert max(counts) == budget and min(counts) >= 1


def test_short_text_still_gets_one_error() -> None:
    (output,) = GrammarErrorCombined(mode="probabilistic", seed=0)(AttackedText(QUESTIONS[0]))
    assert len(edits_of(output)) == 1  # 6 words x 15% rounds down to 0; at least one error


def test_num_samples_bounds_the_distinct_outputs() -> None:
    outputs = GrammarErrorCombined(mode="probabilistic", seed=0, num_samples=5)(AttackedText(LONG))
    assert 1 < len(outputs) <= 5 and len({output.text for output in outputs}) == len(outputs)


def test_sampling_follows_the_confusion_weights() -> None:
    data = ErrorModel.default().to_dict()
    data["weights"]["ArtOrDet"] = {"the": {"a": 1.0}}  # only "the" -> "a" has weight
    model = ErrorModel.from_dict(data)
    transformation = GrammarErrorArtOrDet(error_model=model, mode="probabilistic", seed=0, rate=0.01)
    text = AttackedText(LONG)
    for _ in range(10):
        (output,) = transformation(text)
        ((edit),) = edits_of(output)
        assert (edit.source, edit.target) == ("the", "a")
    assert len(GrammarErrorArtOrDet(error_model=model)(text)) == 3 * 3  # worst case ignores weights


def test_length_preserving_drops_insertions_and_deletions() -> None:
    text = AttackedText(LONG)
    outputs = GrammarErrorCombined(length_preserving=True)(text)
    assert outputs and all(len(output.words) == len(text.words) for output in outputs)
    assert len(GrammarErrorArtOrDet(length_preserving=True)(text)) == 3 * 2  # a/an for each "the"


def test_edits_accumulate_over_successive_transformations() -> None:
    first = GrammarErrorNn()(AttackedText(SHORT))[0]
    second = GrammarErrorArtOrDet()(first)[0]
    assert [edit.error_type for edit in edits_of(second)] == ["Nn", "ArtOrDet"]
    assert second.attack_attrs["previous_attacked_text"] is first


def test_error_model_may_be_a_json_path(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    ErrorModel.default().to_json(path)
    assert len(GrammarErrorNn(error_model=path)(AttackedText(LONG))) == 3


def test_empty_text_has_no_candidates() -> None:
    assert GrammarErrorCombined()(AttackedText("?!")) == []


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"mode": "worstcase"}, ValueError, "Did you mean 'worst-case'"),
        ({"rate": 0}, ValueError, r"rate must be a number in \(0, 1\]"),
        ({"rate": 1.5}, ValueError, "rate must be"),
        ({"num_samples": 0}, ValueError, "num_samples must be a positive int"),
        ({"seed": "7"}, TypeError, "seed must be an int"),
        ({"error_model": 3}, TypeError, "error_model must be an ErrorModel"),
    ],
)
def test_invalid_arguments(kwargs: dict, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        GrammarErrorNn(**kwargs)


@pytest.mark.parametrize("cls", [*TRANSFORMATION_OF_TYPE.values(), GrammarErrorCombined])
def test_repr_lists_every_parameter(cls: type[GrammarErrorTransformation]) -> None:
    parameters = set(inspect.signature(GrammarErrorTransformation.__init__).parameters)
    parameters |= set(inspect.signature(cls.__init__).parameters)
    parameters -= {"self", "kwargs"}
    text = repr(cls())
    assert all(f"({name})" in text for name in parameters)


def test_transformation_pickles_and_still_works() -> None:
    transformation = pickle.loads(pickle.dumps(GrammarErrorCombined(mode="probabilistic", seed=1)))
    assert transformation(AttackedText(LONG))


def test_textattack_word_swap_searches_accept_it() -> None:
    transformation = GrammarErrorCombined()
    assert GreedyWordSwapWIR().check_transformation_compatibility(transformation)
    assert AlzantotGeneticAlgorithm().check_transformation_compatibility(GrammarErrorCombined(length_preserving=True))
    assert BeamSearch(beam_width=5).check_transformation_compatibility(transformation)


@pytest.mark.parametrize(
    ("original", "new", "expected"), [("the", "a", "a"), ("The", "a", "A"), ("USA", "usas", "USAS"), ("A", "the", "The")]
)
def test_match_case(original: str, new: str, expected: str) -> None:
    assert match_case(original, new) == expected


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"GrammarErrorCombined builds candidates for every word.*300 words"):
        GrammarErrorCombined()(text)
