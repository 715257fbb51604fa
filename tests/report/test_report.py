"""`textattack-semparse report` on real runs of geo-mini: the tables carry the runs' own figures
(read here from the run files, not through the report code), several runs side by side carry
their differences, the examples are the runs' examples with the right outcomes, worst first, the
provenance is each run's command line, the page is self-contained, Markdown works, bad input
is refused with the fix named."""

from __future__ import annotations

import csv
import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import run_command
from textattack_semparse.report.examples import OUTCOMES, word_edit
from textattack_semparse.report.report import build_report
from textattack_semparse.report.render import render_html
from textattack_semparse.runs.provenance import INVOCATIONS_FILE

GEO_MINI = {"SEMPARSE_DATA_DIR": "", "HF_HUB_OFFLINE": "1"}


def report_of(*paths: Path, output: Path, extra: tuple[str, ...] = ()) -> str:
    done = run_command("textattack-semparse", "report", *map(str, paths), "--output", str(output), *extra, env=GEO_MINI)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"Wrote {output.resolve()}" in done.stdout
    return output.read_text(encoding="utf-8")


def row_cells(html: str, table: str, row: str) -> list[tuple[str, str]]:
    """The (``data-metric``, text) cells of one row of one table of the page, in order."""
    body = re.search(rf'<table class="summary" data-table="{re.escape(table)}">(.*?)</table>', html, re.S).group(1)
    row_html = re.search(rf'<tr[^>]*data-row="{re.escape(row)}"[^>]*>(.*?)</tr>', body, re.S).group(1)
    return re.findall(r'<td data-metric="([^"]+)"[^>]*>([^<]*)</td>', row_html)


def cells(html: str, table: str, row: str) -> dict[str, str]:
    """The ``data-metric`` -> text cells of one row of a table with one column per metric."""
    return dict(row_cells(html, table, row))


def two_decimals(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def evaluation(run: Path) -> dict[str, dict]:
    return {record["key"]: record["value"] for record in map(json.loads, (run / "evaluate.jsonl").read_text().splitlines())}


def test_the_robustness_summary_holds_the_runs_figures_and_their_differences(robustness_runs, tmp_path):
    first, second = robustness_runs
    html = report_of(first, second, output=tmp_path / "report.html")
    reports = [json.loads((run / "robustness.json").read_text()) for run in (first, second)]
    labels = re.findall(r'data-table="summary-robustness">.*?</table>', html, re.S)[0]
    rows = re.findall(r'data-row="([^"]+)"', labels)
    assert len(rows) == 2
    for row, data in zip(rows, reports):
        figures = cells(html, "summary-robustness", row)
        assert figures["standard_accuracy"] == two_decimals(data["originals"]["standard_accuracy"])
        for metric in ("perturbation_accuracy", "robust_accuracy", "black_box_success_rate"):
            assert figures[metric] == two_decimals(data["micro"][metric])
    second_row = cells(html, "summary-robustness", rows[1])
    expected = reports[1]["micro"]["perturbation_accuracy"] - reports[0]["micro"]["perturbation_accuracy"]
    assert second_row["delta_perturbation_accuracy"] == f"{expected:+.2f}"
    assert cells(html, "summary-robustness", rows[0])["delta_perturbation_accuracy"] == "n/a"  # the baseline
    typo = [data["perturbations"]["typo"]["robust_accuracy"] for data in reports]
    assert row_cells(html, "by-perturbation-robust-accuracy", "typo") == [
        ("robust_accuracy", two_decimals(typo[0])),
        ("robust_accuracy", two_decimals(typo[1])),
        ("delta_robust_accuracy", f"{typo[1] - typo[0]:+.2f}"),
    ]


def test_the_attack_summary_holds_textattacks_counts(demo_runs, tmp_path):
    html = report_of(demo_runs["attack"], demo_runs["grammar"], output=tmp_path / "report.html")
    summary = json.loads((demo_runs["attack"] / "attack_summary.json").read_text())["Attack Results"]
    row = re.search(r'data-table="summary-attacks">.*?<tr data-source="source-1"[^>]*data-row="([^"]+)"', html, re.S).group(1)
    figures = cells(html, "summary-attacks", row)
    assert figures["succeeded"] == str(summary["Number of successful attacks:"])
    assert figures["failed"] == str(summary["Number of failed attacks:"])
    assert figures["skipped"] == str(summary["Number of skipped attacks:"])
    grammar = json.loads((demo_runs["grammar"] / "summary.json").read_text())
    row = re.search(r'data-table="summary-attacks">.*?<tr data-source="source-2"[^>]*data-row="([^"]+)"', html, re.S).group(1)
    assert cells(html, "summary-attacks", row)["attack_success_rate"] == two_decimals(grammar["attack_success_rate"])
    error_types = re.search(r'data-table="error-types-source-2">(.*?)</table>', html, re.S).group(1)
    assert all(name in error_types for name in grammar["error_types"])


def test_the_examples_are_the_runs_utterances_with_their_outcomes_worst_first(demo_runs):
    run = demo_runs["robustness"]
    records = evaluation(run)
    expected = Counter()
    for path in sorted(run.glob("*.jsonl")):
        if path.stem in ("originals", "build", "evaluate", "invocations"):
            continue
        for index, line in enumerate(path.read_text().splitlines()):
            utterance = json.loads(line)
            before = records[f"originals/{utterance['example_id']}"]["outcome"]
            after = records[f"{path.stem}/{index}"]["outcome"]
            if before == "correct":
                expected["robust" if after == "correct" else "broken"] += 1
            else:
                expected["fixed" if after == "correct" else "wrong"] += 1
    report = build_report([run])
    assert Counter(example.outcome for example in report.examples) == expected
    assert expected["broken"] > 0
    ranks = [OUTCOMES.index(example.outcome) for example in report.examples]
    assert ranks == sorted(ranks)
    broken = [example for example in report.examples if example.outcome == "broken"]
    similarities = [example.similarity for example in broken if example.similarity is not None]
    assert similarities == sorted(similarities, reverse=True)  # the closest rewrite that breaks the parser first
    assert all(example.perturbed_prediction != example.gold for example in broken)


def test_broken_examples_show_what_the_queries_returned_on_the_database(demo_runs):
    report = build_report([demo_runs["robustness"]])
    broken = [example for example in report.examples if example.outcome == "broken"]
    assert broken and all(example.gold_rows for example in broken)
    assert any(example.gold_rows != example.perturbed_rows for example in broken)


def test_attack_log_examples_lose_textattacks_markup(demo_runs):
    report = build_report([demo_runs["grammar"]])
    with (demo_runs["grammar"] / "attack_log.csv").open(newline="", encoding="utf-8") as handle:
        successes = [row for row in csv.DictReader(handle) if row["result_type"] == "Successful"]
    broken = [example for example in report.examples if example.outcome == "broken"]
    assert len(broken) == len(successes) > 0
    assert all("[[" not in example.perturbed and example.perturbed != example.original for example in broken)


def test_each_source_names_the_command_line_that_made_it(demo_runs, tmp_path):
    html = report_of(demo_runs["robustness"], output=tmp_path / "report.html")
    recorded = [json.loads(line) for line in (demo_runs["robustness"] / INVOCATIONS_FILE).read_text().splitlines()]
    assert recorded[0]["command"].startswith("textattack-semparse robustness run --model knn-geo --output-dir ")
    assert recorded[0]["versions"]["textattack"] == "0.3.11"
    assert f'<code class="command">{recorded[0]["command"]}</code>' in html
    assert "textattack 0.3.11" in html


def test_a_resumed_run_records_both_invocations(tmp_path):
    output = tmp_path / "run"
    arguments = ("robustness", "run", "--model", "knn-geo", "--perturbations", "typo", "--num-examples", "3", "--output-dir", str(output), "--no-progress")
    for _ in range(2):
        done = run_command("textattack-semparse", *arguments, env=GEO_MINI)
        assert done.returncode == 0, done.stderr[-2000:]
    invocations = [json.loads(line) for line in (output / INVOCATIONS_FILE).read_text().splitlines()]
    assert [invocation["resumed"] for invocation in invocations] == [False, True]
    assert {invocation["command"] for invocation in invocations} == {"textattack-semparse " + " ".join(arguments)}


def test_the_page_is_self_contained(demo_runs):
    html = render_html(build_report(list(demo_runs.values())))
    links = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert links and all(link.startswith(("data:image/svg+xml;base64,", "#")) for link in links)
    assert "<link" not in html and "@import" not in html and "url(" not in html


def test_examples_beyond_the_limit_are_counted_not_listed(demo_runs):
    report = build_report([demo_runs["robustness"]], max_examples=10)
    assert len(report.examples) == 10 and report.examples_total > 10
    assert f"{report.examples_total - 10} more examples are counted" in render_html(report)


def test_textattacks_own_csv_log_is_a_source_without_a_recorded_command(stock_log, tmp_path):
    html = report_of(stock_log, output=tmp_path / "report.html")
    assert "not recorded" in html
    rows = list(csv.DictReader(stock_log.open(newline="", encoding="utf-8")))
    assert html.count('<article class="example"') == len(rows)
    assert "[[" not in re.search(r'<div id="example-list">(.*?)</div>\s*\{?', html, re.S).group(1)


def test_an_icl_grid_gives_its_table_and_plot(icl_run, tmp_path):
    html = report_of(icl_run, output=tmp_path / "report.html")
    data = json.loads((icl_run / "icl.json").read_text())
    table = re.search(r'data-table="icl-source-1">(.*?)</table>', html, re.S).group(1)
    assert table.count("<tr data-source") == len(data["rows"])
    first = data["rows"][0]
    assert cells(html, "icl-source-1", first["cell"])["standard_accuracy"] == two_decimals(first["standard_accuracy"])
    assert 'id="plot-icl-source-1"' in html


def test_markdown_has_the_tables_the_worst_examples_and_the_plots_as_files(demo_runs, tmp_path):
    output = tmp_path / "out" / "report.md"
    output.parent.mkdir()
    text = report_of(*demo_runs.values(), output=output, extra=("--format", "markdown"))
    data = json.loads((demo_runs["robustness"] / "robustness.json").read_text())
    lines = text.splitlines()
    assert "## Robustness runs" in lines and lines[lines.index("## Robustness runs") - 1] == ""
    row = next(line for line in lines if line.startswith("| knn-geo on geo-question-test |"))  # one row per line
    assert row.endswith(f"| {data['micro']['robust_accuracy']:.2f} | n/a |")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert links and all((output.parent / link).read_bytes().startswith(b"<?xml") for link in links)
    assert "~~" in text or "**" in text  # the edits are marked
    assert "```bash\ntextattack-semparse attack --recipe semparse-geo" in text


def cut_short_grammar_run(directory: Path) -> Path:
    """A grammar-attack directory whose summary.json was cut off mid-write."""
    directory.mkdir()
    (directory / "attack_log.csv").write_text("original_text,perturbed_text\n", encoding="utf-8")
    (directory / "summary.json").write_text('{"recipe": "nucle-gre', encoding="utf-8")
    return directory


def grammar_run_with_a_json_log(directory: Path) -> Path:
    """A grammar-attack directory whose attack_log.csv holds a JSON summary instead of the CSV log."""
    directory.mkdir()
    (directory / "attack_log.csv").write_text('{"Attack Results": {}}', encoding="utf-8")
    (directory / "summary.json").write_text('{"recipe": "nucle-greedy", "error_types": {}}', encoding="utf-8")
    return directory


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda root: root / "missing", "does not exist"),
        (lambda root: root, "is not a run directory"),
        (lambda root: cut_short_grammar_run(root / "grammar"), "is not valid JSON"),
        (lambda root: grammar_run_with_a_json_log(root / "grammar"), "is a JSON summary, not the grammar attack's CSV"),
    ],
)
def test_bad_inputs_are_refused_naming_the_fix(make, message, tmp_path):
    (tmp_path / "empty").mkdir()
    done = run_command("textattack-semparse", "report", str(make(tmp_path)), "--output", str(tmp_path / "r.html"), env=GEO_MINI)
    assert done.returncode == 2 and message in done.stderr
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    ("original", "perturbed", "deleted", "inserted"),
    [
        ("what is the capital of texas", "what is capital of texas", ["the"], []),
        ("what rivers are in texas", "what rivers are there in texas", [], ["there"]),
        ("how many people live in ohio", "how many persons live in ohio", ["people"], ["persons"]),
        ("name the states", "name the states", [], []),
    ],
)
def test_the_highlighted_edit_marks_exactly_the_changed_words(original, perturbed, deleted, inserted):
    before, after = word_edit(original, perturbed)
    assert " ".join(segment.text for segment in before) == original
    assert " ".join(segment.text for segment in after) == perturbed
    assert [segment.text for segment in before if segment.changed] == deleted
    assert [segment.text for segment in after if segment.changed] == inserted


def test_a_table_qa_run_shows_robuts_table_and_what_each_table_perturbation_changed(tmp_path):
    """On real WikiTableQuestions (skipped without SEMPARSE_DATA_DIR): every header-synonym example
    names exactly the headers its table file renamed, every row-shuffle example says the rows moved."""
    data = Path(os.environ.get("SEMPARSE_DATA_DIR") or "/nonexistent")
    if not (data / "wtq").is_dir():
        pytest.skip("needs the real WikiTableQuestions under SEMPARSE_DATA_DIR")
    run = tmp_path / "wtq"
    done = run_command("textattack-semparse", "robustness", "run", "--model", "table-lexical", "--dataset", "wtq-dev",
                       "--num-examples", "20", "--perturbations", "header-synonym", "row-shuffle", "--output-dir", str(run),
                       "--no-progress", env={"SEMPARSE_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1"})  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    html = report_of(run, output=tmp_path / "report.html")
    assert 'data-table="robut-source-1"' in html
    report = build_report([run])
    originals = {record["example_id"]: record for record in map(json.loads, (run / "originals.jsonl").read_text().splitlines())}

    def header(relative: str) -> list[str]:
        with (run / relative).open(newline="", encoding="utf-8") as handle:
            return next(csv.reader(handle))

    renamed = []
    for line in (run / "header-synonym.jsonl").read_text().splitlines():
        utterance = json.loads(line)
        pairs = zip(header(originals[utterance["example_id"]]["table"]), header(utterance["table"]))
        renamed.append([f"{a} → {b}" for a, b in pairs if a != b])
    shown = sorted(example.table_edit for example in report.examples if example.perturbation == "header-synonym")
    expected = sorted("columns renamed: " + ", ".join(pairs[:4]) + (" …" if len(pairs) > 4 else "") for pairs in renamed)
    assert shown == expected and shown
    assert {example.table_edit for example in report.examples if example.perturbation == "row-shuffle"} == {"rows reordered"}
