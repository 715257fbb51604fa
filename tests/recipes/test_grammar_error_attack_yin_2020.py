"""The grammatical-error attack recipes (Yin et al. 2020) on geo-mini and on a tiny classifier."""

from __future__ import annotations

from collections import Counter

import pytest
import textattack
from textattack import AttackArgs, Attacker
from textattack.attack_results import SkippedAttackResult, SuccessfulAttackResult
from textattack.goal_functions import UntargetedClassification

from tests.helpers import run_command
from textattack_semparse.attack_attrs import gold_output
from textattack_semparse.constraints.max_grammar_error_rate import MaxGrammarErrorRate
from textattack_semparse.datasets.benchmark import benchmark_dataset
from textattack_semparse.errors import RecipeError
from textattack_semparse.goal_functions.semantic_parsing_goal_function import SemanticParsingGoalFunction
from textattack_semparse.recipes.attack.grammar_error_attack_yin_2020 import SEARCHES, GrammarErrorAttackYin2020
from textattack_semparse.registry import attack_recipe_class, get_registry
from textattack_semparse.sql.literals import literal_words, sql_literals
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser

EXPECTED_INGREDIENTS = {
    "greedy": ["GrammarErrorGreedySearch", "(wir_method):  delete", "(mode):  worst-case"],
    "beam": ["GrammarErrorBeamSearch", "(beam_width):  5", "(keep_unchanged):  False", "(wir_method):  delete"],
    "beam-skip": ["GrammarErrorBeamSearch", "(beam_width):  5", "(keep_unchanged):  True", "(mode):  worst-case"],
    "genetic": [
        "GrammarErrorGeneticAlgorithm",
        "(pop_size):  60",
        "(iterations_ratio):  0.23",
        "(length_preserving):  False",  # Yin et al.'s genetic attack has every error type
    ],
    "probabilistic": ["GrammarErrorSamplingSearch", "(mode):  probabilistic", "(num_samples):  1"],
}


@pytest.fixture(scope="module")
def victim() -> KNNTemplateParser:
    return KNNTemplateParser.from_benchmark("geo-mini")


@pytest.fixture(scope="module")
def dataset():
    return benchmark_dataset("geo-mini", "question", "test")


def _attack(attack, dataset, num_examples):
    args = AttackArgs(num_examples=num_examples, disable_stdout=True, silent=True, random_seed=0)
    return Attacker(attack, dataset, args).attack_dataset()


def _assert_literals_kept(results) -> None:
    for result in results:
        if not isinstance(result, SuccessfulAttackResult):
            continue
        original = result.original_result.attacked_text
        perturbed = " ".join(word.lower() for word in result.perturbed_result.attacked_text.words)
        for literal in sql_literals(gold_output(original)):
            words = " ".join(literal_words(literal))
            if words and words in " ".join(word.lower() for word in original.words):
                assert f" {words} " in f" {perturbed} ", (literal, result.perturbed_result.attacked_text.text)


@pytest.mark.parametrize("search", SEARCHES)
def test_each_search_builds_and_repr_lists_its_ingredients(victim, search):
    text = repr(GrammarErrorAttackYin2020.build(victim, search=search))
    for ingredient in [
        "SemanticParsingGoalFunction",
        "ExecutionScorer(mode='classical'",
        "GrammarErrorCombined",
        "RepeatModification",
        "AttackedSentence",
        "PreserveLiterals",
        "MaxGrammarErrorRate",
        "(max_rate):  0.15",
        *EXPECTED_INGREDIENTS[search],
    ]:
        assert ingredient in text, f"{ingredient!r} missing from the {search} recipe:\n{text}"
    assert "StopwordModification" not in text


def test_unknown_search_names_the_accepted_ones(victim):
    with pytest.raises(RecipeError, match="accepted: greedy, beam, beam-skip, genetic, probabilistic. Did you mean 'beam'"):
        GrammarErrorAttackYin2020.build(victim, search="beem")


def test_registered_names_bind_the_search(victim):
    registry = get_registry()
    for search in SEARCHES:
        entry = registry.get("attack-recipe", f"nucle-{search}")
        assert entry.load() is GrammarErrorAttackYin2020 and dict(entry.options) == {"search": search}
    attack = attack_recipe_class("nucle-beam").build(victim, beam_width=2)
    assert attack.search_method.beam_width == 2


def test_budget_and_error_model_reach_the_ingredients(victim, tmp_path):
    from textattack_semparse.transformations.grammar.error_model import ErrorModel

    path = tmp_path / "weights.json"
    ErrorModel.default().to_json(path)
    attack = GrammarErrorAttackYin2020.build(
        victim, search="probabilistic", max_modification_rate=0.3, error_model=str(path), num_samples=4, seed=3
    )
    rate = next(c for c in attack.constraints if isinstance(c, MaxGrammarErrorRate))
    assert rate.max_rate == 0.3
    assert attack.transformation.rate == 0.3 and attack.transformation.num_samples == 4
    assert attack.transformation.error_model == str(path) and attack.transformation.seed == 3


def test_stock_cli_runs_nucle_greedy_offline_on_geo_mini():
    result = run_command(
        "textattack", "attack", "--recipe", "nucle-greedy", "--model", "knn-geo", "--num-examples", "5",
        env={"SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "GrammarErrorGreedySearch" in result.stdout + result.stderr
    counts = {
        label: int(result.stdout.split(label)[1].split("|")[1])
        for label in ("Number of successful attacks:", "Number of failed attacks:", "Number of skipped attacks:")
    }
    assert sum(counts.values()) == 5
    assert counts["Number of successful attacks:"] >= 1  # "what is the capital of rhode island" -> "capitals"


def test_greedy_succeeds_on_geo_mini_and_keeps_literals(victim, dataset):
    results = _attack(GrammarErrorAttackYin2020.build(victim), dataset, 10)
    successes = [r for r in results if isinstance(r, SuccessfulAttackResult)]
    assert successes
    for result in successes:
        errors = result.perturbed_result.attacked_text.attack_attrs[GRAMMAR_ERRORS_ATTR]
        words = result.original_result.attacked_text.num_words
        assert 1 <= len(errors) <= MaxGrammarErrorRate().budget(words)
    _assert_literals_kept(results)


def test_the_beam_variant_finds_at_least_the_greedy_successes_on_geo_mini(victim, dataset):
    greedy = _attack(GrammarErrorAttackYin2020.build(victim, search="greedy"), dataset, 8)
    beam = _attack(GrammarErrorAttackYin2020.build(victim, search="beam-skip"), dataset, 8)
    greedy_successes = {r.original_result.attacked_text.text for r in greedy if isinstance(r, SuccessfulAttackResult)}
    beam_successes = {r.original_result.attacked_text.text for r in beam if isinstance(r, SuccessfulAttackResult)}
    assert greedy_successes and greedy_successes <= beam_successes
    _assert_literals_kept(beam)


def test_genetic_search_runs_with_a_small_population(victim, dataset):
    attack = GrammarErrorAttackYin2020.build(victim, search="genetic", population_size=4)
    results = _attack(attack, dataset, 4)
    assert len(results) == 4
    for result in results:
        if isinstance(result, SuccessfulAttackResult):
            perturbed = result.perturbed_result.attacked_text
            assert perturbed.attack_attrs[GRAMMAR_ERRORS_ATTR]
    _assert_literals_kept(results)


def test_probabilistic_queries_once_per_sample(victim, dataset):
    attack = GrammarErrorAttackYin2020.build(victim, search="probabilistic", num_samples=3)
    results = _attack(attack, dataset, 6)
    attacked = [r for r in results if not isinstance(r, SkippedAttackResult)]
    assert attacked
    for result in attacked:
        # One query for the original question, then at most one per sample.
        assert 1 <= result.perturbed_result.num_queries <= 1 + 3
    _assert_literals_kept(results)


def test_probabilistic_attack_is_reproducible_with_its_seed(victim, dataset):
    def texts(seed):
        results = _attack(GrammarErrorAttackYin2020.build(victim, search="probabilistic", seed=seed), dataset, 6)
        return [r.perturbed_result.attacked_text.text for r in results]

    assert texts(1) == texts(1)


def test_classifier_victim_gets_untargeted_classification(tiny_classifier):
    sentences = ["the film was good and the actors are great", "the story is bad", "a movie about the actors"]
    predictions = tiny_classifier(sentences).argmax(axis=1).tolist()
    dataset = textattack.datasets.Dataset(list(zip(sentences, predictions)))  # labels the model gets right
    attack = GrammarErrorAttackYin2020.build(tiny_classifier, search="greedy", max_modification_rate=0.3)
    assert isinstance(attack.goal_function, UntargetedClassification)
    assert not isinstance(attack.goal_function, SemanticParsingGoalFunction)
    results = _attack(attack, dataset, len(sentences))
    kinds = Counter(type(result).__name__ for result in results)
    assert kinds["SkippedAttackResult"] == 0 and sum(kinds.values()) == 3
    assert kinds["SuccessfulAttackResult"] >= 1
    for result in results:
        perturbed = result.perturbed_result
        if isinstance(result, SuccessfulAttackResult):
            assert perturbed.output != result.original_result.output
            label = tiny_classifier([perturbed.attacked_text.text]).argmax(axis=1).tolist()[0]
            assert label == perturbed.output
            assert perturbed.attacked_text.attack_attrs[GRAMMAR_ERRORS_ATTR]

