"""GreedyWordImportanceSearch with Sentence-BERT similarity deferred (semparse-geo's set-up) against the
same attack with the similarity as an ordinary, uncached attack constraint: the same results, far
fewer encodings, at most one encoder call per search step."""

from __future__ import annotations

from pathlib import Path

import pytest
from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification

from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings
from textattack_semparse.recipes.attack.meaning_preserving_attack_huang_2021 import MeaningPreservingAttackHuang2021
from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser


class EncoderCalls:
    """Counts the model calls of a SentenceEmbeddings (texts not found in its cache)."""

    def __init__(self, embeddings: SentenceEmbeddings) -> None:
        self.calls, self.texts = 0, 0
        encode_uncached = embeddings.encode_uncached

        def counted(texts: list[str]):
            self.calls += 1
            self.texts += len(texts)
            return encode_uncached(texts)

        embeddings.encode_uncached = counted  # type: ignore[method-assign]


def _attacks(benchmark, threshold: float) -> tuple[Attack, Attack]:
    """semparse-geo as built (similarity deferred, cached) and the same attack with the similarity
    among the attack's constraints, uncached (checked on every candidate, as TextAttack does)."""
    victim = KNNTemplateParser(benchmark.split("question", "train"), benchmark=benchmark)
    deferred = MeaningPreservingAttackHuang2021.build(victim, similarity_threshold=threshold)
    (similarity,) = deferred.search_method.deferred_constraints
    every_candidate = SentenceBERTSimilarity(threshold=threshold, cache_size=0)
    every_candidate.embeddings._model = similarity.model
    reference = MeaningPreservingAttackHuang2021.build(victim, similarity_threshold=threshold)
    reference = Attack(
        reference.goal_function,
        [*reference.pre_transformation_constraints, *reference.constraints, every_candidate],
        reference.transformation,
        GreedyWordImportanceSearch(wir_method="delete"),
    )
    return deferred, reference


def _examples(benchmark, limit: int | None = None) -> list:
    dataset = benchmark.dataset("question", "test")
    return [dataset[i] for i in range(len(dataset) if limit is None else min(limit, len(dataset)))]


def _outcomes(attack: Attack, examples) -> list[tuple[str, str]]:
    return [
        (type(result).__name__, result.perturbed_result.attacked_text.text)
        for result in (attack.attack(example, gold) for example, gold in examples)
    ]


def _compare(benchmark, examples, threshold: float) -> tuple[list[tuple[str, str]], EncoderCalls, EncoderCalls]:
    deferred, reference = _attacks(benchmark, threshold)
    deferred_calls = EncoderCalls(deferred.search_method.deferred_constraints[0].embeddings)
    reference_calls = EncoderCalls(reference.constraints[-1].embeddings)
    outcomes = _outcomes(deferred, examples)
    assert outcomes == _outcomes(reference, examples)
    return outcomes, deferred_calls, reference_calls


@pytest.mark.parametrize("threshold", [0.8, 0.95])  # 0.95 rejects some candidates the victim is then asked about
def test_deferred_similarity_gives_the_same_results_on_geo_mini(threshold: float) -> None:
    geo = load_benchmark("geo-mini")
    examples = _examples(geo)
    outcomes, deferred, reference = _compare(geo, examples, threshold)
    assert {"SuccessfulAttackResult", "FailedAttackResult"} <= {kind for kind, _ in outcomes}
    assert deferred.texts < reference.texts


@pytest.mark.real_data
def test_deferred_similarity_gives_the_same_results_on_real_geoquery(real_data_dir: Path) -> None:
    geo = load_benchmark("geo", data_dir=real_data_dir)
    _, deferred, reference = _compare(geo, _examples(geo, 10), 0.8)
    assert deferred.texts < reference.texts


def test_each_search_step_makes_at_most_one_encoder_call() -> None:
    geo = load_benchmark("geo-mini")
    attack = MeaningPreservingAttackHuang2021.build(KNNTemplateParser(geo.split("question", "train"), benchmark=geo))
    search = attack.search_method
    encoder = EncoderCalls(search.deferred_constraints[0].embeddings)
    calls_per_step = []
    admissible = search._admissible

    def step(*args):
        before = encoder.calls
        kept = admissible(*args)
        calls_per_step.append(encoder.calls - before)
        return kept

    search._admissible = step
    kinds = [kind for kind, _ in _outcomes(attack, _examples(geo))]
    assert "SuccessfulAttackResult" in kinds
    assert max(calls_per_step) == 1 and encoder.calls >= 1


def test_without_deferred_constraints_every_result_is_admissible() -> None:
    search = GreedyWordImportanceSearch()
    results = [object(), object()]
    assert search._admissible(results, None, None) is results


def test_deferred_constraints_must_be_constraints() -> None:
    with pytest.raises(TypeError, match="pre-transformation constraints belong in the attack's list"):
        GreedyWordImportanceSearch(deferred_constraints=[RepeatModification()])


def test_repr_shows_the_deferred_constraints() -> None:
    text = repr(GreedyWordImportanceSearch(deferred_constraints=[SentenceBERTSimilarity()]))
    for name in ("wir_method", "deferred_constraints", "SentenceBERTSimilarity"):
        assert name in text
