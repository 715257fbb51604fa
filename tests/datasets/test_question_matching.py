"""Finding a benchmark example from a released copy of its question (tokenised, anonymised, stemmed)."""

from __future__ import annotations

import pytest

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.datasets.question_matching import QuestionMatch, QuestionMatcher

TEXAS = SemparseExample("what rivers are in texas", "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 texas:s)))")
OHIO = SemparseExample("what rivers are in ohio", "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 ohio:s)))")
CAPITAL = SemparseExample("what is the capital of the florida state", "(capital:<s,c> florida:s)")
ATIS = SemparseExample("list flight from ci0 to ci1", "( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )")


def test_same_words_whatever_case_spacing_and_punctuation():
    match = QuestionMatcher([TEXAS, OHIO]).match("  What rivers are in  Ohio ?")
    assert (match.example, match.position, match.step, dict(match.placeholders)) == (OHIO, 1, "words", {})


def test_placeholder_stands_for_the_benchmark_constant_and_fills_the_rewrite():
    match = QuestionMatcher([OHIO]).match("what rivers are in s0 ?")
    assert (match.example, match.step, dict(match.placeholders)) == (OHIO, "entities", {"s0": "ohio"})
    assert match.fill("which rivers are located in s0 ?") == "which rivers are located in ohio ?"


def test_stemmed_and_anonymised_question_is_found():
    match = QuestionMatcher([TEXAS, CAPITAL]).match("what river are in s0")
    assert (match.example, match.step) == (TEXAS, "stems")


def test_placeholder_covering_several_words_is_found_by_entity_span():
    # Dong & Lapata anonymise "florida state" as one entity: no constant spans both words.
    match = QuestionMatcher([TEXAS, CAPITAL]).match("what is the capit of the s0")
    assert (match.example, match.step, dict(match.placeholders)) == (CAPITAL, "entity spans", {"s0": "florida state"})


def test_repeated_anonymised_question_takes_each_fitting_example_in_turn():
    matcher = QuestionMatcher([TEXAS, OHIO])
    found = [matcher.match("what rivers are in s0").example for _ in range(3)]
    assert found == [TEXAS, OHIO, TEXAS]
    assert matcher.restarted().match("what rivers are in s0").example == TEXAS


def test_benchmark_spelled_with_placeholders_keeps_them():
    match = QuestionMatcher([ATIS]).match("list flight from ci0 to ci1")
    assert (match.step, dict(match.placeholders)) == ("words", {"ci0": "ci0", "ci1": "ci1"})
    assert match.fill("show flight from ci0 to ci1") == "show flight from ci0 to ci1"


def test_unknown_question_is_not_matched():
    matcher = QuestionMatcher([TEXAS, OHIO])
    assert matcher.match("what is the airspeed of an unladen swallow") is None
    assert matcher.match("what mountains are in s0") is None
    assert matcher.match("?") is None


def test_rewrite_with_a_placeholder_its_original_lacks_cannot_be_filled():
    match = QuestionMatch(OHIO, 0, {"s0": "ohio"})
    assert match.fill("rivers in s0 or s1") is None
    assert QuestionMatch(OHIO, 0).fill("rivers in ohio") == "rivers in ohio"


@pytest.mark.real_data
@pytest.mark.parametrize(
    ("benchmark", "release", "at_least"),
    [
        # Dong & Lapata's stemmed, anonymised GeoQuery test questions against geo-lambda's natural ones.
        (("geo/geo_lambda_calculus_test.tsv", "geo/geo_lambda_calculus_train.tsv"), "geo/geo_anonymous_lambda_test.txt", 274),
        # ... and their JOBS test questions against jobs-lambda's.
        (("jobs/job_lambda_test.tsv", "jobs/job_lambda_train.tsv"), "jobs/jobs_anonymous_prolog_test.txt", 140),
        # Natural questions are found by their words; ATIS's are anonymised in the benchmark itself.
        (("geo/geo_lambda_calculus_test.tsv",), "geo/geo_lambda_calculus_test.tsv", 280),
        (("atis/test.txt", "atis/dev.txt", "atis/train.txt"), "atis/test.txt", 448),
    ],
)
def test_match_rate_on_real_questions(real_data_dir, benchmark, release, at_least):
    lambda_dir = real_data_dir / "lambda"
    matcher = QuestionMatcher([example for file in benchmark for example in load_logical_forms(lambda_dir / file)])
    released = load_logical_forms(lambda_dir / release)
    matches = [matcher.match(example.question) for example in released]
    found = [(example, match) for example, match in zip(released, matches) if match is not None]
    assert len(found) >= at_least, f"{len(found)} of {len(released)} found"
    for example, match in found:
        filled = match.fill(example.question)
        assert filled is not None
        # every placeholder became its entity (ATIS's benchmark keeps its own placeholders)
        assert all(match.placeholders.get(word, word) == word for word in filled.split())
