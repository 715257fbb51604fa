"""`report` of an evaluation of a validated test set beside one of the test set it came from, end
to end on the packaged geo-mini: `robustness build`, `validate export`, three annotators' judgment
files written here, `validate import --rule huang-2021`, `robustness evaluate` of both test sets
with knn-geo. The side-by-side table's figures are computed here from the evaluations' own files
(their journals of outcomes and their test sets) and from validation.json, not through the report."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.report.test_report import cells, row_cells, two_decimals
from textattack_semparse.cli import main

ANNOTATORS = ("ann", "bob", "cy")
PERTURBATIONS = ("typo", "deletion", "distraction", "insertion")
LABEL = "knn-geo on geo-mini-query-dev"
VALIDATED_LABEL = f"{LABEL}, validated (huang-2021, 3 annotators)"


def run_cli(*argv: str) -> None:
    assert main(list(argv)) == 0


def labels(perturbation: str, position: int) -> tuple[str, str, str]:
    """The three annotators' labels of the ``position``-th item of ``perturbation``: every
    insertion called different (none kept), every distraction the same (unanimous), each deletion
    kept by two of three, every other typo dropped (one same, one different, one unsure)."""
    if perturbation == "insertion":
        return ("different",) * 3
    if perturbation == "distraction":
        return ("same",) * 3
    if perturbation == "deletion" or position % 2 == 0:
        return ("same", "same", "different")
    return ("same", "different", "unsure")


@pytest.fixture(scope="module")
def evaluations(tmp_path_factory) -> Iterator[dict[str, Path]]:
    """The unvalidated test set evaluated into its default ``evaluations/`` folder, the validated
    one evaluated in its own directory (as ``robustness run`` leaves one)."""
    root = tmp_path_factory.mktemp("validated-report")
    test_set, export, validated = root / "test-set", root / "export", root / "validated"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", "")  # the packaged geo-mini
        run_cli("robustness", "build", "--dataset", "geo-mini-query-dev", "--num-examples", "8",
                "--perturbations", *PERTURBATIONS, "--output-dir", str(test_set), "--no-progress")  # fmt: skip
        run_cli("validate", "export", str(test_set), "--output-dir", str(export))
        pairs = [json.loads(line) for line in (export / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
        positions: dict[str, int] = {}
        judged = {}
        for pair in pairs:
            position = positions[pair["perturbation"]] = positions.get(pair["perturbation"], -1) + 1
            judged[pair["item_id"]] = labels(pair["perturbation"], position)
        judgments = []
        for number, annotator in enumerate(ANNOTATORS):
            path = root / f"judgments-{annotator}.csv"
            with path.open("w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(["item_id", "annotator", "label"])
                writer.writerows([item_id, annotator, votes[number]] for item_id, votes in judged.items())
            judgments.append(str(path))
        run_cli("validate", "import", str(export), *judgments, "--output-dir", str(validated), "--rule", "huang-2021")
        run_cli("robustness", "evaluate", "--input-dir", str(test_set), "--model", "knn-geo", "--no-progress")
        run_cli("robustness", "evaluate", "--input-dir", str(validated), "--model", "knn-geo",
                "--output-dir", str(validated), "--no-progress")  # fmt: skip
        (unvalidated,) = (test_set / "evaluations").iterdir()
        yield {"test_set": test_set, "unvalidated": unvalidated, "validated": validated, "root": root}


def figures(test_set: Path, run: Path) -> dict[str, tuple[int, float | None, float | None]]:
    """Per perturbation and ``micro``: the rewrites of ``test_set`` and the perturbation and robust
    accuracy (%) of ``run``'s journal of outcomes on them (Huang et al. 2021's definitions)."""
    outcomes = {
        record["key"]: record["value"]["outcome"]
        for record in map(json.loads, (run / "evaluate.jsonl").read_text(encoding="utf-8").splitlines())
        if "outcome" in record["value"]
    }
    found = {}
    pooled = [0, 0, 0, 0]
    for name in json.loads((test_set / "manifest.json").read_text(encoding="utf-8"))["perturbations"]:
        counts = [0, 0, 0, 0]  # rewrites, correct, originals correct, correct among those
        for index, line in enumerate((test_set / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()):
            correct = outcomes[f"{name}/{index}"] == "correct"
            original_correct = outcomes[f"originals/{json.loads(line)['example_id']}"] == "correct"
            for position, add in enumerate((1, correct, original_correct, correct and original_correct)):
                counts[position] += add
                pooled[position] += add
        found[name] = counts
    found["micro"] = pooled
    return {
        name: (rewrites, 100 * correct / rewrites if rewrites else None, 100 * robust / kept if kept else None)
        for name, (rewrites, correct, kept, robust) in found.items()
    }


def difference(validated: float | None, unvalidated: float | None) -> str:
    return "n/a" if validated is None or unvalidated is None else f"{validated - unvalidated:+.2f}"


def test_the_report_shows_the_validated_and_unvalidated_evaluations_side_by_side(evaluations, tmp_path):
    output = tmp_path / "report.html"
    run_cli("report", str(evaluations["unvalidated"]), str(evaluations["validated"]), "--output", str(output))
    html = output.read_text(encoding="utf-8")
    before = figures(evaluations["test_set"], evaluations["unvalidated"])
    after = figures(evaluations["validated"], evaluations["validated"])
    validation = json.loads((evaluations["validated"] / "validation.json").read_text(encoding="utf-8"))
    assert before["insertion"][0] > 0 and "insertion" not in after  # people kept no insertion
    assert 0 < after["typo"][0] < before["typo"][0]
    for name in (*PERTURBATIONS, "micro"):
        rewrites, perturbation, robust = before[name]
        kept_rewrites, kept_perturbation, kept_robust = after.get(name, (0, None, None))
        acceptance = validation["overall"] if name == "micro" else validation["perturbations"][name]
        assert row_cells(html, "validation-source-1-source-2", name) == [
            ("utterances", str(rewrites)),
            ("utterances", str(kept_rewrites)),
            ("judged", str(acceptance["judged"])),
            ("kept", str(acceptance["kept"])),
            ("acceptance", two_decimals(acceptance["acceptance"])),
            ("perturbation_accuracy", two_decimals(perturbation)),
            ("perturbation_accuracy", two_decimals(kept_perturbation)),
            ("delta_perturbation_accuracy", difference(kept_perturbation, perturbation)),
            ("robust_accuracy", two_decimals(robust)),
            ("robust_accuracy", two_decimals(kept_robust)),
            ("delta_robust_accuracy", difference(kept_robust, robust)),
        ]
    assert validation["perturbations"]["insertion"]["kept"] == 0 and validation["perturbations"]["distraction"]["acceptance"] == 100
    table = re.search(r'<h3 id="validation-source-1-source-2">(.*?)</table>', html, re.S).group(1)
    kappa = f"{validation['fleiss_kappa']:.3f}"
    assert f"Fleiss&#39; kappa {kappa}" in table and "annotators: ann, bob, cy" in table and "huang-2021" in table
    # the validated run is labelled as such wherever it is named: summary, per-perturbation tables, inputs
    assert cells(html, "summary-robustness", VALIDATED_LABEL)["perturbation_accuracy"] == two_decimals(after["micro"][1])
    assert cells(html, "summary-robustness", LABEL)["perturbation_accuracy"] == two_decimals(before["micro"][1])
    assert f"<th data-metric=\"perturbation_accuracy\" data-source=\"source-2\">{VALIDATED_LABEL}</th>" in html
    inputs = re.search(r'<section class="source" id="source-2"[^>]*>(.*?)</section>', html, re.S).group(1)
    assert VALIDATED_LABEL in inputs and f"Validated from {evaluations['test_set'].resolve()}" in inputs


def test_markdown_carries_the_side_by_side_table(evaluations, tmp_path):
    output = tmp_path / "report.md"
    run_cli("report", str(evaluations["unvalidated"]), str(evaluations["validated"]), "--output", str(output), "--format", "markdown")
    lines = output.read_text(encoding="utf-8").splitlines()
    heading = lines.index(f"## Unvalidated and validated: {VALIDATED_LABEL}")
    before = figures(evaluations["test_set"], evaluations["unvalidated"])
    after = figures(evaluations["validated"], evaluations["validated"])
    typo = next(line for line in lines[heading:] if line.startswith("| typo | "))
    assert typo.startswith(f"| typo | {before['typo'][0]} | {after['typo'][0]} |")
    assert typo.endswith(f"| {two_decimals(before['typo'][2])} | {two_decimals(after['typo'][2])} | {difference(after['typo'][2], before['typo'][2])} |")


def test_one_evaluation_alone_gets_no_side_by_side_table_and_only_the_validated_one_a_label(evaluations, tmp_path):
    for run, label in ((evaluations["validated"], VALIDATED_LABEL), (evaluations["unvalidated"], LABEL)):
        output = tmp_path / "report.html"
        run_cli("report", str(run), "--output", str(output))
        html = output.read_text(encoding="utf-8")
        assert 'data-table="validation-' not in html
        assert re.findall(r'data-table="summary-robustness">.*?data-row="([^"]+)"', html, re.S) == [label]
        assert ("validated (" in html) == (label == VALIDATED_LABEL)
