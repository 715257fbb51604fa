"""Per-perturbation recipes: one application, literals intact, runnable through the stock CLI."""

from __future__ import annotations

import json

import pytest
from textattack import Attacker, AttackArgs
from textattack.attack_results import SkippedAttackResult, SuccessfulAttackResult

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.recipes.attack.perturbation_attack_huang_2021 import PerturbationAttackHuang2021
from textattack_semparse.registry import attack_recipe_class, get_registry
from textattack_semparse.sql.literals import literal_word_indices, sql_literals
from textattack_semparse.tables import ROBUT_LLM_TABLE_PERTURBATIONS, ROBUT_TABLE_PERTURBATIONS
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser

from tests.helpers import run_command

OFFLINE = ("insertion", "deletion", "substitution-f", "substitution-wordnet", "reordering", "typo",
           "random-deletion", "random-swap", "distraction", "nlpaug:KeyboardAug", "nlpaug:SynonymAug")


@pytest.fixture(scope="module")
def geo_mini_victim():
    geo = load_benchmark("geo-mini")
    return KNNTemplateParser(geo.split("question", "train"), database=geo.database)


def test_every_perturbation_has_a_recipe():
    registry = get_registry()
    for name in registry.names("perturbation"):
        table_qa = name in ROBUT_TABLE_PERTURBATIONS + ROBUT_LLM_TABLE_PERTURBATIONS
        family = "robut" if table_qa else "semparse"  # Table QA: RobuT's recipes
        # RobuT's question perturbations and mix are recipes under their own names.
        recipe = name if name.startswith("robut-") else f"{family}-{name}"
        assert recipe in registry.names("attack-recipe")


@pytest.mark.parametrize("name", OFFLINE)
def test_offline_recipe_keeps_literals(name, geo_mini_victim):
    attack = attack_recipe_class(f"semparse-{name}").build(geo_mini_victim)
    dataset = load_benchmark("geo-mini").dataset("question", "test")
    results = Attacker(attack, dataset, AttackArgs(num_examples=8, silent=True, disable_stdout=True)).attack_dataset()
    assert len(results) == 8
    for result in results:
        if isinstance(result, SkippedAttackResult):
            continue
        original = result.original_result.attacked_text
        perturbed = result.perturbed_result.attacked_text
        literals = sql_literals(result.original_result.ground_truth_output)
        kept = [original.words[i].lower() for i in sorted(literal_word_indices(original.words, literals))]
        assert kept == [perturbed.words[i].lower() for i in sorted(literal_word_indices(perturbed.words, literals))]
        if isinstance(result, SuccessfulAttackResult):
            assert perturbed.text != original.text


def test_keep_wraps_the_perturbation_in_top_k(geo_mini_victim):
    text = repr(PerturbationAttackHuang2021.build(geo_mini_victim, perturbation_name="random-deletion", keep=10))
    for ingredient in ("TopKBySimilarity", "RandomWordDeletion", "PreserveLiterals", "SinglePerturbationSearch",
                       "SemanticParsingGoalFunction", "ExecutionScorer(mode='classical'"):
        assert ingredient in text


def test_an_nlpaug_recipe_is_the_augmenter_under_literal_protection_and_the_judge(geo_mini_victim):
    text = repr(attack_recipe_class("semparse-nlpaug:KeyboardAug:aug_char_max=1").build(geo_mini_victim))
    for ingredient in ("TopKBySimilarity", "NlpaugPerturbation", "(augmenter):  KeyboardAug",
                       "(options):  {'aug_char_max': 1}", "PreserveLiterals", "MeaningJudgement",
                       "SinglePerturbationSearch"):
        assert ingredient in text


def test_typo_searches_the_words_most_important_to_the_victim(geo_mini_victim):
    # Zhuo et al.'s TB follows TextBugger: bugs go to the words that matter most to the victim.
    text = repr(PerturbationAttackHuang2021.build(geo_mini_victim, perturbation_name="typo", keep=10))
    for ingredient in ("TextBuggerTypo", "GreedyWordImportanceSearch", "(wir_method):  delete"):
        assert ingredient in text
    single = repr(PerturbationAttackHuang2021.build(geo_mini_victim, perturbation_name="typo", search="single"))
    assert "SinglePerturbationSearch" in single
    with pytest.raises(ValueError, match="search"):
        PerturbationAttackHuang2021.build(geo_mini_victim, perturbation_name="typo", search="beam")


def test_unknown_perturbation_names_the_registered_ones(geo_mini_victim):
    from textattack_semparse.errors import RegistryError

    with pytest.raises(RegistryError, match="Did you mean 'typo'"):
        PerturbationAttackHuang2021.build(geo_mini_victim, perturbation_name="typos")


def test_stock_cli_runs_a_perturbation_recipe(tmp_path):
    # Typos: the word-level perturbations leave the words a question needs alone (question and
    # operator words, the gold's predicate words, literals), so on geo-mini's first ten short test
    # questions they find nothing that fools the KNN parser, judge or not; a typo still can.
    summary = tmp_path / "s.json"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-typo", "--model", "knn-geo", "--num-examples", "10",
        "--log-summary-to-json", str(summary), "--disable-stdout", env={"SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads(summary.read_text())["Attack Results"]
    assert results["Number of successful attacks:"] >= 1


def test_the_plugin_cli_runs_an_nlpaug_recipe(tmp_path, monkeypatch):
    from textattack_semparse.cli import main

    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    arguments = ["--model", "knn-geo", "--num-examples", "3", "--output-dir", str(tmp_path), "--no-progress"]
    assert main(["attack", "--recipe", "semparse-nlpaug:KeyboardAug:aug_word_max=1", *arguments]) == 0
    summary = json.loads((tmp_path / "attack_summary.json").read_text())
    assert sum(summary["Attack Results"][f"Number of {kind} attacks:"] for kind in ("successful", "failed", "skipped")) == 3
