"""TopKBySimilarity with the packaged Sentence-BERT (all-MiniLM-L6-v2, loaded offline)."""

from __future__ import annotations

import inspect
import pickle
import random

import pytest
import torch
from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.transformations.random_word_deletion import RandomWordDeletion
from textattack_semparse.transformations.top_k_by_similarity import TopKBySimilarity, draw_order

QUESTION = "which rivers run through the state with the largest population"


def test_keeps_the_k_most_similar_in_decreasing_order(sbert: SentenceBERTSimilarity) -> None:
    text = AttackedText(QUESTION)
    everything = FunctionWordDeletion()(text)
    kept = TopKBySimilarity(FunctionWordDeletion(), k=3, encoder=sbert)(text)
    scores = {c.text: float(s) for c, s in zip(everything, TopKBySimilarity(FunctionWordDeletion(), encoder=sbert).similarities(QUESTION, [c.text for c in everything]))}
    best = sorted(scores, key=scores.get, reverse=True)[:3]
    assert [t.text for t in kept] == best
    kept_scores = [t.attack_attrs["similarity_score"] for t in kept]
    assert kept_scores == sorted(kept_scores, reverse=True)
    assert kept_scores == pytest.approx([scores[t] for t in best])


def test_scores_are_sentence_bert_cosines(sbert: SentenceBERTSimilarity) -> None:
    scores = TopKBySimilarity(FunctionWordDeletion(), encoder=sbert).similarities(
        "what is the capital of texas", ["what is the capital of texas", "how many people live in new york"]
    )
    assert scores[0] == pytest.approx(1.0, abs=1e-5) and scores[1] < 0.5


def test_fewer_candidates_than_k_are_all_kept(sbert: SentenceBERTSimilarity) -> None:
    text = AttackedText("what is the capital of texas")
    kept = TopKBySimilarity(FunctionWordDeletion(), k=10, encoder=sbert)(text)
    assert sorted(t.text for t in kept) == sorted(t.text for t in FunctionWordDeletion()(text))
    assert len(kept) >= 2


def test_no_candidate_gives_no_output(sbert: SentenceBERTSimilarity) -> None:
    assert TopKBySimilarity(FunctionWordDeletion(), encoder=sbert)(AttackedText("texas population")) == []


def test_samples_num_candidates_before_ranking(sbert: SentenceBERTSimilarity) -> None:
    text = AttackedText(QUESTION)
    inner = RandomWordDeletion(num_candidates=40, seed=3)
    pool = {t.text for t in RandomWordDeletion(num_candidates=40, seed=3)(text)}
    first = TopKBySimilarity(inner, k=10, num_candidates=20, encoder=sbert, seed=7)(text)
    assert len(first) == 10 and {t.text for t in first} <= pool
    again = TopKBySimilarity(RandomWordDeletion(num_candidates=40, seed=3), k=10, num_candidates=20, encoder=sbert, seed=7)(text)
    assert [t.text for t in again] == [t.text for t in first]


def test_pre_transformation_constraints_reach_the_inner_transformation(sbert: SentenceBERTSimilarity) -> None:
    text = AttackedText("what is the population of new york")
    wrapped = TopKBySimilarity(RandomWordDeletion(seed=0), k=5, encoder=sbert)
    outputs = wrapped(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert outputs and all(t.text.endswith("new york") for t in outputs)
    assert all(t.attack_attrs["last_transformation"] is wrapped for t in outputs)


def test_model_name_builds_a_lazy_encoder() -> None:
    wrapped = TopKBySimilarity(FunctionWordDeletion(), encoder="some/sentence-model")
    assert isinstance(wrapped._encoder, SentenceEmbeddings)
    assert wrapped._encoder.model_name_or_path == "some/sentence-model" and wrapped._encoder._model is None


def test_determinism_follows_inner_and_sampling() -> None:
    assert TopKBySimilarity(FunctionWordDeletion()).deterministic
    assert not TopKBySimilarity(FunctionWordDeletion(), num_candidates=20).deterministic
    assert not TopKBySimilarity(RandomWordDeletion()).deterministic


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"k": 0}, ValueError), ({"k": 5, "num_candidates": 3}, ValueError), ({"encoder": 3}, TypeError), ({"seed": "1"}, TypeError)],
)
def test_bad_arguments_rejected(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        TopKBySimilarity(FunctionWordDeletion(), **kwargs)


def test_inner_must_be_a_transformation() -> None:
    with pytest.raises(TypeError, match="Transformation"):
        TopKBySimilarity(lambda text: [text])  # type: ignore[arg-type]


def test_pickles_without_the_model(sbert: SentenceBERTSimilarity) -> None:
    wrapped = TopKBySimilarity(FunctionWordDeletion(), encoder=sbert)
    wrapped.similarities("a", ["b"])
    restored = pickle.loads(pickle.dumps(wrapped))
    assert restored._encoder.embeddings._model is None and isinstance(restored, Transformation)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(TopKBySimilarity(FunctionWordDeletion()))
    for name in inspect.signature(TopKBySimilarity.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_similarities_of_nothing_is_empty() -> None:
    assert TopKBySimilarity(FunctionWordDeletion()).similarities("a", []).shape == torch.Size([0])


def test_draw_order_starts_with_the_sample_random_takes_and_holds_every_index_once() -> None:
    for count in [*range(1, 100), 200, 3000]:
        for size in (1, 2, 6, 20, 30):
            if size > count:
                continue
            order = list(draw_order(random.Random(f"0:{count}"), count, size))
            assert order[:size] == random.Random(f"0:{count}").sample(range(count), size)
            assert sorted(order) == list(range(count))
