"""Dr.Spider's leaderboard layout, and ``robustness evaluate --dataset drspider-*`` end to end.

The end-to-end tests run on a Dr.Spider release written in ``tmp_path`` from real Spider dev rows
and databases (``tests/drspider_release.py``: one NLQ, one SQL and one DB set, the DB set on a
database with a renamed column). The victim is a real retrieval parser: the template-retrieval
parser (Finegan-Dollak et al. 2018) fitted on Spider dev's ``concert_singer`` questions, which
returns the SQL of the nearest of them; it is registered in-process for these tests.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from textattack_semparse.cli import main
from textattack_semparse.datasets.benchmark import clear_benchmark_cache
from textattack_semparse.registry import Entry, _cached_registry, get_registry
from textattack_semparse.robustness.leaderboards import DRSPIDER_TABLE_COLUMNS, drspider_table
from textattack_semparse.robustness.robustness_metrics import RobustnessMetrics
from textattack_semparse.robustness.robustness_report import RobustnessReport
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.runs.journal import Journal

from tests.drspider_release import DB_POST, NLQ_POST, RENAMED_GOLD, SQL_POST, write_drspider_release

VICTIM = "knn-spider-dev-concert-singer"


def spider_dev_retrieval_parser() -> object:
    """The test victim: template retrieval fitted on Spider dev's concert_singer questions."""
    from textattack_semparse.datasets.spider import load_spider
    from textattack_semparse.victims.knn_template_parser import KNNTemplateParser

    dev = Path(os.environ["SEMPARSE_DATA_DIR"]) / "spider-dev" / "dev.json"
    return KNNTemplateParser([example for example in load_spider(dev) if example.db_id == "concert_singer"], database_values=False)


def report_of(rows: dict[str, tuple[int, int, int]]) -> RobustnessReport:
    """A report whose sets have (perturbed questions, of which originals correct, of which perturbed correct)."""
    perturbations = {
        name: RobustnessMetrics(utterances=total, robust_total=pre, utterances_correct=post)
        for name, (total, pre, post) in rows.items()
    }
    return RobustnessReport("v", "drspider", "execution match (test-suite)", None, 0, 0, 0, perturbations, False)


# --- the layout ---


def test_rows_are_sets_then_category_averages_then_the_average_of_all_sets():
    table = drspider_table(
        report_of({"DB_schema_synonym": (4, 4, 0), "NLQ_keyword_synonym": (10, 5, 5), "NLQ_others": (2, 1, 1)})
    )
    assert table.columns == DRSPIDER_TABLE_COLUMNS
    assert table.rows == [
        ("DB_schema_synonym", 4, 100.0, 0.0, "100.0-0.0"),
        ("NLQ_keyword_synonym", 10, 50.0, 50.0, "50.0-50.0"),
        ("NLQ_others", 2, 50.0, 50.0, "50.0-50.0"),
        ("DB (average of 1 sets)", 4, 100.0, 0.0, "100.0-0.0"),
        ("NLQ (average of 2 sets)", 12, 50.0, 50.0, "50.0-50.0"),
        # The mean over sets (as the leaderboard's "average of all test sets"), not over categories (75.0-25.0).
        ("all (average of 3 sets)", 16, pytest.approx(200 / 3), pytest.approx(100 / 3), "66.7-33.3"),
    ]


def test_a_set_without_scored_questions_is_left_out_of_the_averages():
    table = drspider_table(report_of({"SQL_comparison": (0, 0, 0), "SQL_sort_order": (2, 2, 1)}))
    assert table.rows[0] == ("SQL_comparison", 0, None, None, "n/a-n/a")
    assert table.rows[-1] == ("all (average of 2 sets)", 2, 100.0, 50.0, "100.0-50.0")


def test_the_leaderboard_average_is_the_mean_over_the_seventeen_sets():
    # PICARD's row of the release README: DB 78.9-55.0 (3 sets), NLQ 76.0-65.0 (9), SQL 76.3-74.0 (5),
    # all test sets 76.6-65.9; the mean of the three categories would be 77.1-64.7.
    pre = (3 * 78.9 + 9 * 76.0 + 5 * 76.3) / 17
    post = (3 * 55.0 + 9 * 65.0 + 5 * 74.0) / 17
    assert (round(pre, 1), round(post, 1)) == (76.6, 65.9)


# --- robustness evaluate --dataset drspider-* ---


@pytest.fixture(scope="module")
def drspider_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The fixture release as the configured one, a private cache, and the test victim registered."""
    data = os.environ.get("SEMPARSE_DATA_DIR")
    if not data:
        pytest.skip("SEMPARSE_DATA_DIR is unset: the Dr.Spider fixture is built from real Spider dev rows")
    release = write_drspider_release(tmp_path_factory.mktemp("drspider") / "data", Path(data) / "spider-dev")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DRSPIDER_DIR", str(release))
        patch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path_factory.mktemp("cache")))
        clear_benchmark_cache()
        get_registry().add(Entry(kind="victim", name=VICTIM, target=f"{__name__}:spider_dev_retrieval_parser", provider="tests"))
        yield release
    _cached_registry.cache_clear()
    clear_benchmark_cache()


@pytest.fixture(scope="module")
def evaluated(drspider_env: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """``robustness evaluate --dataset drspider``: what it printed and its run directory."""
    output = tmp_path_factory.mktemp("evaluation")
    capture = tmp_path_factory.mktemp("stdout") / "out.txt"
    with capture.open("w", encoding="utf-8") as handle, pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", handle)
        patch.setenv("COLUMNS", "250")
        code = main(["robustness", "evaluate", "--model", VICTIM, "--dataset", "drspider", "--output-dir", str(output), "--no-progress"])
    assert code == 0
    return capture.read_text(encoding="utf-8"), output


@pytest.mark.real_data
def test_evaluate_prints_the_leaderboard_table(evaluated):
    out, _ = evaluated
    assert "Dr.Spider: knn-spider-dev-concert-singer on drspider (Chang et al. 2023)" in " ".join(out.split())
    for label in ("DB_schema_synonym", "NLQ_keyword_synonym", "SQL_comparison", "DB (average of 1 sets)",
                  "NLQ (average of 1 sets)", "SQL (average of 1 sets)", "all (average of 3 sets)"):  # fmt: skip
        assert label in out
    assert all(column in out for column in DRSPIDER_TABLE_COLUMNS)


@pytest.mark.real_data
def test_the_printed_figures_are_recomputed_from_the_journal(evaluated):
    out, output = evaluated
    test_set = RobustnessTestSet.read(re.search(r"Test set: (\S+)", out).group(1))
    journal = Journal(output / "evaluate.jsonl").read()
    correct = {key: record["outcome"] == "correct" for key, record in journal.items() if key != "victim"}
    assert set(test_set.perturbations) == {"DB_schema_synonym", "NLQ_keyword_synonym", "SQL_comparison"}
    assert {name: len(items) for name, items in test_set.utterances.items()} == {
        "DB_schema_synonym": len(DB_POST), "NLQ_keyword_synonym": len(NLQ_POST), "SQL_comparison": len(SQL_POST)
    }
    figures = {}
    for name, items in test_set.utterances.items():
        pre = 100 * sum(correct[f"originals/{item.example_id}"] for item in items) / len(items)
        post = 100 * sum(correct[f"{name}/{index}"] for index in range(len(items))) / len(items)
        figures[name] = (pre, post)
        assert re.search(rf"{name}\s.*\s{pre:.2f}\s.*\s{post:.2f}\s.*\s{pre:.1f}-{post:.1f}", out)
    pre_all = sum(pre for pre, _ in figures.values()) / 3
    post_all = sum(post for _, post in figures.values()) / 3
    assert re.search(rf"all \(average of 3 sets\)\s.*\s{pre_all:.2f}\s.*\s{post_all:.2f}\s.*\s{pre_all:.1f}-{post_all:.1f}", out)
    report = json.loads((output / "robustness.json").read_text(encoding="utf-8"))
    assert {name: row["perturbation_accuracy"] for name, row in report["perturbations"].items()} == pytest.approx(
        {name: post for name, (_, post) in figures.items()}
    )
    # The retrieval parser knows the originals (Spider dev) and not every rewrite.
    assert figures["SQL_comparison"] == (100.0, 0.0)


@pytest.mark.real_data
def test_the_same_query_is_judged_on_each_sides_own_database(evaluated):
    out, output = evaluated
    test_set = RobustnessTestSet.read(re.search(r"Test set: (\S+)", out).group(1))
    journal = Journal(output / "evaluate.jsonl").read()
    renamed = test_set.utterances["DB_schema_synonym"][0]
    assert renamed.gold == RENAMED_GOLD and renamed.db_id == "DB_schema_synonym.post.concert_singer_0"
    original = test_set.originals[renamed.example_id]
    assert original.db_id == "DB_schema_synonym.pre.concert_singer" and renamed.perturbed == original.question
    # The parser answers both with the original's SQL: right on the original database, wrong on the
    # perturbed one (its column "Name" is "Full_Name" there).
    before, after = journal[f"originals/{renamed.example_id}"], journal["DB_schema_synonym/0"]
    assert before["prediction"] == after["prediction"] == original.gold
    assert (before["outcome"], after["outcome"]) == ("correct", "wrong")
    # The unchanged query of row 1 runs on the perturbed database too.
    assert journal["DB_schema_synonym/1"]["outcome"] == "correct"


@pytest.mark.real_data
def test_one_set_with_the_release_given_by_flag(drspider_env, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SEMPARSE_DRSPIDER_DIR")
    arguments = ["robustness", "evaluate", "--model", VICTIM, "--dataset", "drspider-nlq-keyword_synonym",
                 "--drspider-dir", str(drspider_env.parent), "--output-dir", str(tmp_path / "run"), "--no-progress"]  # fmt: skip
    monkeypatch.setenv("COLUMNS", "250")
    assert main(arguments) == 0
    out = capsys.readouterr().out
    assert "NLQ_keyword_synonym" in out and "all (average of 1 sets)" in out and "SQL_comparison" not in out


@pytest.mark.real_data
def test_a_set_missing_from_the_release_is_one_line_naming_the_sets_present(drspider_env, capsys):
    code = main(["robustness", "evaluate", "--model", VICTIM, "--dataset", "drspider-nlq-others", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "'nlq-others' does not exist in the question split of benchmark 'drspider'" in err
