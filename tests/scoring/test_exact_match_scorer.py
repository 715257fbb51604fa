"""ExactMatchScorer and normalize_logical_form (moved from goal_functions/exact_match.py)."""

from __future__ import annotations

import pytest
from rapidfuzz.distance import Levenshtein

from textattack_semparse.datasets.logical_form import canonical_logical_form
from textattack_semparse.scoring.exact_match_scorer import ExactMatchScorer, normalize_logical_form
from textattack_semparse.scoring.scorer import Score, Scorer

GOLD = "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"


def test_spacing_and_case_do_not_matter():
    assert normalize_logical_form("(lambda $0 e (State:t $0))") == normalize_logical_form("( lambda $0 e ( state:t $0 ) )")


def test_brackets_and_commas_are_split_off():
    assert normalize_logical_form("count([a],{b})") == ["count", "(", "[", "a", "]", ",", "{", "b", "}", ")"]


def test_whitespace_of_every_kind_collapses():
    assert normalize_logical_form("  (a\t\n b)  ") == ["(", "a", "b", ")"]


def test_empty_text_has_no_tokens():
    assert normalize_logical_form("") == [] and normalize_logical_form("   ") == []


def test_other_punctuation_is_kept_inside_tokens():
    assert normalize_logical_form("(state:t $0)") == ["(", "state:t", "$0", ")"]


def test_is_a_scorer_that_needs_no_database():
    scorer = ExactMatchScorer()
    assert isinstance(scorer, Scorer) and not scorer.needs_databases and scorer.name == "exact"


def test_same_tokens_match_with_zero_distance():
    assert ExactMatchScorer().score("(lambda $0 e (and (state:t $0) (next_to:t $0 s0)))", GOLD) == Score(True, 0.0)


def test_different_predicate_is_a_mismatch():
    score = ExactMatchScorer().score("( lambda $0 e ( state:t $0 ) )", GOLD)
    assert not score.match and 0.0 < score.distance <= 1.0


def test_distance_is_the_normalised_token_edit_distance():
    prediction = "(a c)"
    expected = Levenshtein.normalized_distance(["(", "a", "c", ")"], ["(", "a", "b", ")"])
    assert ExactMatchScorer().distance(prediction, "(a b)") == pytest.approx(expected) == pytest.approx(0.25)


def test_distance_of_an_empty_prediction_is_one():
    assert ExactMatchScorer().distance("", GOLD) == 1.0


def test_databases_are_ignored():
    assert ExactMatchScorer().score("(a (b))", "( a ( b ) )", ["no/such.sqlite"]).match


def test_sql_without_a_database_is_compared_as_tokens():
    scorer = ExactMatchScorer()
    assert scorer.score("SELECT a FROM t", "select  a from T").match
    assert not scorer.score("SELECT a FROM t WHERE b = 1", "SELECT a FROM t WHERE b = 2").match


def test_check_gold_never_raises():
    ExactMatchScorer().check_gold("")
    ExactMatchScorer().check_gold("unbalanced ( bracket")


def test_scorers_compare_equal():
    assert ExactMatchScorer() == ExactMatchScorer()


# logical_form=True: Dong & Lapata's released evaluation (coarse2fine's ``is_tree_eq``) sorts the
# arguments of ``and``/``or`` and renames variables before comparing; equivalence is checked here
# on each dataset's own syntax.
EQUIVALENT = [
    pytest.param(  # GeoQuery: conjunct order
        "(lambda $0:e (and:<t*,t> (major:<lo,t> $0) (city:<c,t> $0) (loc:<lo,<lo,t>> $0 texas:s)))",
        "(lambda $0:e (and:<t*,t> (city:<c,t> $0) (major:<lo,t> $0) (loc:<lo,<lo,t>> $0 texas:s)))",
        id="geo-conjuncts",
    ),
    pytest.param(  # GeoQuery: the outer variable named $1, an inner lambda's $0; the other reuses $0 (shadowing)
        "(lambda $1:e (and:<t*,t> (state:<s,t> $1) (loc:<lo,<lo,t>> (argmax:<<e,t>,<<e,i>,e>> "
        "(lambda $0:e (place:<p,t> $0)) (lambda $0:e (elevation:<lo,i> $0))) $1)))",
        "(lambda $0:e (and:<t*,t> (state:<s,t> $0) (loc:<lo,<lo,t>> (argmax:<<e,t>,<<e,i>,e>> "
        "(lambda $0:e (place:<p,t> $0)) (lambda $0:e (elevation:<lo,i> $0))) $0)))",
        id="geo-shadowed-variable",
    ),
    pytest.param(  # ATIS: the type after the variable, exists binding directly
        "( lambda $0 e ( exists $1 ( and ( from $1 ci0 ) ( flight $1 ) ( = ( fare $1 ) $0 ) ) ) )",
        "( lambda $1 e ( exists $0 ( and ( flight $0 ) ( from $0 ci0 ) ( = ( fare $0 ) $1 ) ) ) )",
        id="atis",
    ),
    pytest.param(  # JOBS: and_, or_
        "(lambda $0:e (and_ (job $0) (or_ (loc $0 dallas) (loc $0 austin)) (des_deg $0)))",
        "(lambda $0:e (and_ (des_deg $0) (job $0) (or_ (loc $0 austin) (loc $0 dallas))))",
        id="jobs",
    ),
]
DIFFERENT = [
    pytest.param("(lambda $0:e (loc:<lo,<lo,t>> $0 $1))", "(lambda $1:e (loc:<lo,<lo,t>> $0 $1))", id="free-variable"),
    pytest.param(  # argument order of an ordinary predicate matters
        "(lambda $0:e (exists:<<e,t>,t> (lambda $1:e (next_to:<lo,<lo,t>> $0 $1))))",
        "(lambda $0:e (exists:<<e,t>,t> (lambda $1:e (next_to:<lo,<lo,t>> $1 $0))))",
        id="predicate-arguments",
    ),
    pytest.param(  # which binder a variable refers to matters
        "(lambda $0:e (argmax:<<e,t>,<<e,i>,e>> (lambda $1:e (city:<c,t> $1)) (lambda $1:e (size:<lo,i> $0))))",
        "(lambda $0:e (argmax:<<e,t>,<<e,i>,e>> (lambda $1:e (city:<c,t> $1)) (lambda $1:e (size:<lo,i> $1))))",
        id="binder",
    ),
    pytest.param("( argmax $0 ( flight $0 ) ( fare $0 ) )", "( argmin $0 ( flight $0 ) ( fare $0 ) )", id="head"),
]


@pytest.mark.parametrize(("prediction", "gold"), EQUIVALENT)
def test_logical_forms_equal_up_to_conjunct_order_and_variable_names_match(prediction, gold):
    assert ExactMatchScorer(logical_form=True).score(prediction, gold) == Score(True, 0.0)
    assert not ExactMatchScorer().score(prediction, gold).match  # token for token they differ


@pytest.mark.parametrize(("prediction", "gold"), DIFFERENT)
def test_logical_forms_that_mean_something_else_do_not_match(prediction, gold):
    score = ExactMatchScorer(logical_form=True).score(prediction, gold)
    assert not score.match and 0.0 < score.distance <= 1.0


def test_logical_form_distance_is_the_token_edit_distance_of_the_canonical_forms():
    prediction = "(lambda $1:e (and:<t*,t> (river:<r,t> $1) (loc:<lo,<lo,t>> $1 ohio:s)))"
    gold = "(lambda $0:e (and:<t*,t> (loc:<lo,<lo,t>> $0 texas:s) (river:<r,t> $0)))"
    # canonical: "$1" -> "$0", conjuncts sorted (loc before river); one of the 16 tokens differs
    assert len(canonical_logical_form(gold)) == 16
    expected = 1 / 16
    assert ExactMatchScorer(logical_form=True).distance(prediction, gold) == pytest.approx(expected)


def test_unbalanced_text_falls_back_to_token_comparison():
    scorer = ExactMatchScorer(logical_form=True)
    assert scorer.score("(state:<s,t> $0", "( state:<s,t> $0").match
    assert scorer.distance("(state:<s,t> $0", GOLD) == ExactMatchScorer().distance("(state:<s,t> $0", GOLD)


def test_logical_form_benchmarks_are_scored_up_to_equivalence(tmp_path):
    from textattack_semparse.datasets.benchmark import load_benchmark

    folder = tmp_path / "lambda" / "geo"
    folder.mkdir(parents=True)
    for split in ("train", "test"):
        (folder / f"geo_lambda_calculus_{split}.tsv").write_text(
            "how big is texas\t(size:<lo,i> texas:s)\n", encoding="utf-8"
        )
    benchmark = load_benchmark("geo-lambda", data_dir=tmp_path)
    assert benchmark.scoring.scorer == ExactMatchScorer(logical_form=True)
