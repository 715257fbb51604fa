"""SentenceBERTSimilarity with the packaged all-MiniLM-L6-v2 (a real model, loaded offline)."""

from __future__ import annotations

import inspect
import pickle

import pytest
import torch
from textattack.shared import AttackedText

from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.linguistics.sentence_embeddings import default_model_path
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion
from textattack_semparse.transformations.function_word_insertion import FunctionWordInsertion

ORIGINAL = "what is the population of new york"


@pytest.fixture(scope="module")
def constraint() -> SentenceBERTSimilarity:
    return SentenceBERTSimilarity()


def perturbed(words: list[str]) -> AttackedText:
    """A perturbation of ORIGINAL with TextAttack's bookkeeping (last_transformation etc.)."""
    text = AttackedText(ORIGINAL).generate_new_attacked_text(words)
    text.attack_attrs["last_transformation"] = FunctionWordDeletion()
    return text


def test_model_is_not_loaded_by_the_constructor() -> None:
    assert SentenceBERTSimilarity().embeddings._model is None


def test_meaning_preserving_function_word_edit_passes(constraint: SentenceBERTSimilarity) -> None:
    (dropped,) = FunctionWordDeletion()(AttackedText(ORIGINAL), indices_to_modify={2})
    assert dropped.text == "what is population of new york"
    assert constraint(dropped, AttackedText(ORIGINAL))
    assert dropped.attack_attrs["similarity_score"] > 0.9


def test_unrelated_question_fails(constraint: SentenceBERTSimilarity) -> None:
    other = perturbed(["which", "rivers", "run", "through", "texas", "", ""])
    assert other.words == ["which", "rivers", "run", "through", "texas"]
    assert not constraint(other, AttackedText(ORIGINAL))
    assert other.attack_attrs["similarity_score"] < 0.5


def test_batched_check_filters_and_scores_each(constraint: SentenceBERTSimilarity) -> None:
    candidates = FunctionWordDeletion()(AttackedText(ORIGINAL)) + [perturbed(["name", "rivers", "in", "texas", "", "", ""])]
    kept = constraint.call_many(candidates, AttackedText(ORIGINAL))
    assert len(kept) == len(candidates) - 1
    assert all("similarity_score" in c.attack_attrs for c in candidates)


def test_single_and_batched_checks_agree(constraint: SentenceBERTSimilarity) -> None:
    candidates = FunctionWordDeletion()(AttackedText(ORIGINAL))
    batched = {c.text for c in constraint.call_many(candidates, AttackedText(ORIGINAL))}
    single = {c.text for c in candidates if constraint(c, AttackedText(ORIGINAL))}
    assert batched == single


def test_threshold_decides(constraint: SentenceBERTSimilarity) -> None:
    strict = SentenceBERTSimilarity(threshold=1.0)
    strict.embeddings._model = constraint.model
    (dropped,) = FunctionWordDeletion()(AttackedText(ORIGINAL), indices_to_modify={2})
    assert not strict(dropped, AttackedText(ORIGINAL))


def test_embeddings_are_cached_by_text(constraint: SentenceBERTSimilarity) -> None:
    constraint.clear_cache()
    first = constraint.encode([ORIGINAL, "rivers in texas", ORIGINAL])
    assert len(constraint.embeddings._cache) == 2
    again = constraint.encode(["rivers in texas"])
    assert torch.equal(first[1], again[0]) and torch.equal(first[0], first[2])


def test_cache_is_bounded_lru(constraint: SentenceBERTSimilarity) -> None:
    small = SentenceBERTSimilarity(cache_size=2)
    small.embeddings._model = constraint.model
    small.encode(["a river", "a state"])
    small.encode(["a river"])
    small.encode(["a city"])
    assert list(small.embeddings._cache) == ["a river", "a city"]


def test_cache_size_zero_disables_cache(constraint: SentenceBERTSimilarity) -> None:
    uncached = SentenceBERTSimilarity(cache_size=0)
    uncached.embeddings._model = constraint.model
    assert uncached.encode(["a river", "a state"]).shape == (2, 384)
    assert not uncached.embeddings._cache


def test_pickling_drops_model_and_cache(constraint: SentenceBERTSimilarity) -> None:
    constraint.encode([ORIGINAL])
    restored = pickle.loads(pickle.dumps(constraint))
    assert restored.embeddings._model is None and not restored.embeddings._cache
    assert restored.threshold == constraint.threshold


def test_device_defaults_to_cpu_without_cuda(constraint: SentenceBERTSimilarity) -> None:
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert constraint.model.device.type == expected


def test_explicit_model_path_loads_offline() -> None:
    explicit = SentenceBERTSimilarity(model_name_or_path=default_model_path(), device="cpu")
    assert explicit.encode(["rivers in texas"]).shape == (1, 384)


def test_angular_metric_passes_close_edit(constraint: SentenceBERTSimilarity) -> None:
    angular = SentenceBERTSimilarity(metric="angular", threshold=0.8)
    angular.embeddings._model = constraint.model
    (dropped,) = FunctionWordDeletion()(AttackedText(ORIGINAL), indices_to_modify={2})
    assert angular(dropped, AttackedText(ORIGINAL))


def test_unknown_metric_rejected_with_choices() -> None:
    with pytest.raises(ValueError, match="accepted: cosine, angular, max_euclidean"):
        SentenceBERTSimilarity(metric="dot")


@pytest.mark.parametrize("threshold", [1.5, -2.0, "0.8"])
def test_threshold_out_of_range_rejected(threshold: object) -> None:
    with pytest.raises(ValueError, match="threshold"):
        SentenceBERTSimilarity(threshold=threshold)  # type: ignore[arg-type]


@pytest.mark.parametrize("name, value", [("batch_size", 0), ("cache_size", -1), ("window_size", 0)])
def test_bad_sizes_rejected(name: str, value: int) -> None:
    with pytest.raises(ValueError, match=name):
        SentenceBERTSimilarity(**{name: value})


def test_compare_against_original_is_stored() -> None:
    assert SentenceBERTSimilarity(compare_against_original=False).compare_against_original is False


def test_repr_lists_every_init_parameter() -> None:
    text = repr(SentenceBERTSimilarity())
    for name in inspect.signature(SentenceBERTSimilarity.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_pure_deletion_scored_on_whole_text(constraint: SentenceBERTSimilarity) -> None:
    (dropped,) = FunctionWordDeletion()(AttackedText(ORIGINAL), indices_to_modify={2})
    assert dropped.attack_attrs["newly_modified_indices"] == set()
    assert len(constraint.call_many([dropped], AttackedText(ORIGINAL))) == 1


def test_window_compares_words_around_the_edit(constraint: SentenceBERTSimilarity) -> None:
    windowed = SentenceBERTSimilarity(window_size=3)
    windowed.embeddings._model = constraint.model
    edited = AttackedText(ORIGINAL).replace_word_at_index(3, "capital")
    assert windowed._windows(AttackedText(ORIGINAL), edited) == ("the population of", "the capital of")


def _forward_calls(model: torch.nn.Module) -> list[int]:
    calls: list[int] = []
    model.register_forward_hook(lambda module, inputs, output: calls.append(len(output["sentence_embedding"])))
    return calls


def test_a_steps_candidates_and_reference_go_through_the_model_in_one_call() -> None:
    fresh = SentenceBERTSimilarity(device="cpu")
    calls = _forward_calls(fresh.model)
    reference = AttackedText("which rivers run through the state of texas")
    # One search step's candidates: insertions before "the" (before "rivers" nothing is inserted,
    # it sits next to the question word "which").
    candidates = FunctionWordInsertion()(reference, indices_to_modify={4})
    assert len(candidates) >= 3
    fresh.call_many(candidates, reference)
    assert calls == [len(candidates) + 1]
    fresh.call_many(candidates, reference)  # texts already seen come from the cache
    assert calls == [len(candidates) + 1]


def test_uncached_and_cached_scores_agree(constraint: SentenceBERTSimilarity) -> None:
    uncached = SentenceBERTSimilarity(cache_size=0)
    uncached.embeddings._model = constraint.model
    candidates = FunctionWordDeletion()(AttackedText(ORIGINAL))
    constraint.call_many(candidates, AttackedText(ORIGINAL))
    cached_scores = [c.attack_attrs["similarity_score"] for c in candidates]
    uncached.call_many(candidates, AttackedText(ORIGINAL))
    assert [c.attack_attrs["similarity_score"] for c in candidates] == pytest.approx(cached_scores, abs=1e-6)


def test_encoding_groups_together_gives_each_group_its_embeddings_alone(constraint: SentenceBERTSimilarity) -> None:
    # Bit for bit: a robustness build embeds the candidates of many examples at once, and its
    # files must not depend on which examples share a batch.
    question = "which rivers run through the state with the largest population"
    words = question.split()
    groups = [
        [question, *(" ".join(words[:i] + words[i + 1 :]) for i in range(len(words)))],
        ["what is the capital of texas", "what is capital of texas"],
        ["how big is alaska", "how big is alaska ?", "what is the area of the largest state in the usa"],
        [f"which state number {i} borders texas" for i in range(40)],  # more than a batch of 32
        [],
    ]
    embeddings = constraint.embeddings
    together = constraint.encode_each(groups)
    for group, rows in zip(groups, together, strict=True):
        assert torch.equal(rows, embeddings.encode_uncached(group)) if group else rows.numel() == 0
