"""A victim that raises on some inputs, attacked end to end through TextAttack's Attacker.

Inputs a victim fails on are victim errors: left out of every accuracy, counted in the attack
summary ("Victim errors (left out):") and in ``textattack-semparse metrics``, and never a
successful attack. A victim failing on too many inputs stops the run, and the examples
attacked before the stop are still logged.
"""

from __future__ import annotations

import csv
import json
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import pytest
import textattack
from textattack.attack_results import SkippedAttackResult, SuccessfulAttackResult
from textattack.shared import AttackedText

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import VictimError
from textattack_semparse.metrics.attack_metrics import SUMMARY_ROWS, read_attack_log
from textattack_semparse.registry import attack_recipe_class
from textattack_semparse.scoring.outcome import Outcome, left_out_outcome
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser
from textattack_semparse.victims.prediction import Prediction
from textattack_semparse.victims.semantic_parser import MIN_INPUTS_BEFORE_STOP, SemanticParser

VICTIM_ERRORS_ROW = SUMMARY_ROWS[Outcome.VICTIM_ERROR]


class FlakyParser(SemanticParser):
    """Wraps a real parser and raises on every ``every``-th input it is asked to parse."""

    def __init__(self, inner: KNNTemplateParser, *, every: int, max_failure_rate: float) -> None:
        super().__init__(benchmark=inner.benchmark, max_failure_rate=max_failure_rate)
        self.inner = inner
        self.every = every
        self.calls = 0

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        for question in questions:
            self.calls += 1
            if self.calls % self.every == 0:
                raise ValueError(f"flaky parser gave up on {question!r}")
        return self.inner(list(questions))


@pytest.fixture(scope="module", autouse=True)
def geo_mini_env() -> Iterator[None]:
    """``semparse-geo`` is bound to benchmark ``geo``: make it the embedded geo-mini."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", "")
        yield


@pytest.fixture(scope="module")
def inner() -> KNNTemplateParser:
    """The real template-retrieval parser on geo-mini, with unigram features: the default
    (1, 2)-grams resist the recipe on all but one test question, too few successes to check."""
    geo = load_benchmark("geo-mini")
    return KNNTemplateParser(geo.split("question", "train"), ngram_range=(1, 1), benchmark=geo)


def attack(victim: SemanticParser, directory: Path) -> tuple[textattack.Attacker, Path, Path]:
    summary, log = directory / "summary.json", directory / "log.csv"
    recipe = attack_recipe_class("semparse-geo").build(victim)
    attack_args = textattack.AttackArgs(
        num_examples=-1,
        silent=True,
        log_summary_to_json=str(summary),
        log_to_csv=str(log),
        disable_stdout=True,
    )
    attacker = textattack.Attacker(recipe, load_benchmark("geo-mini").dataset("question", "test"), attack_args)
    return attacker, summary, log


@pytest.fixture(scope="module")
def flaky_run(inner, tmp_path_factory):
    """One attack of geo-mini's test questions by a parser failing on every third input."""
    victim = FlakyParser(inner, every=3, max_failure_rate=0.5)
    attacker, summary, log = attack(victim, tmp_path_factory.mktemp("flaky"))
    results = attacker.attack_dataset()
    return victim, attacker, results, json.loads(summary.read_text())["Attack Results"], log


def test_the_flaky_parser_really_failed_but_was_not_stopped(flaky_run):
    victim, _, results, summary, _ = flaky_run
    assert victim.inputs_failed > 0
    assert victim.inputs_failed <= 0.5 * victim.inputs_parsed
    assert len(results) == len(load_benchmark("geo-mini").split("question", "test"))
    # It failed on perturbed questions too, not only on the originals that were skipped.
    assert victim.inputs_failed > int(summary[VICTIM_ERRORS_ROW])


def test_summary_counts_victim_errors_apart(flaky_run):
    _, _, results, summary, _ = flaky_run
    victim_errors = int(summary[VICTIM_ERRORS_ROW])
    assert victim_errors > 0
    skipped_as_victim_errors = [
        result
        for result in results
        if isinstance(result, SkippedAttackResult)
        and left_out_outcome(result.original_result.output) is Outcome.VICTIM_ERROR
    ]
    assert victim_errors == len(skipped_as_victim_errors)
    for result in skipped_as_victim_errors:
        assert result.original_result.output.startswith("[victim error] ValueError: flaky parser gave up on ")
        assert result.original_result.raw_output.error is not None


def test_no_successful_attack_is_a_victim_error(flaky_run, inner):
    _, attacker, results, _, _ = flaky_run
    scoring = attacker.attack.goal_function.scoring
    successes = [result for result in results if isinstance(result, SuccessfulAttackResult)]
    assert successes, "the attack found no success to check"
    for result in successes:
        perturbed = result.perturbed_result
        gold = result.original_result.ground_truth_output
        assert not str(perturbed.output).startswith(Outcome.VICTIM_ERROR.marker)
        assert left_out_outcome(perturbed.output) is None
        assert isinstance(perturbed.raw_output, Prediction) and perturbed.raw_output.error is None
        assert scoring.judge(perturbed.raw_output, gold).outcome is Outcome.WRONG
        # The real parser, asked again, gives the same wrong answer: the success is genuine.
        again = inner([perturbed.attacked_text.tokenizer_input])[0]
        assert again == str(perturbed.raw_output)
        assert scoring.judge(again, gold).outcome is Outcome.WRONG


def test_a_failed_perturbation_never_completes_the_goal(flaky_run):
    _, attacker, _, _, _ = flaky_run
    goal = attacker.attack.goal_function
    text = AttackedText(OrderedDict(question="what is the capital of texas"))
    goal.init_attack_example(text, 'SELECT capital FROM state WHERE state_name = "texas"')
    failure = Prediction.failure(ValueError("boom"))
    assert not goal._is_goal_complete(failure, text)
    assert goal._get_score(failure, text) == 0.0
    assert goal._get_displayed_output(failure) == "[victim error] ValueError: boom"


def test_metrics_of_the_csv_log_agree_with_the_summary(flaky_run):
    _, _, results, summary, log = flaky_run
    metrics = read_attack_log(log)
    assert metrics.victim_errors == int(summary[VICTIM_ERRORS_ROW]) > 0
    assert metrics.gold_errors == int(summary[SUMMARY_ROWS[Outcome.GOLD_ERROR]]) == 0
    assert (metrics.succeeded, metrics.failed, metrics.skipped) == (
        int(summary["Number of successful attacks:"]),
        int(summary["Number of failed attacks:"]),
        int(summary["Number of skipped attacks:"]),
    )
    assert metrics.examples == len(results)
    assert summary["Standard accuracy (errors left out):"] == round(metrics.standard_accuracy, 2)


def test_victim_errors_are_in_no_denominator(flaky_run):
    _, _, results, summary, log = flaky_run
    metrics = read_attack_log(log)
    judged = metrics.examples - metrics.victim_errors - metrics.gold_errors
    assert metrics.standard_accuracy == pytest.approx(100 * (metrics.succeeded + metrics.failed) / judged)
    with log.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert sum(left_out_outcome(row["original_output"]) is Outcome.VICTIM_ERROR for row in rows) == metrics.victim_errors


def test_a_victim_failing_on_every_input_stops_the_run_and_keeps_the_log(inner, tmp_path):
    victim = FlakyParser(inner, every=1, max_failure_rate=0.1)
    attacker, summary, log = attack(victim, tmp_path)
    with pytest.raises(VictimError, match=r"FlakyParser failed on \d+ of \d+ inputs .*more than max_failure_rate=0\.1"):
        attacker.attack_dataset()
    assert victim.inputs_parsed == MIN_INPUTS_BEFORE_STOP
    # Every example before the stop was skipped as a victim error, and is in the flushed logs.
    metrics = read_attack_log(log)
    assert metrics.examples == MIN_INPUTS_BEFORE_STOP - 1
    assert metrics.victim_errors == metrics.skipped == metrics.examples
    assert metrics.standard_accuracy is None  # nothing was judged
    written = json.loads(summary.read_text())["Attack Results"]
    assert int(written[VICTIM_ERRORS_ROW]) == metrics.victim_errors
    assert written["Standard accuracy (errors left out):"] is None
