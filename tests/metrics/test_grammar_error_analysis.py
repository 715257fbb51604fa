"""Tables 3 and 4 and Figure 1 of Yin et al. (2020) from constructed attack records."""

from __future__ import annotations

import json

import pytest

from textattack_semparse.metrics.grammar_error_analysis import (
    GrammarAttackRecord,
    error_type_counts,
    grammar_attack_summary,
    plot_success_vs_budget,
    record_from_result,
    success_vs_budget,
)

R = GrammarAttackRecord
RECORDS = [
    R("Successful", "what is the capital of texas", "what is the capitals of texas", ("Nn",), 2),
    R("Successful", "what states border texas", "what state borders texas", ("Nn", "SVA"), 1),
    R("Successful", "which river is the longest river", "which river is a longest rivers", ("ArtOrDet", "Nn"), 2),
    R("Failed", "what is the population of utah", "what is the population of utah", (), 1),
    R("Failed", "how many rivers are in iowa", "how many river are in iowa", ("Nn",), 3),
    R("Skipped", "name the longest river", "name the longest river", (), 1),
]


def test_left_out_examples_are_counted_apart_and_in_no_rate():
    records = [*RECORDS, R("Skipped", "rivers in ohio", "rivers in ohio", original_output="[gold error] no such table")]
    summary = grammar_attack_summary(records)
    assert (summary["skipped"], summary["gold_errors"], summary["victim_errors"]) == (2, 1, 0)
    assert summary["standard_accuracy"] == 100 * 5 / 6  # the gold error is in no denominator


def test_table_4_counts_errors_and_attacks_per_type_in_successes_only():
    counts = error_type_counts(RECORDS)
    assert list(counts)[:8] == ["ArtOrDet", "Prep", "Trans", "Nn", "SVA", "Vform", "Wchoice", "Worder"]
    # successes: (Nn), (Nn, SVA), (ArtOrDet, Nn) -> 5 errors; the failed attack's Nn is not counted
    assert counts["Nn"] == {"errors": 3, "errors_percent": 60.0, "successes": 3}
    assert counts["SVA"] == {"errors": 1, "errors_percent": 20.0, "successes": 1}
    assert counts["ArtOrDet"]["errors"] == 1 and counts["Prep"] == {"errors": 0, "errors_percent": 0.0, "successes": 0}


def test_an_error_used_twice_counts_twice_but_one_attack():
    counts = error_type_counts([R("Successful", "a b c", "x y z", ("Prep", "Prep"))])
    assert counts["Prep"] == {"errors": 2, "errors_percent": 100.0, "successes": 1}


def test_unknown_types_are_listed_after_the_eight():
    assert list(error_type_counts([R("Successful", "a", "b", ("Spelling",))]))[-1] == "Spelling"


def test_no_success_gives_undefined_shares():
    counts = error_type_counts([R("Failed", "a", "b", ("Nn",))])
    assert counts["Nn"] == {"errors": 0, "errors_percent": None, "successes": 0}


def test_figure_1_curve_over_attacked_questions():
    curve = success_vs_budget(RECORDS)
    # attacked = 3 successes + 2 failures; successes used 1, 2 and 2 errors; largest budget 3
    assert [(p["max_errors"], p["succeeded"]) for p in curve] == [(1, 1), (2, 3), (3, 3)]
    assert [p["attack_success_rate"] for p in curve] == [20.0, 60.0, 60.0]
    assert [p["max_errors"] for p in success_vs_budget(RECORDS, max_errors=5)] == [1, 2, 3, 4, 5]


def test_figure_1_without_budgets_runs_to_the_most_errors_used():
    records = [R(r.result_type, r.original_text, r.perturbed_text, r.error_types) for r in RECORDS]
    assert [p["max_errors"] for p in success_vs_budget(records)] == [1, 2]
    assert success_vs_budget([R("Skipped", "a", "a")]) == []


def test_table_3_summary():
    summary = grammar_attack_summary(RECORDS)
    assert (summary["examples"], summary["succeeded"], summary["failed"], summary["skipped"]) == (6, 3, 2, 1)
    assert summary["attack_success_rate"] == 60.0
    assert summary["standard_accuracy"] == pytest.approx(500 / 6)
    assert summary["robust_accuracy"] == 40.0
    # modified words: 1/6, 2/4 (state, borders), 2/6 (a, rivers) of the original words
    assert summary["modified_words_percent"] == pytest.approx(100 * (1 / 6 + 2 / 4 + 2 / 6) / 3)
    assert summary["errors_per_success"] == pytest.approx(5 / 3)
    json.dumps(summary)


def test_summary_of_nothing_attacked():
    summary = grammar_attack_summary([R("Skipped", "a", "a")])
    assert summary["attack_success_rate"] is None and summary["modified_words_percent"] is None
    assert summary["success_vs_budget"] == []


def test_plot_writes_a_png(tmp_path):
    path = plot_success_vs_budget(
        {"nucle-greedy": success_vs_budget(RECORDS), "nucle-beam": success_vs_budget(RECORDS, max_errors=4)},
        tmp_path / "curve.png",
        title="geo-mini",
    )
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000


def test_record_from_a_textattack_result():
    from textattack.attack_results import FailedAttackResult, SuccessfulAttackResult
    from textattack.goal_function_results import ClassificationGoalFunctionResult, GoalFunctionResultStatus
    from textattack.shared import AttackedText

    from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined

    original = AttackedText("the film was good")
    perturbed = GrammarErrorCombined(error_types=("ArtOrDet",))(original)[0]

    def result(text, status):
        return ClassificationGoalFunctionResult(text, [0.2, 0.8], 1, status, 0.8, 3, 0)

    success = SuccessfulAttackResult(result(original, GoalFunctionResultStatus.SEARCHING),
                                     result(perturbed, GoalFunctionResultStatus.SUCCEEDED))
    record = record_from_result(success, error_budget=1)
    assert record == R(
        "Successful", "the film was good", perturbed.text, ("ArtOrDet",), 1, original_output="1", num_queries=3
    )
    failure = FailedAttackResult(result(original, GoalFunctionResultStatus.SEARCHING))
    assert record_from_result(failure).result_type == "Failed"
    assert record_from_result(failure).error_types == ()
