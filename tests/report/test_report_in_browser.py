"""A report of real runs on geo-mini, opened in headless Chromium as a reader would open it.

Three runs of the CLI on the embedded geo-mini (a robustness run, a TextAttack attack and a
grammatical-error attack, all on ``knn-geo``) go into ``textattack-semparse report``; the page is
then checked in Debian's Chromium: its summary tables carry the figures the runs' own files hold
(read here independently of the report code), every plot loads, the example filter and paging
respond to a reader's selections, and nothing on the page errs or reaches for the network. A
screenshot and the page are kept under ``test-artifacts/`` (or ``$TEST_ARTIFACTS_DIR``).
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import run_command
from tests.report.conftest import DEMO_RUNS, GEO_MINI
from tools.browser import BrowserPage, open_page

pytestmark = pytest.mark.slow

SOURCE_IDS = {name: f"source-{number}" for number, name in enumerate(DEMO_RUNS, start=1)}
"""The page's id of each run: the report numbers its inputs in the order given."""

PAGE_SIZE = 50


@pytest.fixture(scope="module")
def runs(demo_runs) -> dict[str, Path]:
    return demo_runs


@pytest.fixture(scope="module")
def opened(chromium, artifacts_dir, runs, tmp_path_factory) -> Iterator[BrowserPage]:
    """The report of the three runs, open in Chromium; its screenshot and the page are kept."""
    report = tmp_path_factory.mktemp("report") / "report.html"
    done = run_command("textattack-semparse", "report", *map(str, runs.values()), "--output", str(report), env=GEO_MINI, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    shutil.copyfile(report, artifacts_dir / "report.html")
    with open_page(report, width=1280, height=1600, executable=chromium) as browser_page:
        browser_page.page.screenshot(path=str(artifacts_dir / "report.png"), full_page=True)
        yield browser_page


def figure(value: float | None) -> str:
    """A figure as the page shows it."""
    return "n/a" if value is None else f"{value:.2f}"


def row_figures(opened: BrowserPage, selector: str) -> dict[str, str]:
    """``data-metric`` -> text of each metric cell of the one summary-table row ``selector`` picks."""
    rows = opened.page.locator(f"table.summary {selector}")
    assert rows.count() == 1, f"{rows.count()} rows match {selector!r}"
    return rows.first.evaluate(
        "row => Object.fromEntries(Array.from(row.querySelectorAll('td[data-metric]'), "
        "cell => [cell.dataset.metric, cell.textContent.trim()]))"
    )


def visible_examples(opened: BrowserPage) -> list[dict[str, str]]:
    """The data attributes of the examples a reader sees now, in page order."""
    return opened.page.locator("article.example:visible").evaluate_all("articles => articles.map(a => ({...a.dataset}))")


def select(opened: BrowserPage, *, perturbation: str = "", outcome: str = "", source: str = "") -> None:
    """Choose the example filters as a reader does ("" = all); no source filter when there is none."""
    opened.page.select_option("#filter-perturbation", perturbation)
    opened.page.select_option("#filter-outcome", outcome)
    if opened.page.locator("#filter-source").count():
        opened.page.select_option("#filter-source", source)


def shown_total(opened: BrowserPage) -> int:
    """The total of ``#example-count`` ("Showing 1–50 of 123 examples" -> 123)."""
    text = opened.page.inner_text("#example-count")
    found = re.search(r"\bof\s+([\d,]+)", text)
    assert found, f"no total in the example count {text!r}"
    return int(found.group(1).replace(",", ""))


def evaluation_outcomes(run: Path, perturbation: str) -> list[tuple[str, str]]:
    """(original, rewrite) outcome of each utterance of ``perturbation``, read from the run's files:
    ``<perturbation>.jsonl`` line i is journaled as ``<perturbation>/i``, its original as
    ``originals/<example_id>``."""
    journal = {}
    for line in (run / "evaluate.jsonl").read_text().splitlines():
        record = json.loads(line)
        journal[record["key"]] = record["value"]
    utterances = [json.loads(line) for line in (run / f"{perturbation}.jsonl").read_text().splitlines()]
    return [
        (journal[f"originals/{utterance['example_id']}"]["outcome"], journal[f"{perturbation}/{index}"]["outcome"])
        for index, utterance in enumerate(utterances)
    ]


def test_robustness_summary_has_the_runs_figures(opened, runs):
    expected = json.loads((runs["robustness"] / "robustness.json").read_text())
    shown = row_figures(opened, f'tr[data-source="{SOURCE_IDS["robustness"]}"]:has(td[data-metric="perturbation_accuracy"])')
    assert shown["examples"] == str(expected["originals"]["examples"])
    assert shown["standard_accuracy"] == figure(expected["originals"]["standard_accuracy"])
    for metric in ("perturbation_accuracy", "robust_accuracy", "black_box_success_rate"):  # pooled: the micro average
        assert shown[metric] == figure(expected["micro"][metric]), metric
    assert shown["black_box_success_rate"] == "n/a"  # knn-geo has no loss to rank rewrites by


def test_each_perturbation_and_average_has_its_figures(opened, runs):
    expected = json.loads((runs["robustness"] / "robustness.json").read_text())
    rows = {**expected["perturbations"], "micro": expected["micro"], "macro": expected["macro"]}
    for row, metrics in rows.items():
        for metric in ("perturbation_accuracy", "robust_accuracy"):
            # One run, so one cell per (row, metric): the per-perturbation tables have a column per run.
            cells = opened.page.locator(f'table.summary tr[data-row="{row}"] td[data-metric="{metric}"]')
            assert cells.all_text_contents() == [figure(metrics[metric])], (row, metric)


@pytest.mark.parametrize("run", ["attack", "grammar"])
def test_attack_summary_has_the_runs_counts_and_rates(opened, runs, run):
    if run == "attack":  # TextAttack's own summary, its rates already rounded to 2 decimals
        summary = json.loads((runs[run] / "attack_summary.json").read_text())["Attack Results"]
        succeeded, failed, skipped = (summary[f"Number of {kind} attacks:"] for kind in ("successful", "failed", "skipped"))
        rates = {
            "standard_accuracy": summary["Original accuracy:"],
            "accuracy_under_attack": summary["Accuracy under attack:"],
            "attack_success_rate": summary["Attack success rate:"],
        }
    else:
        summary = json.loads((runs[run] / "summary.json").read_text())
        succeeded, failed, skipped = summary["succeeded"], summary["failed"], summary["skipped"]
        rates = {metric: summary[metric] for metric in ("standard_accuracy", "attack_success_rate", "robust_accuracy")}
    assert succeeded + failed + skipped == 28  # every geo-mini test question, none left out
    expected = {
        "succeeded": str(succeeded),
        "failed": str(failed),
        "skipped": str(skipped),
        "robust_accuracy": figure(100 * failed / (succeeded + failed)),  # failed attacks among the attacked
        "accuracy_under_attack": figure(100 * failed / (succeeded + failed + skipped)),
        **{metric: figure(value) for metric, value in rates.items()},
    }
    shown = row_figures(opened, f'tr[data-source="{SOURCE_IDS[run]}"]:has(td[data-metric="attack_success_rate"])')
    assert {metric: shown.get(metric) for metric in expected} == expected


def test_every_plot_and_image_loads(opened):
    images = opened.page.locator("img").evaluate_all(
        "images => images.map(image => ({src: image.src.slice(0, 30), complete: image.complete, width: image.naturalWidth}))"
    )
    assert len(images) >= 3, images
    assert all(image["src"].startswith("data:") for image in images), images  # inlined: the file stands alone
    assert all(image["complete"] and image["width"] > 0 for image in images), images
    assert opened.page.locator("figure.plot img").count() >= 3
    assert all(caption.strip() for caption in opened.page.locator("figure.plot figcaption").all_inner_texts())
    boxes = opened.page.locator("svg").evaluate_all(
        "svgs => svgs.filter(svg => !svg.closest('[hidden], details:not([open])'))"
        ".map(svg => { const box = svg.getBoundingClientRect(); return [box.width, box.height]; })"
    )
    assert all(width > 0 and height > 0 for width, height in boxes), boxes


def test_filter_shows_only_the_chosen_perturbation_and_outcome(opened, runs):
    pairs = evaluation_outcomes(runs["robustness"], "typo")
    broken = sum(1 for before, after in pairs if before == "correct" and after == "wrong")
    fixed = sum(1 for before, after in pairs if before == "wrong" and after == "correct")
    assert broken > 0 and fixed > 0 and broken + fixed <= PAGE_SIZE  # the data has some of each, on one page
    options = opened.page.locator("#filter-perturbation option").evaluate_all("options => options.map(o => o.value)")
    assert options[0] == "" and set(json.loads((runs["robustness"] / "robustness.json").read_text())["perturbations"]) <= set(options)
    outcomes = opened.page.locator("#filter-outcome option").evaluate_all("options => options.map(o => o.value)")
    assert outcomes[0] == "" and {"broken", "fixed", "robust", "wrong"} <= set(outcomes)
    for outcome, count in (("broken", broken), ("fixed", fixed)):
        select(opened, perturbation="typo", outcome=outcome)
        shown = visible_examples(opened)
        assert all(example["perturbation"] == "typo" and example["outcome"] == outcome for example in shown), shown
        assert all(example["source"] == SOURCE_IDS["robustness"] for example in shown), shown
        assert len(shown) == count == shown_total(opened)
    select(opened)


@pytest.mark.parametrize("run", ["attack", "grammar"])
def test_source_filter_counts_each_attack_outcome(opened, runs, run):
    with (runs[run] / "attack_log.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    # TextAttack's result types in the report's terms: a successful attack broke the victim, a failed one
    # left it right, a skipped question was wrong before any edit.
    expected = {outcome: sum(row["result_type"] == kind for row in rows) for outcome, kind in
                (("broken", "Successful"), ("robust", "Failed"), ("wrong", "Skipped"))}
    for outcome, count in expected.items():
        select(opened, source=SOURCE_IDS[run], outcome=outcome)
        shown = visible_examples(opened)
        assert all(example["source"] == SOURCE_IDS[run] and example["outcome"] == outcome for example in shown), shown
        assert len(shown) == min(count, PAGE_SIZE)
        assert (shown_total(opened) if count else 0) == count, opened.page.inner_text("#example-count")
    select(opened)


def test_next_page_shows_the_next_examples(opened):
    select(opened)
    examples = opened.page.locator("article.example")
    total = shown_total(opened)
    assert total == examples.count() > PAGE_SIZE  # 231 rewrites and 56 attacked questions: several pages

    def visible_positions() -> list[int]:
        return examples.evaluate_all("articles => articles.flatMap((a, i) => a.checkVisibility() ? [i] : [])")

    assert visible_positions() == list(range(PAGE_SIZE))
    opened.page.click("#page-next")
    assert visible_positions() == list(range(PAGE_SIZE, min(2 * PAGE_SIZE, total)))
    assert re.search(rf"\b{PAGE_SIZE + 1}\b", opened.page.inner_text("#example-count"))
    opened.page.click("#page-previous")
    assert visible_positions() == list(range(PAGE_SIZE))


def test_examples_are_listed_worst_first(opened):
    ranks = {outcome: rank for rank, outcome in enumerate(("broken", "wrong", "fixed", "robust", "left out"))}
    outcomes = opened.page.locator("article.example").evaluate_all("articles => articles.map(a => a.dataset.outcome)")
    assert outcomes[0] == "broken" and "robust" in outcomes
    assert [ranks[outcome] for outcome in outcomes] == sorted(ranks[outcome] for outcome in outcomes)


def test_each_source_names_the_command_that_made_it(opened):
    commands = opened.page.locator("details.provenance code.command").all_text_contents()
    for run, args in DEMO_RUNS.items():
        assert any(" ".join(args) in command for command in commands), (run, commands)


def test_page_has_no_console_errors_page_errors_or_failed_requests(opened):
    # Last: the clicks of the tests above ran the page's scripts too.
    assert opened.problems == []


def test_screenshot_is_kept(opened, artifacts_dir):
    png = (artifacts_dir / "report.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") == 1280  # the IHDR width: the viewport's
