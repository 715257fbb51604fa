"""``textattack-semparse robustness compare``: a baseline and its defences, on real geo-mini results."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from textattack_semparse.cli import main
from textattack_semparse.report.formatting import format_value
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.robustness.build_test_set import build_test_set
from textattack_semparse.robustness.combined_table import ORIGINALS_ROW
from textattack_semparse.robustness.comparison import compare_reports, default_names
from textattack_semparse.robustness.evaluate_test_set import evaluate_test_set
from textattack_semparse.robustness.robustness_metrics import RATES
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet

PERTURBATIONS = ("deletion", "distraction")


def build(folder: Path, dataset: str, *perturbations: str, examples: int = 6) -> Path:
    """Every output of each perturbation on the first examples (no ranking, so no Sentence-BERT: fast)."""
    build_test_set(dataset, perturbations, selection=(None, None), limit=examples).write(folder)
    return folder


def evaluate(model: str, test_set: Path, result: Path) -> Path:
    assert main(["robustness", "evaluate", "--model", model, "--input-dir", str(test_set), "--output-json", str(result)]) == 0
    return result


@pytest.fixture(scope="module")
def results(geo_mini_env, tmp_path_factory) -> dict[str, Path]:
    """knn-geo (the baseline) and knn-geo-query (fit on the query split: other predictions) on
    one geo-mini test set; knn-geo-query on the same examples with deletion only; on geo-query-test."""
    folder = tmp_path_factory.mktemp("compare")
    test_set = build(folder / "test-set", "geo-question-test", *PERTURBATIONS)
    deletion_only = build(folder / "deletion-only", "geo-question-test", "deletion")
    query_split = build(folder / "query-split", "geo-query-test", "deletion", examples=3)
    return {
        "test_set": test_set,
        "baseline": evaluate("knn-geo", test_set, folder / "baseline.json"),
        "defence": evaluate("knn-geo-query", test_set, folder / "defence.json"),
        "deletion_only": evaluate("knn-geo-query", deletion_only, folder / "deletion-only.json"),
        "other_dataset": evaluate("knn-geo-query", query_split, folder / "query-split.json"),
    }


@pytest.fixture(scope="module")
def seq2seq_result(results, t5_dir) -> Path:
    """The tiny T5 on the same test set: a victim with a loss, so its black-box success rate is defined."""
    from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

    parser = Seq2SeqParser(t5_dir, device="cpu", max_new_tokens=6, database=geo_mini_paths()[1])
    report = evaluate_test_set(parser, RobustnessTestSet.read(results["test_set"]), victim_name="tiny-t5")
    path = results["baseline"].parent / "tiny-t5.json"
    path.write_text(json.dumps(report.to_json()), encoding="utf-8")
    return path


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def expected_values(result: dict) -> dict[str, dict[str, float | None]]:
    """Row -> metric -> value, read straight from a result file."""
    rows = {name: {metric: row[metric] for metric in RATES} for name, row in result["perturbations"].items()}
    rows["micro"] = {metric: result["micro"][metric] for metric in RATES}
    rows["macro"] = {metric: result["macro"][metric] for metric in RATES}
    rows[ORIGINALS_ROW] = {"standard_accuracy": result["originals"]["standard_accuracy"]}
    return rows


def minus(defence: float | None, baseline: float | None) -> float | None:
    return None if defence is None or baseline is None else defence - baseline


def printed_rows(out: str, row: str) -> list[list[str]]:
    """The cells of every printed table line whose first cell is ``row``, one list per table."""
    lines = [[cell.strip() for cell in line.split("│")[1:-1]] for line in out.splitlines() if line.startswith("│")]
    return [cells for cells in lines if cells[0] == row]


def compare(*arguments: str | Path) -> int:
    return main(["robustness", "compare", *map(str, arguments)])


def test_the_two_victims_disagree_so_the_deltas_are_not_all_zero(results):
    baseline, defence = read(results["baseline"]), read(results["defence"])
    assert baseline["perturbations"] != defence["perturbations"]


def test_json_values_are_the_results_values_and_deltas_are_defence_minus_baseline(results, tmp_path):
    output = tmp_path / "comparison.json"
    assert compare(results["baseline"], results["defence"], "--names", "baseline,mda", "--output-json", output) == 0
    comparison = read(output)
    baseline, defence = expected_values(read(results["baseline"])), expected_values(read(results["defence"]))
    assert (comparison["baseline"], comparison["defences"]) == ("baseline", ["mda"])
    assert list(comparison["values"]) == [*PERTURBATIONS, "micro", "macro", ORIGINALS_ROW]
    for row in comparison["values"]:
        assert comparison["values"][row] == {"baseline": baseline[row], "mda": defence[row]}
        assert comparison["deltas"][row] == {
            "mda": {metric: minus(defence[row][metric], baseline[row][metric]) for metric in baseline[row]}
        }
    assert any(delta not in (0.0, None) for row in comparison["deltas"].values() for delta in row["mda"].values())


def test_printed_tables_show_every_value_and_delta_per_metric(results, capsys):
    assert compare(results["baseline"], results["defence"], "--names", "baseline,mda") == 0
    out = capsys.readouterr().out
    baseline, defence = expected_values(read(results["baseline"])), expected_values(read(results["defence"]))
    for row in (*PERTURBATIONS, "micro", "macro"):
        expected = [
            [row, *(format_value(value) for value in (baseline[row][m], defence[row][m], minus(defence[row][m], baseline[row][m])))]
            for m in RATES
        ]
        assert printed_rows(out, row) == expected
    assert "mda - baseline" in out and "success rate of black-box attack" in out


def test_black_box_success_rate_without_a_loss_is_na_when_printed_and_null_in_json(results, tmp_path, capsys):
    output = tmp_path / "comparison.json"
    assert compare(results["baseline"], results["defence"], "--output-json", output) == 0
    deletion = printed_rows(capsys.readouterr().out, "deletion")[RATES.index("black_box_success_rate")]
    assert deletion == ["deletion", "n/a", "n/a", "n/a"]
    comparison = read(output)
    assert comparison["values"]["deletion"]["knn-geo"]["black_box_success_rate"] is None
    assert comparison["deltas"]["deletion"]["knn-geo-query"]["black_box_success_rate"] is None


def test_a_victim_with_a_loss_has_a_black_box_rate_but_no_delta_to_a_baseline_without(results, seq2seq_result, tmp_path):
    output = tmp_path / "comparison.json"
    assert compare(results["baseline"], seq2seq_result, "--output-json", output) == 0
    comparison = read(output)
    rates = [row["tiny-t5"]["black_box_success_rate"] for row in comparison["values"].values() if "black_box_success_rate" in row["tiny-t5"]]
    assert rates == [read(seq2seq_result)["perturbations"][name]["black_box_success_rate"] for name in PERTURBATIONS] + [
        read(seq2seq_result)[average]["black_box_success_rate"] for average in ("micro", "macro")
    ]
    assert any(rate is not None for rate in rates)
    assert all(row["tiny-t5"].get("black_box_success_rate") is None for row in comparison["deltas"].values())


def test_csv_has_one_row_per_perturbation_result_and_metric_with_value_and_delta(results, tmp_path):
    output = tmp_path / "comparison.csv"
    assert compare(results["baseline"], results["defence"], "--names", "baseline,mda", "--output-csv", output) == 0
    with output.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    baseline, defence = expected_values(read(results["baseline"])), expected_values(read(results["defence"]))
    expected = []
    for metric in RATES:
        for row in baseline:
            if metric in baseline[row]:
                delta = minus(defence[row][metric], baseline[row][metric])
                expected.append([row, "baseline", metric, format_csv(baseline[row][metric]), ""])
                expected.append([row, "mda", metric, format_csv(defence[row][metric]), format_csv(delta)])
    assert [list(row.values()) for row in rows] == expected
    assert list(rows[0]) == ["perturbation", "result", "metric", "value", "delta"]


def format_csv(value: float | None) -> str:
    return "" if value is None else str(value)


def test_plot_is_a_png(results, tmp_path):
    output = tmp_path / "robust-accuracy.png"
    assert compare(results["baseline"], results["defence"], "--plot", output) == 0
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_names_default_to_the_victims(results):
    reports = [RobustnessReport.read(results[key]) for key in ("baseline", "defence")]
    assert compare_reports(reports).names == ("knn-geo", "knn-geo-query")


def test_names_default_to_file_stems_when_the_victims_collide(results, tmp_path, capsys):
    mda = shutil.copy(results["baseline"], tmp_path / "mda.json")
    assert compare(results["baseline"], mda) == 0
    assert "mda - baseline" in capsys.readouterr().out


def test_names_default_to_directories_when_victims_and_stems_collide(results):
    reports = [RobustnessReport.read(results["baseline"])] * 2
    assert default_names(reports, ["out/plain/robustness.json", "out/adversarial/robustness.json"]) == ["plain", "adversarial"]


def test_a_perturbation_missing_from_a_result_is_na_with_a_warning(results, tmp_path, capsys):
    output = tmp_path / "comparison.json"
    assert compare(results["baseline"], results["deletion_only"], "--names", "baseline,mda", "--output-json", output) == 0
    captured = capsys.readouterr()
    assert "Warning: perturbation 'distraction' is missing from result 'mda'; its cells are n/a" in captured.err
    assert printed_rows(captured.out, "distraction")[RATES.index("robust_accuracy")][2:] == ["n/a", "n/a"]
    comparison = read(output)
    assert comparison["missing"] == {"mda": ["distraction"]}
    assert set(comparison["values"]["distraction"]["mda"].values()) == {None}
    assert set(comparison["deltas"]["distraction"]["mda"].values()) == {None}


def test_results_on_different_datasets_are_an_error_naming_both(results, capsys):
    assert compare(results["baseline"], results["other_dataset"]) == 2
    err = capsys.readouterr().err
    assert f"{results['baseline']} is on 'geo-question-test', {results['other_dataset']} on 'geo-query-test'" in err
    assert "--allow-different-datasets" in err


def test_allow_different_datasets_compares_them_anyway(results, capsys):
    assert compare(results["baseline"], results["other_dataset"], "--names", "geo,query", "--allow-different-datasets") == 0
    assert "query - geo" in capsys.readouterr().out


def test_a_missing_file_says_how_to_write_one(results, tmp_path, capsys):
    assert compare(results["baseline"], tmp_path / "nowhere.json") == 2
    err = capsys.readouterr().err
    assert "nowhere.json' does not exist" in err and "robustness evaluate" in err


def test_a_file_that_is_no_robustness_result_says_how_to_write_one(results, capsys):
    assert compare(results["baseline"], results["test_set"] / "manifest.json") == 2
    err = capsys.readouterr().err
    assert "is not a robustness report" in err and "--output-json" in err


def test_a_baseline_alone_is_a_usage_error(results, capsys):
    assert compare(results["baseline"]) == 2
    assert "required: DEFENCE.json" in capsys.readouterr().err


def test_no_results_at_all_is_an_error_naming_the_fix():
    with pytest.raises(ValueError, match="needs a baseline and at least one defence.*BASELINE.json DEFENCE.json"):
        compare_reports([])


@pytest.mark.parametrize(
    ("names", "message"),
    [("baseline", "--names gives 1 names (baseline) for 2 results"), ("a,a", "has an empty or repeated name")],
)
def test_names_that_do_not_fit_are_an_error(results, names, message, capsys):
    assert compare(results["baseline"], results["defence"], "--names", names) == 2
    assert message in capsys.readouterr().err
