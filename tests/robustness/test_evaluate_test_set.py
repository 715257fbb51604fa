"""Evaluating victims on robustness test sets: knn-geo (no loss), a tiny T5 (loss), hand-made cases."""

from __future__ import annotations

import pytest

from tests.helpers import execution_match_at_defaults
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.experiments.evaluate import evaluate_victim
from textattack_semparse.robustness.build_test_set import build_test_set
from textattack_semparse.robustness.evaluate_test_set import (
    evaluate_test_set,
    evaluation_scoring,
    gold_losses,
    no_loss_message,
)
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.errors import RecipeError
from textattack_semparse.scoring import Databases, ExactMatchScorer, ExecutionScorer, Scoring
from textattack_semparse.victims.prediction import Prediction
from textattack_semparse.victims.resolution import resolve_victim
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

TEXAS = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "texas" ;'
OHIO = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "ohio" ;'
BROKEN = "SELECT capital FROM no_such_table"


@pytest.fixture(scope="module")
def geo_test_set(geo_mini_env) -> RobustnessTestSet:
    """Every deletion and distraction of geo-mini's 28 test questions (no ranking, so no Sentence-BERT)."""
    return build_test_set("geo-question-test", ["deletion", "distraction"], selection=(None, None))


@pytest.fixture(scope="module")
def knn(geo_mini_env):
    victim, dataset = resolve_victim("knn-geo")
    assert dataset == "geo-question-test"
    return victim


class LookupParser:
    """A parser that answers from a fixed table (questions it does not know get '')."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def __call__(self, batch: list[str]) -> list[str]:
        return [self.answers.get(question, "") for question in batch]


def utterance(example_id: int, original: SemparseExample, perturbed: str, perturbation: str) -> PerturbedUtterance:
    return PerturbedUtterance(example_id, original.question, perturbed, original.gold, perturbation)


def test_knn_report_has_every_perturbation_and_no_black_box_rate(knn, geo_test_set):
    report = evaluate_test_set(knn, geo_test_set, victim_name="knn-geo")
    assert list(report.perturbations) == ["deletion", "distraction"]
    assert report.scoring == f"execution match (classical) on {knn.database}"
    assert report.database == str(knn.database)
    assert not report.loss_available
    assert all(metrics.black_box_success_rate is None for metrics in report.perturbations.values())
    assert report.micro.black_box_success_rate is None
    assert report.macro["black_box_success_rate"] is None
    assert no_loss_message("knn-geo") in report.notes
    assert "cannot compute its loss on the gold query; success rate of black-box attack not available" in report.notes[0]


def test_knn_standard_accuracy_on_all_originals_equals_the_evaluate_command(knn, geo_test_set, geo_mini_env):
    report = evaluate_test_set(knn, geo_test_set, victim_name="knn-geo")
    expected = evaluate_victim("knn-geo")
    assert report.original_examples == expected["examples"] == 28
    assert report.standard_accuracy == pytest.approx(expected["standard_accuracy"])


def test_knn_perturbation_accuracy_matches_execution_match_of_each_utterance(knn, geo_test_set):
    report = evaluate_test_set(knn, geo_test_set, victim_name="knn-geo")
    items = geo_test_set.utterances["distraction"]
    predictions = knn([item.perturbed for item in items])
    database = knn.database
    correct = sum(execution_match_at_defaults(p, item.gold, database).match for p, item in zip(predictions, items))
    assert report.perturbations["distraction"].utterances_correct == correct
    assert report.perturbations["distraction"].perturbation_accuracy == pytest.approx(100 * correct / len(items))


def test_hand_made_case_gives_hand_computed_metrics():
    _, database = geo_mini_paths()
    originals = [
        SemparseExample("capital of texas", TEXAS),
        SemparseExample("capital of ohio", OHIO),
        SemparseExample("capital of nowhere", BROKEN),
    ]
    test_set = RobustnessTestSet(
        "hand-made",
        originals,
        {
            "a": [utterance(0, originals[0], "the capital of texas", "a"), utterance(1, originals[1], "the capital of ohio", "a")],
            "b": [
                utterance(0, originals[0], "capital of texas what is what", "b"),
                utterance(0, originals[0], "capital of texas who is who", "b"),
                utterance(2, originals[2], "the capital of nowhere", "b"),
            ],
        },
    )
    parser = LookupParser(
        {
            "capital of texas": TEXAS,  # right
            "capital of ohio": TEXAS,  # wrong
            "the capital of texas": TEXAS,  # right
            "the capital of ohio": OHIO,  # right although the original is wrong
            "capital of texas what is what": OHIO,  # wrong
            "capital of texas who is who": TEXAS,  # right
        }
    )
    report = evaluate_test_set(
        parser, test_set, victim_name="lookup", scoring=Scoring(ExecutionScorer(), Databases.at(database))
    )
    assert (report.original_examples, report.original_correct, report.original_gold_errors) == (3, 1, 1)
    assert report.standard_accuracy == 50.0
    a, b = report.perturbations["a"], report.perturbations["b"]
    assert (a.standard_accuracy, a.perturbation_accuracy, a.robust_accuracy) == (50.0, 100.0, 100.0)
    assert (b.standard_accuracy, b.perturbation_accuracy, b.robust_accuracy) == (100.0, 50.0, 50.0)
    assert (a.gold_errors, b.gold_errors, b.utterances) == (0, 1, 2)
    assert report.micro.perturbation_accuracy == 75.0  # 3 of 4 scored utterances
    assert report.macro["perturbation_accuracy"] == 75.0
    assert report.micro.robust_accuracy == pytest.approx(100 * 2 / 3)  # 1/1 and 1/2
    assert report.macro["robust_accuracy"] == 75.0


def test_without_any_database_outputs_are_exact_matched_and_the_report_says_so():
    originals = [SemparseExample("rivers in texas", "(lambda $0 e (river:t $0))")]
    test_set = RobustnessTestSet(
        "not-registered", originals, {"a": [utterance(0, originals[0], "the rivers in texas", "a")]}
    )
    parser = LookupParser({"rivers in texas": "( lambda $0 e ( river:t $0 ) )", "the rivers in texas": "(river:t)"})
    report = evaluate_test_set(parser, test_set)
    assert report.scoring == "exact match (no database)"
    assert report.database is None
    assert (report.standard_accuracy, report.perturbations["a"].perturbation_accuracy) == (100.0, 0.0)
    assert any("exact match" in note for note in report.notes)
    assert report.victim == "LookupParser"


def test_scoring_of_a_registered_dataset_is_its_benchmarks(geo_mini_env):
    assert evaluation_scoring(LookupParser({}), "geo-question-test") is load_benchmark("geo").scoring
    assert evaluation_scoring(LookupParser({}), "geo-question-test").databases.primary == geo_mini_paths()[1]


def test_scoring_of_an_unregistered_dataset_is_the_victims(tmp_path):
    assert evaluation_scoring(LookupParser({}), "not-registered") == Scoring(ExactMatchScorer())
    victim = LookupParser({})
    victim.database = geo_mini_paths()[1]
    assert evaluation_scoring(victim, "not-registered") == Scoring(ExecutionScorer(), Databases.at(victim.database))


def test_registered_datasets_benchmark_wins_over_the_victims_database(geo_mini_env, tmp_path):
    victim = LookupParser({})
    victim.database = tmp_path
    assert evaluation_scoring(victim, "geo-question-test") is load_benchmark("geo").scoring


def test_evaluation_scoring_overrides(geo_mini_env):
    scoring = evaluation_scoring(LookupParser({}), "geo-question-test", mode="test-suite", timeout=2.0, gold_timeout=9.0)
    assert scoring.scorer == ExecutionScorer(mode="test-suite", timeout=2.0, gold_timeout=9.0)
    assert scoring.describe().startswith("execution match (test-suite) on ")
    with pytest.raises(RecipeError, match="scored by exact match"):
        evaluation_scoring(LookupParser({}), "not-registered", mode="test-suite")


def test_victim_errors_are_left_out_and_counted():
    """An input the victim fails on is neither right nor wrong: it is counted apart."""
    originals = [
        SemparseExample("capital of texas", TEXAS),
        SemparseExample("capital of ohio", OHIO),
        SemparseExample("capital of utah", TEXAS),
    ]
    test_set = RobustnessTestSet(
        "hand-made",
        originals,
        {
            "a": [
                utterance(0, originals[0], "the capital of texas", "a"),  # victim fails on the perturbed
                utterance(1, originals[1], "the capital of ohio", "a"),  # victim fails on the original
                utterance(2, originals[2], "the capital of utah", "a"),  # judged: wrong original, right perturbed
            ],
        },
    )

    class FailingLookup(LookupParser):
        def __call__(self, batch):
            return [
                Prediction.failure(ValueError(f"cannot parse {q!r}")) if q in ("the capital of texas", "capital of ohio")
                else Prediction(self.answers[q])
                for q in batch
            ]

    parser = FailingLookup(
        {"capital of texas": TEXAS, "capital of utah": OHIO, "the capital of utah": TEXAS, "the capital of ohio": OHIO}
    )
    report = evaluate_test_set(
        parser, test_set, victim_name="lookup", scoring=Scoring(ExecutionScorer(), Databases.at(geo_mini_paths()[1]))
    )
    assert (report.original_examples, report.original_correct, report.original_victim_errors) == (3, 1, 1)
    assert report.original_gold_errors == 0
    assert report.standard_accuracy == 50.0  # 1 of the 2 judged originals
    a = report.perturbations["a"]
    assert (a.victim_errors, a.gold_errors, a.utterances, a.utterances_correct) == (2, 0, 1, 1)
    assert (a.perturbation_accuracy, a.robust_accuracy) == (100.0, None)


def test_seq2seq_victim_gives_a_black_box_success_rate_from_its_gold_loss(t5_dir, geo_test_set):
    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=6, database=geo_mini_paths()[1])
    small = RobustnessTestSet(
        geo_test_set.dataset,
        geo_test_set.originals,
        {name: [item for item in items if item.example_id < 4] for name, items in geo_test_set.utterances.items()},
    )
    report = evaluate_test_set(parser, small, victim_name="tiny-t5")
    assert report.loss_available
    assert not any("loss" in note for note in report.notes)
    for name, items in small.utterances.items():
        perturbed = parser.gold_loss([item.perturbed for item in items], [item.gold for item in items])
        original = parser.gold_loss([item.original for item in items], [item.gold for item in items])
        increased = sum(p > o for p, o in zip(perturbed, original))
        metrics = report.perturbations[name]
        assert metrics.loss_increased == increased
        # The random model parses nothing correctly, so every utterance whose loss rose is a success.
        assert metrics.loss_increased_incorrect == increased
        assert metrics.black_box_success_rate == (100.0 if increased else None)
    assert sum(metrics.loss_increased for metrics in report.perturbations.values()) > 0


def test_gold_losses_in_small_batches_equal_the_victims_own(t5_dir):
    parser = Seq2SeqParser(t5_dir, device="cpu")
    questions = ["what is the capital of texas", "rivers in texas", "what is the capital of texas"]
    losses = gold_losses(parser, questions, [TEXAS, TEXAS, OHIO], batch_size=1)
    assert losses == pytest.approx(parser.gold_loss(questions, [TEXAS, TEXAS, OHIO]))
    assert losses[0] != losses[2]
