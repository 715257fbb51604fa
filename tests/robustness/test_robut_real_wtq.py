"""``robustness evaluate --dataset robut-wtq`` end to end on a RobuT-format file built from real WTQ dev tables.

The originals are the first WikiTableQuestions random-split-1 dev questions with their real
tables and answers; the rewrites (synonym headers, reordered rows, reworded questions, and both
at once) are written here by hand, as RobuT's annotators wrote theirs. RobuT's three numbers
per perturbation type are recomputed from the predictions the evaluation journaled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_command
from textattack_semparse.datasets.wtq import load_wtq
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.tables.table import Table

pytestmark = pytest.mark.real_data

ORIGINALS = ("nt-2", "nt-3", "nt-34", "nt-40", "nt-46", "nt-104", "nt-148", "nt-350")
"""Dev questions taken as RobuT's originals (most of them answered correctly by table-lexical)."""

REWRITES: tuple[tuple[str, str, str | None, Mapping[str, str], bool], ...] = (
    # (original, perturbation type, reworded question or None, renamed columns, rows reversed)
    ("nt-2", "word", "which team was the winner before crettyard?", {}, False),
    ("nt-34", "synonym", None, {"Cyclist": "Rider", "Rank": "Position"}, False),
    ("nt-34", "row", None, {}, True),
    ("nt-34", "word", "who was the highest ranked competitor in this race?", {}, False),
    ("nt-40", "synonym", None, {"Silver": "Silver medals", "Nation": "Country"}, False),
    ("nt-40", "row", None, {}, True),
    ("nt-40", "word", "how many silver medals did ukraine win?", {}, False),
    ("nt-40", "combined", "how many silvers did ukraine take home?", {"Silver": "2nd place"}, True),
    ("nt-46", "synonym", None, {"Penalties (P+P+S+S)": "Penalty loops (P+P+S+S)"}, False),
    ("nt-46", "word", "what is the biggest penalty?", {}, False),
    ("nt-46", "combined", "what was the highest number of penalties?", {"Penalties (P+P+S+S)": "Pen."}, False),
    ("nt-104", "synonym", None, {"Composer": "Songwriter", "Date": "Year"}, False),
    ("nt-104", "row", None, {}, True),
    ("nt-104", "word", "which composer released his title later than 2001?", {}, False),
    ("nt-148", "synonym", None, {"Candidate": "Nominee", "Votes": "Ballots"}, False),
    ("nt-148", "row", None, {}, True),
    ("nt-148", "word", "who got the fewest votes?", {}, False),
    ("nt-350", "combined", "what is the number of pylons located in austria?", {"Country": "Nation"}, False),
)


def _row(question: str, table: Table, answers: list[str], perturbation: str, original_id: str) -> dict[str, Any]:
    return {
        "question": question,
        "table": {"header": list(table.header), "rows": [list(row) for row in table.rows]},
        "answers": answers,
        "perturbation_type": perturbation,
        "original_id": original_id,
    }


def write_robut_wtq(real_data_dir: Path, folder: Path) -> None:
    """``folder/wtq.json``: the originals, then the hand-written rewrites, in RobuT's schema."""
    wtq = real_data_dir / "wtq"
    path = wtq / "data" / "random-split-1-dev.tsv"
    ids = [line.split("\t")[0] for line in path.read_text(encoding="utf-8").splitlines()[1:] if line]
    dev = dict(zip(ids, load_wtq(path, root=wtq)))
    originals = {example_id: dev[example_id] for example_id in ORIGINALS}
    rows = [
        _row(example.question, example.table, parse_answer(example.gold), "original", example_id)
        for example_id, example in originals.items()
        if example.table is not None
    ]
    for original_id, perturbation, question, renamed, reversed_rows in REWRITES:
        example = originals[original_id]
        assert example.table is not None
        table = example.table.with_header([renamed.get(name, name) for name in example.table.header])
        if reversed_rows:
            table = table.with_rows(reversed(table.rows))
        rows.append(_row(question or example.question, table, parse_answer(example.gold), perturbation, original_id))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "wtq.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")


def test_evaluate_prints_robuts_table_and_its_numbers_follow_from_the_journal(real_data_dir: Path, tmp_path: Path) -> None:
    robut = tmp_path / "robut"
    write_robut_wtq(real_data_dir, robut)
    output = tmp_path / "evaluation"
    environment = {"SEMPARSE_DATA_DIR": str(real_data_dir), "TEXTATTACK_SEMPARSE_CACHE": str(tmp_path / "cache")}
    arguments = ("robustness", "evaluate", "--model", "table-lexical", "--dataset", "robut-wtq")
    result = run_command(
        "textattack-semparse", *arguments, "--robut-dir", str(robut), "--output-dir", str(output), "--no-progress",
        env=environment,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "RobuT's table: table-lexical on robut-wtq" in result.stdout
    assert "pre-attack acc." in result.stdout and "Std. acc." not in result.stdout
    for name in ("synonym", "row", "word", "combined"):
        assert re.search(rf"│ {name}\s+│", result.stdout), result.stdout
    test_set_dir = Path(re.search(r"Test set: (\S+)", result.stdout).group(1))
    test_set = RobustnessTestSet.read(test_set_dir)
    assert len(test_set.originals) == len(ORIGINALS)  # nt-3 has no rewrite but is an original of the release

    correct = {
        record["key"]: record["value"]["outcome"] == "correct"
        for record in map(json.loads, (output / "evaluate.jsonl").read_text(encoding="utf-8").splitlines())
        if record["key"] != "victim"
    }
    report = RobustnessReport.read(output / "robustness.json")
    rows = {row[0]: row for row in report.robut_rows()}
    for name, items in test_set.utterances.items():
        original = [correct[f"originals/{item.example_id}"] for item in items]
        perturbed = [correct[f"{name}/{index}"] for index in range(len(items))]
        both = sum(o and p for o, p in zip(original, perturbed))
        expected = (
            name,
            len(items),
            100 * sum(original) / len(items),
            100 * sum(perturbed) / len(items),
            100 * both / sum(original) if any(original) else None,
        )
        assert rows[name] == pytest.approx(expected)
        printed = [f"{value:.2f}" if value is not None else "n/a" for value in expected[2:]]
        assert re.search(rf"│ {name}\s+│\s+{len(items)} │\s+" + r" │\s+".join(map(re.escape, printed)), result.stdout)

    robust = [rows[name][4] for name in test_set.perturbations]
    assert any(value is not None for value in robust) and set(robust) != {100.0}  # the metrics discriminate

    again = run_command(
        "textattack-semparse", *arguments, "--robut-dir", str(robut), "--output-dir", str(output), "--no-progress",
        env=environment,
    )  # fmt: skip
    assert again.returncode == 0 and f"Test set: {test_set_dir}" in again.stdout  # the same release, reused
