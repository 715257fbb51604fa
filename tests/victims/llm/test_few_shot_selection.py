"""Few-shot demonstration selection (Zhuo et al. 2023, section 4.3) on geo-mini's training questions."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from tests.helpers import word_level_tokenizer
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.victims.llm.few_shot_selection import (
    SELECTOR_NAMES,
    ClusterSelector,
    ConfidenceSelector,
    PerplexitySelector,
    RandomSelector,
    normalized_word_edit_distance,
    selector_from_name,
    word_edit_distance,
)

K = 5


@pytest.fixture(scope="module")
def pool() -> list[SemparseExample]:
    return load_benchmark("geo-mini").split("question", "train")


@pytest.fixture(scope="module")
def tiny_gpt2(pool, tmp_path_factory) -> str:
    """A randomly initialised one-layer GPT-2 over the pool's words, saved locally (no download)."""
    import torch
    import transformers

    tokenizer = word_level_tokenizer([word for example in pool for word in example.question.split()])
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer), n_layer=1, n_embd=32, n_head=2, n_positions=64,
        bos_token_id=None, eos_token_id=1, pad_token_id=0,
    )
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = transformers.GPT2LMHeadModel(config)
    directory = tmp_path_factory.mktemp("tiny-gpt2")
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return str(directory)


@pytest.fixture(scope="module")
def reference_perplexities(pool, tiny_gpt2) -> dict[str, float]:
    """Each question's perplexity, one question at a time, from the model's own loss."""
    import torch
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(tiny_gpt2)
    model = transformers.AutoModelForCausalLM.from_pretrained(tiny_gpt2).eval()
    result = {}
    with torch.inference_mode():
        for example in pool:
            ids = tokenizer(example.question, return_tensors="pt")["input_ids"]
            result[example.question] = float(torch.exp(model(input_ids=ids, labels=ids).loss))
    return result


def _build(name: str, model: str, seed: int = 0):
    if name in ("ppl-asc", "ppl-desc"):
        return selector_from_name(name, model=model, batch_size=7)
    if name == "confidence":
        return selector_from_name(name, confidence=lambda questions: [len(q.split()) for q in questions])
    return selector_from_name(name, seed=seed)


@pytest.mark.parametrize("name", SELECTOR_NAMES)
def test_every_strategy_returns_k_distinct_examples_of_the_pool(name, pool, tiny_gpt2):
    selected = _build(name, tiny_gpt2).select(pool, K)
    assert len(selected) == K
    assert len({example.question for example in selected}) == K
    assert all(example in pool for example in selected)


@pytest.mark.parametrize("name", SELECTOR_NAMES)
def test_same_seed_gives_the_same_selection(name, pool, tiny_gpt2):
    assert _build(name, tiny_gpt2, seed=4).select(pool, K) == _build(name, tiny_gpt2, seed=4).select(pool, K)


def test_random_with_different_seeds_differs(pool):
    assert RandomSelector(seed=0).select(pool, K) != RandomSelector(seed=1).select(pool, K)


def test_random_with_seed_none_still_returns_k_distinct(pool):
    assert len({example.question for example in RandomSelector(seed=None).select(pool, K)}) == K


@pytest.mark.parametrize("name", SELECTOR_NAMES)
def test_k_zero_selects_nothing(name, pool, tiny_gpt2):
    assert _build(name, tiny_gpt2).select(pool, 0) == []


@pytest.mark.parametrize("representation", ["ed", "tfidf", "cwe"])
def test_cluster_selection_takes_the_member_nearest_each_centre(representation, pool):
    from sklearn.cluster import KMeans

    selector = ClusterSelector(representation, seed=2)
    selected = selector.select(pool, K)
    questions = [example.question for example in pool]  # geo-mini's training questions are distinct
    vectors = selector.represent(questions)
    kmeans = KMeans(n_clusters=K, random_state=2, n_init=10).fit(vectors)
    positions = [questions.index(example.question) for example in selected]
    assert sorted(kmeans.labels_[positions]) == list(range(K))  # one example per cluster
    distances = kmeans.transform(vectors)
    for position in positions:
        label = kmeans.labels_[position]
        members = np.flatnonzero(kmeans.labels_ == label)
        assert distances[position, label] == distances[members, label].min()


def test_cluster_tfidf_seeds_can_change_the_clusters(pool):
    selections = {tuple(e.question for e in ClusterSelector("tfidf", seed=seed).select(pool, K)) for seed in range(4)}
    assert len(selections) > 1


def test_edit_distance_representation_is_the_normalised_distance_matrix(pool):
    questions = [example.question for example in pool[:12]]
    expected = [[normalized_word_edit_distance(a, b) for b in questions] for a in questions]
    np.testing.assert_allclose(ClusterSelector("ed").represent(questions), expected)


@pytest.mark.parametrize(
    ("first", "second", "distance"),
    [
        ("what is the capital of texas", "what is the capital of texas", 0),
        ("what is the capital of texas", "what is the capital of ohio", 1),  # substitution
        ("rivers in texas", "the rivers in texas", 1),  # insertion
        ("how many people live in texas", "how many live in texas", 1),  # deletion
        ("rivers in texas", "texas in rivers", 2),  # words, not characters: no transposition
        ("", "rivers in texas", 3),
        ("texas", "texan", 1),  # one word differs, however many characters
    ],
)
def test_word_edit_distance_on_hand_examples(first, second, distance):
    assert word_edit_distance(first, second) == distance
    assert word_edit_distance(second, first) == distance


def test_normalized_word_edit_distance_divides_by_the_longer_question():
    assert normalized_word_edit_distance("rivers in texas", "the rivers in ohio") == 0.5
    assert normalized_word_edit_distance("", "") == 0.0
    assert normalized_word_edit_distance("a b", "c d") == 1.0


ZHUO_PPL_RULE = "select the utterances with the highest (PPL-Asc) and lowest (PPL-Desc) perplexity scores"
"""Zhuo et al. (2023), §4.3, as issue 25 quotes it (perplexity under GPT-2)."""


@pytest.mark.parametrize("order", ["asc", "desc"])
def test_perplexities_match_the_models_own_loss(order, pool, tiny_gpt2, reference_perplexities):
    selector = PerplexitySelector(order, model=tiny_gpt2, batch_size=8)
    questions = [example.question for example in pool]
    np.testing.assert_allclose(selector.perplexities(questions), [reference_perplexities[q] for q in questions], rtol=1e-4)


def test_ppl_asc_takes_the_highest_and_ppl_desc_the_lowest_perplexities(pool, tiny_gpt2, reference_perplexities):
    """Zhuo et al.'s rule: PPL-Asc takes the highest perplexities, PPL-Desc the lowest."""
    assert "highest (PPL-Asc)" in ZHUO_PPL_RULE and "lowest (PPL-Desc)" in ZHUO_PPL_RULE
    questions = list(dict.fromkeys(example.question for example in pool))
    highest_first = sorted(questions, key=lambda question: -reference_perplexities[question])
    ppl_asc = [example.question for example in selector_from_name("ppl-asc", model=tiny_gpt2).select(pool, K)]
    ppl_desc = [example.question for example in selector_from_name("ppl-desc", model=tiny_gpt2).select(pool, K)]
    assert ppl_asc == highest_first[:K]
    assert ppl_desc == highest_first[::-1][:K]
    assert min(reference_perplexities[q] for q in ppl_asc) > max(reference_perplexities[q] for q in ppl_desc)


def test_perplexity_scores_with_gpt2_by_default():
    assert PerplexitySelector("asc").model == "gpt2"
    assert selector_from_name("ppl-desc").model == "gpt2"


def test_a_perplexity_model_that_cannot_load_names_the_offline_substitutes(pool, tmp_path):
    from textattack_semparse.errors import VictimError

    with pytest.raises(VictimError, match="ppl_model=victim"):
        PerplexitySelector("asc", model=str(tmp_path / "no-model")).select(pool, K)


def test_confidence_selects_the_lowest_scores(pool, tiny_gpt2):
    scorer = PerplexitySelector("asc", model=tiny_gpt2)
    least_confident = ConfidenceSelector(lambda questions: [-p for p in scorer.perplexities(questions)]).select(pool, K)
    assert least_confident == PerplexitySelector("asc", model=tiny_gpt2).select(pool, K)


def test_duplicate_questions_count_once():
    pool = [SemparseExample("rivers in texas", "a"), SemparseExample("rivers in texas", "b"), SemparseExample("capital of ohio", "c")]
    assert {e.gold for e in RandomSelector().select(pool, 2)} == {"a", "c"}
    with pytest.raises(ValueError, match=r"k=3 exceeds the 2 distinct questions in the pool of 3 examples; pass k <= 2"):
        RandomSelector().select(pool, 3)


def test_negative_k_is_rejected(pool):
    with pytest.raises(ValueError, match="k must be >= 0"):
        RandomSelector().select(pool, -1)


@pytest.mark.parametrize("k", [True, 2.0, "2"])
def test_non_int_k_is_rejected(k, pool):
    with pytest.raises(TypeError, match="k must be an int"):
        RandomSelector().select(pool, k)


def test_k_larger_than_the_pool_is_rejected_for_clusters(pool):
    with pytest.raises(ValueError, match=f"pass k <= {len(pool)}"):
        ClusterSelector("tfidf").select(pool, len(pool) + 1)


def test_k_equal_to_the_pool_takes_every_example():
    pool = [SemparseExample(q, "") for q in ("rivers in texas", "rivers in ohio", "capital of texas")]
    assert sorted(e.question for e in ClusterSelector("ed").select(pool, 3)) == sorted(e.question for e in pool)


def test_identical_vectors_still_give_k_distinct_examples():
    # Distinct questions with the same TF-IDF vector: k-means finds fewer clusters than k.
    pool = [SemparseExample(q, "") for q in ("rivers in texas", "rivers in texas ?", "rivers, in texas")]
    assert len({e.question for e in ClusterSelector("tfidf").select(pool, 3)}) == 3


def test_unknown_name_suggests_the_closest():
    with pytest.raises(ValueError, match=r"Unknown few-shot selector 'cluster-tfid'.*Did you mean 'cluster-tfidf'\?"):
        selector_from_name("cluster-tfid")


def test_name_preset_cannot_be_overridden():
    with pytest.raises(ValueError, match="fixes representation='ed'; drop representation="):
        selector_from_name("cluster-ed", representation="tfidf")


def test_option_the_selector_does_not_take_is_named():
    with pytest.raises(TypeError, match=r"Selector 'random' \(RandomSelector\) does not take that option"):
        selector_from_name("random", model="gpt2")


def test_unknown_representation_suggests_the_closest():
    with pytest.raises(ValueError, match=r"Unknown representation 'tf-idf'.*Did you mean 'tfidf'\?"):
        ClusterSelector("tf-idf")


def test_unknown_order_is_rejected():
    with pytest.raises(ValueError, match="order must be 'asc'"):
        PerplexitySelector("ascending", model="unused")


def test_confidence_of_the_wrong_length_is_rejected(pool):
    with pytest.raises(ValueError, match="confidence returned 1 scores for 70 questions"):
        ConfidenceSelector(lambda questions: [0.0]).select(pool, K)


def test_non_finite_confidence_is_rejected(pool):
    with pytest.raises(ValueError, match="non-finite score"):
        ConfidenceSelector(lambda questions: [float("nan")] * len(questions)).select(pool, K)


def test_repr_shows_the_configuration():
    assert repr(ClusterSelector("cwe", seed=3)) == "ClusterSelector(representation='cwe', seed=3, n_init=10, ngram_range=(1, 2))"
    assert repr(PerplexitySelector("desc", model="m")) == (
        "PerplexitySelector(order='desc', model='m', gguf_file=None, batch_size=16, device=None)"
    )
    assert repr(RandomSelector(seed=None)) == "RandomSelector(seed=None)"


def test_names_match_the_paper_rows():
    assert [ClusterSelector(r).name for r in ("ed", "tfidf", "cwe")] == ["cluster-ed", "cluster-tfidf", "cluster-cwe"]
    assert PerplexitySelector("desc", model="m").name == "ppl-desc"


def test_perplexity_selector_pickles_without_its_model(pool, tiny_gpt2):
    selector = PerplexitySelector("asc", model=tiny_gpt2)
    expected = selector.select(pool, K)
    restored = pickle.loads(pickle.dumps(selector))
    assert restored._loaded is None
    assert restored.select(pool, K) == expected
