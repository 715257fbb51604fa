"""Dr.Spider's released sets: examples, database keys per side, and what a broken release says.

The release is written in ``tmp_path`` from real Spider dev rows and databases
(``tests/drspider_release.py``); the error cases need no real data.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import clear_benchmark_cache, load_benchmark
from textattack_semparse.datasets.drspider import (
    DRSPIDER_CATEGORIES,
    DRSPIDER_SETS,
    drspider_release_folder,
    load_drspider,
)
from textattack_semparse.datasets.example import ORIGINAL
from textattack_semparse.errors import DatasetError
from textattack_semparse.registry import get_registry
from textattack_semparse.scoring.outcome import Outcome

from tests.drspider_release import DB_POST, NLQ_POST, RENAMED_GOLD, SQL_POST, write_drspider_release
from tests.helpers import run_command, save_tiny_t5


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    value = os.environ.get("SEMPARSE_DATA_DIR")
    if not value:
        pytest.skip("SEMPARSE_DATA_DIR is unset: the Dr.Spider fixture is built from real Spider dev rows")
    root = tmp_path_factory.mktemp("drspider")
    write_drspider_release(root / "data", Path(value) / "spider-dev")
    return root


@pytest.fixture
def drspider_env(release: Path, real_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixture release is the configured one (``SEMPARSE_DRSPIDER_DIR``); benchmarks load afresh."""
    monkeypatch.setenv("SEMPARSE_DRSPIDER_DIR", str(release))
    clear_benchmark_cache()
    yield release
    clear_benchmark_cache()


def test_seventeen_sets_in_three_categories_as_the_release_names_its_folders():
    assert len(DRSPIDER_SETS) == 17
    assert {category: len(names) for category, names in DRSPIDER_CATEGORIES.items()} == {"DB": 3, "NLQ": 9, "SQL": 5}
    assert {"DB_schema_synonym", "DB_DBcontent_equivalence", "NLQ_keyword_synonym", "SQL_comparison", "SQL_NonDB_number"} <= set(
        DRSPIDER_SETS
    )


def test_one_dataset_per_set_and_one_for_all_of_the_drspider_benchmark():
    registry = get_registry()
    assert [name for name in registry.names("benchmark") if name.startswith("drspider")] == ["drspider"]
    datasets = [name for name in registry.names("dataset") if name.startswith("drspider")]
    assert len(datasets) == 18 and {"drspider", "drspider-db-schema_synonym", "drspider-sql-NonDB_number"} <= set(datasets)
    assert {registry.get("dataset", name).options["benchmark"] for name in datasets} == {"drspider"}
    assert registry.get("dataset", "drspider-nlq-keyword_synonym").options["split"] == "nlq-keyword_synonym"
    assert registry.get("dataset", "drspider").options["split"] is None


@pytest.mark.real_data
def test_originals_and_rewrites_of_a_question_set(release, real_data_dir):
    loaded = load_drspider(release / "data", ["NLQ_keyword_synonym"], data_dir=real_data_dir)
    originals = [example for example in loaded.examples if example.perturbation == ORIGINAL]
    rewrites = [example for example in loaded.examples if example.perturbation != ORIGINAL]
    # Question 0 is perturbed twice: one original, two rewrites pointing at it.
    assert [example.example_id for example in originals] == [f"NLQ_keyword_synonym/pre/{q}" for q in (0, 2, 4)]
    assert [example.question for example in rewrites] == [question for _, question in NLQ_POST]
    assert [example.original_id for example in rewrites] == [f"NLQ_keyword_synonym/pre/{q}" for q, _ in NLQ_POST]
    assert {example.perturbation for example in rewrites} == {"NLQ_keyword_synonym"}
    assert {example.question_split for example in loaded.examples} == {"nlq-keyword_synonym"}
    assert {example.query_split for example in loaded.examples} == {"nlq-keyword_synonym"}
    assert originals[0].question == "How many singers do we have?" and rewrites[0].gold == originals[0].gold


@pytest.mark.real_data
def test_each_side_of_a_set_has_its_own_database_key(release, real_data_dir):
    loaded = load_drspider(release / "data", data_dir=real_data_dir)
    assert loaded.sets == ("DB_schema_synonym", "NLQ_keyword_synonym", "SQL_comparison")
    spider_database = real_data_dir / "spider-dev" / "database" / "concert_singer" / "concert_singer.sqlite"
    renamed = release / "data" / "DB_schema_synonym" / "database_post_perturbation" / "concert_singer_0" / "concert_singer_0.sqlite"
    assert dict(loaded.databases) == {
        "DB_schema_synonym.pre.concert_singer": spider_database,
        "DB_schema_synonym.post.concert_singer_0": renamed,
        "NLQ_keyword_synonym.pre.concert_singer": spider_database,
        "NLQ_keyword_synonym.post.concert_singer": spider_database,
        "SQL_comparison.pre.concert_singer": spider_database,
        "SQL_comparison.post.concert_singer": spider_database,
    }
    rewrites = [example for example in loaded.examples if example.perturbation == "SQL_comparison"]
    assert [(example.question, example.gold) for example in rewrites] == [(question, query) for _, question, query in SQL_POST]


@pytest.mark.real_data
def test_pre_and_post_gold_run_on_their_own_databases(drspider_env):
    benchmark = load_benchmark("drspider")
    assert benchmark.leaderboard == "drspider"
    pre = [example for example in benchmark.examples if example.example_id.startswith("DB_schema_synonym/pre/")]
    post = [example for example in benchmark.examples if example.perturbation == "DB_schema_synonym"]
    assert [example.gold for example in post] == [query for _, query in DB_POST]
    renamed, original = post[0], next(example for example in pre if example.example_id == post[0].original_id)
    scoring = benchmark.scoring
    # The post gold names the renamed column: it runs on the post database only ...
    assert scoring.judge(RENAMED_GOLD, RENAMED_GOLD, renamed.db_id).outcome is Outcome.CORRECT
    assert "full_name" in (scoring.gold_error(RENAMED_GOLD, original.db_id) or "").lower()
    # ... and the pre gold on the original database only.
    assert scoring.judge(original.gold, original.gold, original.db_id).outcome is Outcome.CORRECT
    assert scoring.gold_error(original.gold, renamed.db_id) is not None
    assert scoring.scorer.mode == "test-suite"


@pytest.mark.real_data
def test_without_the_pre_file_the_pre_side_is_spider_dev(release, real_data_dir, tmp_path):
    copy = tmp_path / "data" / "NLQ_keyword_synonym"
    copy.mkdir(parents=True)
    (copy / "questions_post_perturbation.json").write_bytes(
        (release / "data" / "NLQ_keyword_synonym" / "questions_post_perturbation.json").read_bytes()
    )
    with_file = load_drspider(release / "data", ["NLQ_keyword_synonym"], data_dir=real_data_dir)
    without = load_drspider(tmp_path / "data", ["NLQ_keyword_synonym"], data_dir=real_data_dir)
    assert without.examples == with_file.examples


@pytest.mark.real_data
def test_the_aggregate_reads_every_set_present(drspider_env):
    benchmark = load_benchmark("drspider")
    assert {example.perturbation for example in benchmark.examples} == {
        ORIGINAL, "DB_schema_synonym", "NLQ_keyword_synonym", "SQL_comparison"
    }
    rewrites = [example for example in benchmark.examples if example.perturbation != ORIGINAL]
    assert len(rewrites) == len(NLQ_POST) + len(SQL_POST) + len(DB_POST)
    assert [example.question for example in benchmark.split("question", "sql-comparison")][-2:] == [q for _, q, _ in SQL_POST]


@pytest.mark.real_data
def test_a_set_absent_from_the_release_names_the_present_ones(drspider_env):
    with pytest.raises(DatasetError, match=r"'nlq-others' does not exist .*available: db-schema_synonym, nlq-keyword_synonym, sql"):
        load_benchmark("drspider").split("question", "nlq-others")


@pytest.mark.real_data
def test_a_loaded_set_without_its_folder_names_the_present_ones(release, real_data_dir):
    with pytest.raises(DatasetError, match=r"set 'NLQ_others' has no folder .*present: DB_schema_synonym, NLQ_keyword_synonym"):
        load_drspider(release / "data", ["NLQ_others"], data_dir=real_data_dir)


@pytest.mark.real_data
def test_missing_perturbed_database_names_the_folder_to_restore(release, real_data_dir, tmp_path):
    broken = tmp_path / "DB_schema_synonym"
    broken.mkdir()
    for name in ("questions_pre_perturbation.json", "questions_post_perturbation.json"):
        (broken / name).write_bytes((release / "data" / "DB_schema_synonym" / name).read_bytes())
    with pytest.raises(DatasetError, match=r"'concert_singer_0'.*post-perturbation side.*database_post_perturbation/ folder"):
        load_drspider(tmp_path, data_dir=real_data_dir)


# --- a missing or malformed release (no real data needed) ---


def write_set(folder: Path, post: object, pre: object | None = None) -> Path:
    folder.mkdir(parents=True)
    (folder / "questions_post_perturbation.json").write_text(json.dumps(post), encoding="utf-8")
    if pre is not None:
        (folder / "questions_pre_perturbation.json").write_text(json.dumps(pre), encoding="utf-8")
    return folder


ROW = {"db_id": "concert_singer", "query": "SELECT count(*) FROM singer", "question": "How many singers?", "q_id_spider_dev": 0}


def test_no_folder_configured_names_the_variables_and_the_release(monkeypatch):
    monkeypatch.delenv("SEMPARSE_DRSPIDER_DIR", raising=False)
    with pytest.raises(DatasetError, match=r"Set SEMPARSE_DRSPIDER_DIR .* SEMPARSE_DATA_DIR .*'drspider/'.*data\.tar\.gz"):
        drspider_release_folder(None)


def test_missing_release_folder_under_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("SEMPARSE_DRSPIDER_DIR", raising=False)
    with pytest.raises(DatasetError, match=r"drspider' \(from SEMPARSE_DATA_DIR\) does not exist.*tar -xf data\.tar\.gz"):
        drspider_release_folder(tmp_path)


def test_the_release_data_folder_or_the_sets_themselves(tmp_path, monkeypatch):
    monkeypatch.delenv("SEMPARSE_DRSPIDER_DIR", raising=False)
    write_set(tmp_path / "drspider" / "data" / "SQL_comparison", [ROW])
    assert drspider_release_folder(tmp_path) == tmp_path / "drspider" / "data"
    assert drspider_release_folder(None, tmp_path / "drspider" / "data") == tmp_path / "drspider" / "data"
    monkeypatch.setenv("SEMPARSE_DRSPIDER_DIR", str(tmp_path / "drspider"))
    assert drspider_release_folder(None) == tmp_path / "drspider" / "data"


def test_a_folder_without_sets(tmp_path):
    with pytest.raises(DatasetError, match=r"holds none of Dr\.Spider's set folders \(DB_schema_synonym"):
        load_drspider(tmp_path)


def test_unknown_set_name_suggests_the_closest():
    with pytest.raises(DatasetError, match=r"Unknown Dr\.Spider set 'NLQ_keyword_synonyms'\. Did you mean 'NLQ_keyword_synonym'"):
        load_drspider(Path("."), ["NLQ_keyword_synonyms"])


def test_set_without_post_questions(tmp_path):
    (tmp_path / "NLQ_others").mkdir()
    with pytest.raises(DatasetError, match=r"set 'NLQ_others' has no questions_post_perturbation\.json"):
        load_drspider(tmp_path)


def test_pre_and_post_files_of_different_lengths(tmp_path):
    write_set(tmp_path / "NLQ_others", [ROW, ROW], [ROW])
    with pytest.raises(DatasetError, match=r"has 1 questions and .* 2; .* parallel"):
        load_drspider(tmp_path)


def test_rows_that_perturb_different_questions(tmp_path):
    write_set(tmp_path / "NLQ_others", [ROW], [{**ROW, "q_id_spider_dev": 5}])
    with pytest.raises(DatasetError, match=r"Row 0 of .* is Spider dev question 5 but row 0 of .* perturbs question 0"):
        load_drspider(tmp_path)


@pytest.mark.parametrize("value", [None, -1, "x"])
def test_a_question_without_its_spider_dev_id(tmp_path, value):
    row = {key: item for key, item in ROW.items() if key != "q_id_spider_dev"}
    write_set(tmp_path / "NLQ_others", [row if value is None else {**row, "q_id_spider_dev": value}], [ROW])
    with pytest.raises(DatasetError, match=r"entry 0 has no 'q_id_spider_dev'"):
        load_drspider(tmp_path)


def test_a_post_row_without_its_query(tmp_path):
    write_set(tmp_path / "NLQ_others", [{**ROW, "query": ""}], [ROW])
    with pytest.raises(DatasetError, match=r"questions_post_perturbation\.json: entry 0 has no 'query'"):
        load_drspider(tmp_path)


def test_no_pre_file_and_no_spider_dev(tmp_path):
    write_set(tmp_path / "NLQ_others", [ROW])
    with pytest.raises(DatasetError, match=r"pre-perturbation side is Spider dev.*Spider-dev/ folder"):
        load_drspider(tmp_path, data_dir=tmp_path)


def test_databases_found_nowhere(tmp_path):
    write_set(tmp_path / "NLQ_others", [ROW], [ROW])
    with pytest.raises(DatasetError, match=r"Database 'concert_singer' .*\(pre-perturbation side .*data_preprocess\.py"):
        load_drspider(tmp_path)


@pytest.mark.real_data
def test_textattack_attack_runs_on_a_set_with_each_gold_on_its_own_database(release, real_data_dir, tmp_path):
    # No shipped victim parses Spider-format questions over many databases; a tiny randomly initialised
    # T5 directory is a real seq2seq victim that loads offline (it answers wrongly, so attacks are skipped).
    # The DB set's rewrites carry golds that run only on their perturbed database: no gold error means
    # each gold ran on its own side's database.
    model = save_tiny_t5(tmp_path / "t5", "SELECT FROM singer name country age".split(), suppress_special_tokens=True)
    summary = tmp_path / "summary.json"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-deletion", "--model", str(model),
        "--dataset-by-model", "drspider-db-schema_synonym", "--num-examples", "4", "--log-summary-to-json", str(summary),
        "--disable-stdout",
        env={"SEMPARSE_DRSPIDER_DIR": str(release), "TEXTATTACK_SEMPARSE_CACHE": str(tmp_path / "cache")},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads(summary.read_text(encoding="utf-8"))["Attack Results"]
    kinds = ("Number of successful attacks:", "Number of failed attacks:", "Number of skipped attacks:")
    assert sum(int(results[kind]) for kind in kinds) == 4
    assert results["Gold errors (left out):"] == 0
