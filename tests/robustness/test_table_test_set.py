"""Robustness test sets of Table QA examples on real WikiTableQuestions (RobuT, Zhao et al. 2023)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter

import pytest

from tests.helpers import run_command
from textattack_semparse.robustness.build_test_set import build_test_set
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.robustness.utterance_outcome import UtteranceOutcome
from textattack_semparse.tables.table import Table

pytestmark = pytest.mark.real_data

SLICE = 20
PERTURBATIONS = ("header-synonym", "row-shuffle", "deletion")


def _rows(table: Table) -> Counter:
    return Counter(table.rows)


@pytest.fixture(scope="module")
def written(real_data_dir, tmp_path_factory, encoder):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
        test_set = build_test_set("wtq-dev", PERTURBATIONS, limit=SLICE, encoder=encoder)
    folder = tmp_path_factory.mktemp("wtq-test-set")
    test_set.write(folder)
    return test_set, folder


def test_tables_are_csv_files_beside_the_questions_and_read_back(written):
    test_set, folder = written
    originals = [json.loads(line) for line in (folder / "originals.jsonl").read_text().splitlines()]
    assert [record["table"] for record in originals] == [f"tables/original/{i}.csv" for i in range(SLICE)]
    for record, example in zip(originals, test_set.originals):
        assert Table.from_csv((folder / record["table"]).read_text(), name=example.db_id) == example.table
    read = RobustnessTestSet.read(folder)
    assert [(e.question, e.gold, e.db_id, e.table) for e in read.originals] == [
        (e.question, e.gold, e.db_id, e.table) for e in test_set.originals
    ]
    assert read.utterances == test_set.utterances
    assert read.left_out == test_set.left_out


def test_table_perturbations_change_the_table_not_the_question(written):
    test_set, folder = written
    for name in ("header-synonym", "row-shuffle"):
        records = [json.loads(line) for line in (folder / f"{name}.jsonl").read_text().splitlines()]
        assert records
        for record, item in zip(records, test_set.utterances[name]):
            original = test_set.originals[item.example_id]
            assert item.perturbed == item.original == original.question
            assert record["table"] == f"tables/{name}/{item.example_id}-0.csv"
            on_disk = list(csv.reader(io.StringIO((folder / record["table"]).read_text())))
            before = list(csv.reader(io.StringIO((folder / f"tables/original/{item.example_id}.csv").read_text())))
            assert on_disk != before
            if name == "header-synonym":  # the header is renamed, every cell stays where it was
                assert on_disk[1:] == before[1:] and on_disk[0] != before[0]
            else:  # the same rows under the same header, in another order
                assert on_disk[0] == before[0] and Counter(map(tuple, on_disk[1:])) == Counter(map(tuple, before[1:]))


def test_question_perturbations_leave_the_table_as_it_is(written):
    test_set, folder = written
    records = [json.loads(line) for line in (folder / "deletion.jsonl").read_text().splitlines()]
    assert records
    for record, item in zip(records, test_set.utterances["deletion"]):
        assert item.perturbed != item.original
        assert item.table == test_set.originals[item.example_id].table
        assert record["table"] == f"tables/original/{item.example_id}.csv"
    assert not (folder / "tables" / "deletion").exists()


def test_left_out_examples_are_counted_per_reason(written):
    test_set, folder = written
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in PERTURBATIONS:
        left_out = sum(manifest["left_out"][name].values())
        assert left_out == len(manifest["no_candidates"][name])
    # Row shuffling leaves out questions about position (RobuT keeps only order-free questions).
    assert all(reason.startswith("question asks about position") for reason in manifest["left_out"]["row-shuffle"])
    assert manifest["left_out"]["row-shuffle"]


def test_robut_pre_attack_accuracy_counts_the_original_once_per_perturbed_example():
    # RobuT's released evaluation (utils/eval_utils.py, calculate_final_scores): per perturbation,
    # "original_acc" is the mean of the original's correctness over the perturbed examples,
    # "perturbed_acc" the mean of their correctness, and "robust_acc" = sum(both_correct) /
    # sum(original correct), i.e. Huang et al.'s robust accuracy.
    outcomes = [
        UtteranceOutcome("row-shuffle", 0, True, True),
        UtteranceOutcome("row-shuffle", 0, True, False),
        UtteranceOutcome("row-shuffle", 1, False, True),
    ]
    metrics = RobustnessMetrics.from_outcomes(outcomes, loss_available=False)
    original = [o.original_correct for o in outcomes]
    both = [o.original_correct and o.perturbed_correct for o in outcomes]
    assert metrics.pre_attack_accuracy == pytest.approx(100 * sum(original) / len(outcomes))  # 66.67
    assert metrics.perturbation_accuracy == pytest.approx(100 * sum(o.perturbed_correct for o in outcomes) / 3)
    assert metrics.robust_accuracy == pytest.approx(100 * sum(both) / sum(original))  # 50.0
    assert metrics.standard_accuracy == 50.0  # Huang et al.: distinct examples, not perturbed examples


def test_robustness_run_prints_robut_table_matching_recomputation(real_data_dir, tmp_path):
    from textattack_semparse.metrics.prediction_scoring import victim_input
    from textattack_semparse.victims.resolution import resolve_victim

    names = ("header-abbreviation", "column-shuffle")
    result = run_command(
        "textattack-semparse", "robustness", "run", "--model", "table-lexical", "--dataset", "wtq-dev",
        "--num-examples", str(SLICE), "--perturbations", *names, "--output-dir", str(tmp_path),
        env={"SEMPARSE_DATA_DIR": str(real_data_dir), "COLUMNS": "200", "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "RobuT's table" in result.stdout
    robut_table = result.stdout.split("RobuT's table", 1)[1]
    test_set = RobustnessTestSet.read(tmp_path)
    victim, _ = resolve_victim("table-lexical", dataset="wtq-dev")
    scoring = victim.benchmark.scoring

    def correct(question, example_or_item):
        prediction = victim([victim_input(question, example_or_item.db_id, example_or_item.table)])[0]
        return scoring.judge(prediction, example_or_item.gold).outcome.value == "correct"

    original_correct = [correct(e.question, e) for e in test_set.originals]
    for name in names:
        items = test_set.utterances[name]
        assert items
        before = [original_correct[item.example_id] for item in items]
        after = [correct(item.perturbed, item) for item in items]
        both = [b and a for b, a in zip(before, after)]
        expected = (
            len(items),
            100 * sum(before) / len(items),
            100 * sum(after) / len(items),
            100 * sum(both) / sum(before) if sum(before) else None,
        )
        row = re.search(rf"│ {re.escape(name)}\s+│\s+(\d+) │\s+([\d.]+) │\s+([\d.]+) │\s+([\d.]+|n/a) │", robut_table)
        assert row, robut_table
        assert int(row.group(1)) == expected[0]
        for printed, value in zip(row.groups()[1:], expected[1:]):
            assert (printed == "n/a") if value is None else float(printed) == pytest.approx(value, abs=0.005)
        left_out = sum(test_set.left_out[name].values())
        assert left_out + len({item.example_id for item in items}) == SLICE
        if left_out:
            assert f"Left out by {name}: " in result.stdout
