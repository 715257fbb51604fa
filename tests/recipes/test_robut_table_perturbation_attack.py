"""RobuT's table-perturbation recipes (Zhao et al. 2023) on real WikiTableQuestions."""

from __future__ import annotations

import csv
import json

import pytest

from tests.helpers import run_command

pytestmark = pytest.mark.real_data

ROBUT_RECIPES = {f"robut-{name}" for name in (
    "header-synonym", "header-abbreviation", "row-shuffle", "column-shuffle", "column-extension",
    "column-masking", "column-adding", "mix", "word", "word-wordnet", "sentence", "sentence-backtranslation",
    "word-llm", "sentence-llm",
)}


def test_every_robut_recipe_is_registered():
    from textattack_semparse.registry import get_registry

    assert ROBUT_RECIPES <= set(get_registry().names("attack-recipe"))


def test_robut_mix_perturbs_two_or_three_levels_and_judges_the_question(real_data_dir, monkeypatch):
    from textattack.shared import AttackedText

    from textattack_semparse.attack_attrs import record_gold_output
    from textattack_semparse.constraints.meaning_judgement import MeaningJudgement
    from textattack_semparse.registry import attack_recipe_class
    from textattack_semparse.robustness.build_test_set import dataset_examples
    from textattack_semparse.tables.answers import parse_answer
    from textattack_semparse.tables.table_text import table_changes, table_input, table_of
    from textattack_semparse.victims.resolution import resolve_victim

    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    victim, _ = resolve_victim("table-lexical", dataset="wtq-dev")
    attack = attack_recipe_class("robut-mix").build(victim)
    assert any(isinstance(constraint, MeaningJudgement) for constraint in attack.constraints)
    outputs = []
    for example in dataset_examples("wtq-dev", limit=5):
        text = AttackedText(table_input(example.question, example.table))
        record_gold_output(text, example.gold)
        for output in attack.get_transformations(text, original_text=text):
            outputs.append((example, output))
    assert outputs
    levels_seen = set()
    for example, output in outputs:
        changes = [change.perturbation for change in table_changes(output)]
        levels = {"header" if name.startswith("header-") else "content" for name in changes}
        if output._text_input["question"] != example.question:
            levels.add("question")
        assert len(levels) in (2, 3) and len(changes) == len(levels - {"question"})
        levels_seen |= levels
        # Every gold value that was a cell is still one (the table levels keep the answer).
        for value in parse_answer(example.gold):
            if value in example.table.cells():
                assert value in table_of(output).cells()
    assert levels_seen == {"header", "content", "question"}


def test_table_recipes_add_no_judge_and_question_recipes_do(real_data_dir, monkeypatch):
    from textattack_semparse.constraints.meaning_judgement import MeaningJudgement
    from textattack_semparse.registry import attack_recipe_class
    from textattack_semparse.victims.resolution import resolve_victim

    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    victim, _ = resolve_victim("table-lexical", dataset="wtq-dev")
    for name, judged in (("robut-header-synonym", False), ("robut-word-wordnet", True), ("robut-sentence", True)):
        attack = attack_recipe_class(name).build(victim)
        assert any(isinstance(c, MeaningJudgement) for c in attack.constraints) == judged, name


def test_stock_cli_runs_robut_header_synonym_and_its_summary_adds_up(real_data_dir, tmp_path, monkeypatch):
    from textattack_semparse.metrics.prediction_scoring import victim_input
    from textattack_semparse.robustness.build_test_set import dataset_examples
    from textattack_semparse.victims.resolution import resolve_victim

    summary, log = tmp_path / "summary.json", tmp_path / "log.csv"
    result = run_command(
        "textattack", "attack", "--recipe", "robut-header-synonym", "--model", "table-lexical", "--num-examples", "20",
        "--log-summary-to-json", str(summary), "--log-to-csv", str(log), "--disable-stdout",
        env={"SEMPARSE_DATA_DIR": str(real_data_dir), "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(summary.read_text())["Attack Results"]
    succeeded, failed, skipped = (
        figures[f"Number of {kind} attacks:"] for kind in ("successful", "failed", "skipped")
    )
    assert succeeded + failed + skipped == 20
    with log.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert _result_types(rows) == {"Successful": succeeded, "Failed": failed, "Skipped": skipped}
    # The original accuracy is the victim's own on the first 20 wtq-dev questions.
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    victim, _ = resolve_victim("table-lexical", dataset="wtq-dev")
    examples = dataset_examples("wtq-dev", limit=20)
    predictions = victim([victim_input(e.question, e.db_id, e.table) for e in examples])
    correct = sum(
        victim.benchmark.scoring.judge(p, e.gold).outcome.value == "correct" for p, e in zip(predictions, examples)
    )
    assert succeeded + failed == correct
    assert figures["Original accuracy:"] == pytest.approx(100 * correct / 20, abs=0.01)
    assert figures["Accuracy under attack:"] == pytest.approx(100 * failed / 20, abs=0.01)


def _result_types(rows: list[dict[str, str]]) -> dict[str, int]:
    counts = {"Successful": 0, "Failed": 0, "Skipped": 0}
    for row in rows:
        counts[row["result_type"]] += 1
    return counts
