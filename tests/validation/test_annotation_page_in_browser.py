"""The annotation page in headless Chromium (tools/browser.py), used as an annotator uses it: the
name asked first, items labelled with the keys, a reload that loses nothing, going back to change
an answer, the download of the judgments, and that file imported."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from tests.validation.validation_data import geo_test_set
from textattack_semparse.cli import main
from textattack_semparse.experiments import validate
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from tools.browser import BrowserPage, open_page


def exported(tmp_path: Path, task: str) -> tuple[Path, list[dict]]:
    source = tmp_path / "test-set"
    geo_test_set(source, typos=task == "best-of-k")
    directory = tmp_path / "export"
    validate.export(validate.ExportConfig(sources=[source], output_dir=directory, task=task))
    return directory, [json.loads(line) for line in (directory / "items.jsonl").read_text(encoding="utf-8").splitlines()]


def text(opened: BrowserPage, selector: str) -> str:
    return opened.page.locator(selector).inner_text().strip()


def wait_until_stored(opened: BrowserPage, page_file: Path, judged: int) -> None:
    """Wait until a second tab of the page reads ``judged`` labels from localStorage.

    Chromium hands a page's localStorage writes to its storage service asynchronously, so a reload
    on a busy machine can read the entry before the last write has landed (what a person pressing
    F5 a second later never meets). Another tab's copy is updated once the write has landed.
    """
    other = opened.page.context.new_page()
    try:
        other.goto(page_file.as_uri())
        other.wait_for_function(
            """judged => Object.keys(localStorage).some(key => {
                 const saved = JSON.parse(localStorage.getItem(key));
                 return saved && saved.labels && Object.keys(saved.labels).length === judged;
               })""",
            arg=judged,
        )
    finally:
        other.close()


def download(opened: BrowserPage, folder: Path) -> tuple[str, list[dict]]:
    """Press the download button; the suggested file name and the rows of the CSV saved."""
    with opened.page.expect_download() as started:
        opened.page.click("#download")
    saved = folder / started.value.suggested_filename
    started.value.save_as(saved)
    with saved.open(encoding="utf-8", newline="") as handle:
        return started.value.suggested_filename, list(csv.DictReader(handle))


def test_labels_by_key_survive_a_reload_go_back_download_and_import(chromium, artifacts_dir, tmp_path):
    directory, items = exported(tmp_path, "same-meaning")
    page_file = directory / "annotate.html"
    with open_page(page_file, executable=chromium) as opened:
        page = opened.page
        assert page.locator("#who").is_visible() and not page.locator("#task").is_visible()
        page.keyboard.press("s")  # no name yet: nothing is labelled
        page.fill("#annotator", "Ann Lee")
        page.press("#annotator", "Enter")
        assert text(opened, "#progress") == f"0 of {len(items)} judged"
        assert (text(opened, "#original"), text(opened, "#rewrite")) == (items[0]["original"], items[0]["rewrite"])
        for key in ("s", "d", "u"):
            page.keyboard.press(key)
        assert text(opened, "#progress") == f"3 of {len(items)} judged"
        assert text(opened, "#position") == f"Item 4 of {len(items)}"

        wait_until_stored(opened, page_file, judged=3)
        page.reload()
        assert text(opened, "#annotator-name") == "Ann Lee"
        assert text(opened, "#progress") == f"3 of {len(items)} judged"
        assert text(opened, "#position") == f"Item 4 of {len(items)}"
        assert text(opened, "#original") == items[3]["original"]

        page.keyboard.press("b")
        assert text(opened, "#position") == f"Item 3 of {len(items)}"
        assert text(opened, "#answer") == "Your answer: Not sure"
        page.keyboard.press("Backspace")
        assert text(opened, "#answer") == "Your answer: Different meaning"
        assert page.locator('button[data-label="different"]').get_attribute("class") == "chosen"
        page.keyboard.press("s")  # changed: the second item is the same after all
        assert text(opened, "#position") == f"Item 3 of {len(items)}"
        page.click('button[data-label="different"]')  # the third by click
        assert text(opened, "#progress") == f"3 of {len(items)} judged"

        name, rows = download(opened, tmp_path)
        page.screenshot(path=str(artifacts_dir / "annotate.png"), full_page=True)
        assert not opened.problems, opened.problems
    assert name == "judgments-Ann_Lee.csv"
    assert rows == [
        {"item_id": items[0]["item_id"], "annotator": "Ann Lee", "label": "same"},
        {"item_id": items[1]["item_id"], "annotator": "Ann Lee", "label": "same"},
        {"item_id": items[2]["item_id"], "annotator": "Ann Lee", "label": "different"},
    ]
    # One annotator: the majority rule keeps what she calls the same (huang-2021 needs two).
    output = tmp_path / "validated"
    assert main(["validate", "import", str(directory), str(tmp_path / name), "--output-dir", str(output), "--rule", "majority"]) == 0
    kept = {(u.original, u.perturbed) for name in ("deletion", "distraction") for u in RobustnessTestSet.read(output).utterances.get(name, ())}
    assert kept == {(item["original"], item["rewrite"]) for item in items[:2]}
    assert json.loads((output / "validation.json").read_text())["annotators"] == ["Ann Lee"]


def test_best_of_k_picks_by_number_or_none(chromium, tmp_path):
    directory, items = exported(tmp_path, "best-of-k")
    with open_page(directory / "annotate.html", executable=chromium) as opened:
        page = opened.page
        page.fill("#annotator", "expert")
        page.click("#start")
        shown = page.locator("#candidates li").all_inner_texts()
        assert [line.split(" ", 1)[1] for line in shown] == [candidate["rewrite"] for candidate in items[0]["candidates"]]
        page.keyboard.press("2")
        page.keyboard.press("n")
        page.locator("#candidates li").nth(2).click()
        assert text(opened, "#progress") == f"3 of {len(items)} judged"
        page.keyboard.press("b")
        assert text(opened, "#answer").startswith("Your answer: candidate 3 (")
        name, rows = download(opened, tmp_path)
        assert not opened.problems, opened.problems
    assert name == "judgments-expert.csv"
    assert [row["label"] for row in rows] == ["2", "none", "3"]
