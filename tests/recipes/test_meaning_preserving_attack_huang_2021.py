"""The combined recipes (semparse-geo, ...): composition, and end-to-end runs through the stock textattack CLI."""

from __future__ import annotations

import csv
import json
import re

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.recipes.attack.meaning_preserving_attack_huang_2021 import MeaningPreservingAttackHuang2021
from textattack_semparse.sql.literals import literal_word_indices, sql_literals
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser

from tests.helpers import run_command


def _words(text: str) -> list[str]:
    return re.sub(r"\[\[|\]\]", "", text).lower().split()


def _successes(log):
    with log.open(newline="") as handle:
        return [row for row in csv.DictReader(handle) if row["result_type"] == "Successful"]


def _assert_literals_intact(rows):
    for row in rows:
        original, perturbed = _words(row["original_text"]), _words(row["perturbed_text"])
        literals = sql_literals(row["ground_truth_output"])
        kept = [original[i] for i in sorted(literal_word_indices(original, literals))]
        assert kept == [perturbed[i] for i in sorted(literal_word_indices(perturbed, literals))], row


def test_repr_lists_the_documented_ingredients():
    geo = load_benchmark("geo-mini")
    victim = KNNTemplateParser(geo.split("question", "train"), database=geo.database)
    text = repr(MeaningPreservingAttackHuang2021.build(victim, benchmark="geo-mini"))
    for ingredient in ("SemanticParsingGoalFunction", "ExecutionScorer(mode='classical'", "FunctionWordInsertion",
                       "FunctionWordDeletion", "FunctionWordSubstitution", "RepeatModification", "PreserveLiterals",
                       "MaxWordsPerturbed", "SentenceBERTSimilarity", "GreedyWordImportanceSearch"):
        assert ingredient in text
    assert "DistractionSuffix" not in text  # Zhuo's five statements never pass the 0.8 Sentence-BERT threshold


def test_demo_attack_on_geo_mini_succeeds_with_literals_intact(tmp_path):
    summary, log = tmp_path / "s.json", tmp_path / "log.csv"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-geo", "--model", "knn-geo", "--num-examples", "-1",
        "--log-summary-to-json", str(summary), "--log-to-csv", str(log), "--disable-stdout",
        env={"SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads(summary.read_text())["Attack Results"]
    assert results["Number of successful attacks:"] >= 1
    assert sum(int(results[key]) for key in ("Number of successful attacks:", "Number of failed attacks:", "Number of skipped attacks:")) == 28
    # The plugin's rows: nothing left out, so its standard accuracy is TextAttack's original accuracy.
    assert (results["Gold errors (left out):"], results["Victim errors (left out):"]) == (0, 0)
    assert results["Standard accuracy (errors left out):"] == results["Original accuracy:"]
    _assert_literals_intact(_successes(log))


@pytest.mark.real_data
def test_attack_on_real_geoquery_keeps_literals(real_data_dir, tmp_path):
    log = tmp_path / "log.csv"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-geo", "--model", "knn-geo", "--num-examples", "60",
        "--log-to-csv", str(log), "--disable-stdout", env={"SEMPARSE_DATA_DIR": str(real_data_dir)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    with log.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 60
    successes = [row for row in rows if row["result_type"] == "Successful"]
    assert successes, "no successful adversarial example on 60 GeoQuery questions"
    _assert_literals_intact(successes)
