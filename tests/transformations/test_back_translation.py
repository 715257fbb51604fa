"""BackTranslation with tiny random MarianMT bridges built in the test (plumbing, not quality)."""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.transformations.back_translation import DEFAULT_BRIDGES, BackTranslation
from textattack_semparse.transformations.top_k_by_similarity import TopKBySimilarity

QUESTIONS = ["what is the capital of texas", "how many people live in new york", "how big is alaska"]


@pytest.fixture(scope="module")
def bridges(tiny_marian: Callable[[int], str]) -> list[tuple[str, str]]:
    return [(tiny_marian(1), tiny_marian(2)), (tiny_marian(3), tiny_marian(4)), (tiny_marian(5), tiny_marian(6))]


@pytest.fixture(scope="module")
def back_translation(bridges: list[tuple[str, str]]) -> BackTranslation:
    return BackTranslation(bridges=bridges, max_new_tokens=6, device="cpu")


def test_one_round_trip_per_bridge_per_question(back_translation: BackTranslation, bridges: list[tuple[str, str]]) -> None:
    rewrites = back_translation.rewrite(QUESTIONS)
    assert len(rewrites) == len(QUESTIONS) and all(len(row) == len(bridges) for row in rewrites)
    generators = back_translation._generators
    for column, (to_bridge, from_bridge) in enumerate(bridges):
        forward = [row[0] for row in generators[to_bridge].generate(QUESTIONS)]
        back = [row[0] for row in generators[from_bridge].generate(forward)]
        assert [row[column] for row in rewrites] == back


def test_batches_give_the_same_round_trips(bridges: list[tuple[str, str]], back_translation: BackTranslation) -> None:
    one_at_a_time = BackTranslation(bridges=bridges, batch_size=1, max_new_tokens=6, device="cpu")
    assert one_at_a_time.rewrite(QUESTIONS) == back_translation.rewrite(QUESTIONS)


def test_candidates_are_the_distinct_round_trips(back_translation: BackTranslation) -> None:
    text = AttackedText("what is the capital of texas")
    (round_trips,) = back_translation.rewrite([text.text])
    outputs = back_translation(text)
    assert [o.text for o in outputs] == list(dict.fromkeys(round_trips))
    assert 1 <= len(outputs) <= 3


def test_best_bridge_by_sentence_bert(back_translation: BackTranslation, sbert: SentenceBERTSimilarity) -> None:
    text = AttackedText("how many people live in new york")
    candidates = [o.text for o in back_translation(text)]
    (best,) = TopKBySimilarity(back_translation, k=1, encoder=sbert)(text)
    scores = TopKBySimilarity(back_translation, encoder=sbert).similarities(text.text, candidates).tolist()
    assert best.text == candidates[scores.index(max(scores))]
    assert best.attack_attrs["similarity_score"] == pytest.approx(max(scores))


def test_round_trips_losing_a_literal_are_dropped(back_translation: BackTranslation) -> None:
    text = AttackedText("how many people live in new york")
    outputs = back_translation(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert all("new york" in o.text for o in outputs)


def test_models_run_on_the_requested_device_and_are_not_pickled(back_translation: BackTranslation) -> None:
    back_translation.rewrite(["how big is alaska"])
    assert {g.model.device.type for g in back_translation._generators.values()} == {"cpu"}
    restored = pickle.loads(pickle.dumps(back_translation))
    assert all(g._model is None for g in restored._generators.values())


def test_default_bridges_are_the_papers_languages() -> None:
    assert DEFAULT_BRIDGES == (
        ("Helsinki-NLP/opus-mt-en-ru", "Helsinki-NLP/opus-mt-ru-en"),
        ("Helsinki-NLP/opus-mt-en-fr", "Helsinki-NLP/opus-mt-fr-en"),
        ("Helsinki-NLP/opus-mt-en-jap", "Helsinki-NLP/opus-mt-jap-en"),
    )
    back_translation = BackTranslation()
    assert back_translation.bridges is None and back_translation.deterministic
    assert all(g._model is None for g in back_translation._generators.values())


@pytest.mark.parametrize("bad", [[], [("only-one",)], ["ab"], [("a", "")]])
def test_bad_bridges_rejected(bad: list) -> None:
    with pytest.raises(ValueError, match="bridges"):
        BackTranslation(bridges=bad)


def test_bad_num_beams_rejected() -> None:
    with pytest.raises(ValueError, match="num_beams"):
        BackTranslation(num_beams=0)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(BackTranslation())
    for name in inspect.signature(BackTranslation.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
