"""Huang et al. (2021)'s released sets, read from their layout built in tmp_path around real
geo-lambda questions (read from SEMPARSE_DATA_DIR at test time) and hand-written rewrites."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_command
from textattack_semparse.cli import main
from textattack_semparse.datasets.benchmark import clear_benchmark_cache, load_benchmark
from textattack_semparse.datasets.example import ORIGINAL
from textattack_semparse.datasets.huang2021 import NO_LOGICAL_FORM, NOT_FOUND, OPERATIONS, operation_pairs
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.errors import DatasetError
from textattack_semparse.robustness.released_test_set import released_test_set
from textattack_semparse.victims.resolution import load_dataset

pytestmark = pytest.mark.real_data

CAPITAL = "how many people live in the capital of texas"
ALASKA = "what are the major cities in alaska"
SMALLEST = "which state is the smallest"
SWALLOW = "what is the airspeed velocity of an unladen swallow ?"
# Huang's logical forms (Dong & Lapata's untyped notation); the golds come from geo-lambda instead.
FORMS = {
    CAPITAL: "( population:i ( capital:c texas:s ) )",
    ALASKA: "( lambda $0 e ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 alaska:s ) ) )",
    SMALLEST: "( argmin $0 ( state:t $0 ) ( size:i $0 ) )",
    SWALLOW: "( airspeed:i swallow:n )",
}
REWRITES = {
    "insert": {CAPITAL: "how many people really live in the capital of texas ?", ALASKA: "what are all the major cities in alaska ?",
               SMALLEST: "which state is the very smallest ?", SWALLOW: "what is the airspeed velocity of an unladen swallow then ?"},
    "remove": {CAPITAL: "how many people live in capital of texas ?", ALASKA: "what are major cities in alaska ?",
               SMALLEST: "which state is smallest ?"},
    "replace": {CAPITAL: "how many persons live in the capital of texas ?", ALASKA: "what are the main cities in alaska ?",
                SMALLEST: "what state is the smallest ?"},
    "non": {CAPITAL: "how many people live within the capital of texas ?", ALASKA: "what are the major cities of alaska ?",
            SMALLEST: "which state is the tiniest ?"},
    "back": {CAPITAL: "how many inhabitants does the capital of texas have ?", ALASKA: "which are the big cities in alaska ?",
             SMALLEST: "what is the smallest state ?"},
    "para": {CAPITAL: "in the capital of texas how many people live ?", ALASKA: "in alaska what are the major cities ?",
             SMALLEST: "the smallest state is which ?"},
}


def _released(question: str) -> str:
    """The original as the release spells it: capitalised, tokenised, with a question mark."""
    return question if question == SWALLOW else f"{question[0].upper()}{question[1:]} ?"


def _write(path: Path, lines: list[tuple[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{question}\t{form}\n" for question, form in lines), encoding="utf-8")


@pytest.fixture(scope="module")
def data_dir(real_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``lambda/`` linked to the real one, ``huang2021/`` in Huang's layout."""
    root = tmp_path_factory.mktemp("huang-data")
    (root / "lambda").symlink_to(real_data_dir / "lambda")
    release = root / "huang2021"
    for operation, rewrites in REWRITES.items():
        folder = release / "meaning_preserving_test_set" / operation / "geo"
        _write(folder / f"geo_{operation}_o.txt", [(_released(question), FORMS[question]) for question in rewrites])
        _write(folder / f"geo_{operation}.txt", [(rewrite, FORMS[question]) for question, rewrite in rewrites.items()])
    # The cleaned pair (stemmed, anonymised) beside insert's plain one: plain questions match geo-lambda better.
    insert = release / "meaning_preserving_test_set" / "insert" / "geo"
    _write(insert / "geo_insert_o_cleaned.txt", [("how mani peopl live in the capit of s0", "( population:i ( capital:c s0 ) )")])
    _write(insert / "geo_insert_cleaned.txt", [("how mani peopl realli live in the capit of s0", "( population:i ( capital:c s0 ) )")])
    adversarial = release / "adversarial_test_set" / "seq2seq"
    _write(adversarial / "seq2seq_geo_insert_ad.txt", [
        ("how many people live in the capital of texas state ?", FORMS[CAPITAL]),
        ("what are the major cities found in alaska ?", FORMS[ALASKA]),
        ("how fast does a swallow fly ?", "( speed:i swallow:n )"),
    ])
    return root


@pytest.fixture
def released_data(data_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path / "cache"))
    clear_benchmark_cache()
    yield data_dir
    clear_benchmark_cache()


def _geo_lambda_gold(real_data_dir: Path, question: str) -> str:
    test = load_logical_forms(real_data_dir / "lambda" / "geo" / "geo_lambda_calculus_test.tsv")
    return next(example.gold for example in test if example.question == question)


def test_every_operation_pairs_rewrites_with_their_originals_geo_lambda_gold(released_data, real_data_dir):
    benchmark = load_benchmark("huang2021-geo")
    originals = [example for example in benchmark.examples if example.perturbation == ORIGINAL]
    assert sorted(example.question for example in originals) == sorted([CAPITAL, ALASKA, SMALLEST])
    by_id = {example.example_id: example for example in originals}
    rewrites = [example for example in benchmark.examples if example.perturbation != ORIGINAL]
    assert {(example.perturbation, example.question) for example in rewrites} == {
        (operation, rewrite) for operation, pairs in REWRITES.items() for question, rewrite in pairs.items() if question != SWALLOW
    }
    for rewrite in rewrites:
        original = by_id[rewrite.original_id]
        assert rewrite.gold == original.gold == _geo_lambda_gold(real_data_dir, original.question)
        assert rewrite.question_split == rewrite.perturbation
        assert rewrite.question == REWRITES[rewrite.perturbation][original.question]
    assert benchmark.scoring.describe() == load_benchmark("geo-lambda").scoring.describe()
    assert benchmark.leaderboard == "huang-2021"


def test_unmatched_original_and_the_ignored_cleaned_pair_are_reported(released_data):
    benchmark = load_benchmark("huang2021-geo")
    assert dict(benchmark.left_out) == {"insert": ((NOT_FOUND, 1),)}
    assert "1 release lines left out" in benchmark.source
    files = {Path(name).name for name, _ in benchmark.source_files}
    assert "geo_insert_o.txt" in files and "geo_insert_o_cleaned.txt" not in files
    assert "geo_lambda_calculus_test.tsv" in {path.name for _, path in benchmark.source_files}


def test_operation_folder_pairs_plain_and_cleaned_files(released_data):
    insert = released_data / "huang2021" / "meaning_preserving_test_set" / "insert" / "geo"
    plain, cleaned = operation_pairs(insert)
    assert (plain.originals.name, plain.rewrites.name) == ("geo_insert_o.txt", "geo_insert.txt")
    assert (cleaned.originals.name, cleaned.rewrites.name) == ("geo_insert_o_cleaned.txt", "geo_insert_cleaned.txt")


def test_folder_without_one_originals_file_is_a_clear_error(tmp_path):
    (tmp_path / "geo_a.txt").write_text("q\tf\n")
    (tmp_path / "geo_b.txt").write_text("q\tf\n")
    with pytest.raises(DatasetError, match=r"0 plain originals file\(s\) \(name containing '_o'\) and 2 plain rewrites"):
        operation_pairs(tmp_path)


def test_misaligned_pair_is_a_clear_error(released_data, real_data_dir, tmp_path):
    broken = tmp_path / "data"
    broken.mkdir()
    (broken / "lambda").symlink_to(real_data_dir / "lambda")
    folder = broken / "huang2021" / "meaning_preserving_test_set" / "para" / "geo"
    _write(folder / "geo_para_o.txt", [(_released(SMALLEST), FORMS[SMALLEST]), (_released(ALASKA), FORMS[ALASKA])])
    _write(folder / "geo_para.txt", [("the smallest state is which ?", FORMS[SMALLEST])])
    with pytest.raises(DatasetError, match="the two files must be line-aligned"):
        load_benchmark("huang2021-geo", data_dir=broken)


def test_operation_dataset_holds_its_rewrites_and_the_test_set_brings_their_originals(released_data):
    dataset = load_dataset("huang2021-geo-remove")
    assert {example.perturbation for example in dataset.examples} == {"remove"} and len(dataset) == 3
    test_set = released_test_set("huang2021-geo-remove")
    assert sorted(example.question for example in test_set.originals) == sorted([ALASKA, CAPITAL, SMALLEST])
    assert list(test_set.utterances) == ["remove"] and not test_set.left_out
    whole = released_test_set("huang2021-geo")
    assert list(whole.utterances) == list(OPERATIONS)
    assert {name: dict(counts) for name, counts in whole.left_out.items()} == {"insert": {NOT_FOUND: 1}}


def test_adversarial_lines_are_paired_by_logical_form(released_data, real_data_dir):
    benchmark = load_benchmark("huang2021-adversarial-geo")
    rewrites = [example for example in benchmark.examples if example.perturbation != ORIGINAL]
    assert [(example.perturbation, example.question) for example in rewrites] == [
        ("seq2seq-insert", "how many people live in the capital of texas state ?"),
        ("seq2seq-insert", "what are the major cities found in alaska ?"),
    ]
    assert [example.gold for example in rewrites] == [_geo_lambda_gold(real_data_dir, CAPITAL), _geo_lambda_gold(real_data_dir, ALASKA)]
    assert dict(benchmark.left_out) == {"seq2seq-insert": ((NO_LOGICAL_FORM, 1),)}


def test_robustness_evaluate_prints_huangs_table_per_operation(released_data, capsys):
    assert main(["robustness", "evaluate", "--model", "knn-geo-lambda", "--dataset", "huang2021-geo"]) == 0
    printed = capsys.readouterr().out
    cells = [line.replace("\u2502", " ").split() for line in printed.splitlines()]
    rows = {row[0]: row[1:3] for row in cells if row and row[0] in OPERATIONS}
    assert rows == {operation: ["3", "3"] for operation in OPERATIONS}  # originals and rewrites per operation
    assert f"Left out of insert: 1 {NOT_FOUND}" in printed
    test_set_dir = Path(printed.split("Test set: ")[1].split()[0])
    manifest = json.loads((test_set_dir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["left_out"] == {"insert": {NOT_FOUND: 1}}
    report = json.loads(next(test_set_dir.glob("evaluations/*/robustness.json")).read_text(encoding="utf-8"))
    assert report["originals"]["examples"] == 3


def test_textattack_attack_runs_on_an_operation_dataset(released_data, tmp_path):
    summary = tmp_path / "summary.json"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-insertion", "--model", "knn-geo-lambda",
        "--dataset-by-model", "huang2021-geo-insert", "--num-examples", "3", "--log-summary-to-json", str(summary),
        "--disable-stdout",
        env={"SEMPARSE_DATA_DIR": str(released_data), "TEXTATTACK_SEMPARSE_CACHE": str(tmp_path / "cache")},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    results = json.loads(summary.read_text())["Attack Results"]
    attacked = sum(int(results[key]) for key in ("Number of successful attacks:", "Number of failed attacks:", "Number of skipped attacks:"))
    assert attacked == 3
    assert results["Gold errors (left out):"] == 0
