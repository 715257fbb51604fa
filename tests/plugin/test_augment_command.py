"""``textattack-semparse augment`` on text2sql JSON, TSV and CSV files (geo-mini; offline)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tests.helpers import run_command
from textattack_semparse.cli import main
from textattack_semparse.experiments.augment import input_format
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.datasets.text2sql import load_text2sql
from textattack_semparse.errors import DatasetError

RECIPE = "semparse-function-words"
TSV = (
    "what is the population of new york\t(population:<lo,i> new_york:s)\n"
    "which rivers run through the state of colorado\t(lambda $0:e (and:<t*,t> (river:<r,t> $0) "
    "(loc:<lo,<lo,t>> $0 colorado:s)))\n"
)


def augment(*arguments: str) -> int:
    return main(["augment", "--recipe", RECIPE, *arguments])


def test_text2sql_train_split_augmented_in_the_same_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = geo_mini_paths()[0]
    output = tmp_path / "geo-mini-augmented.json"
    assert augment("--input", str(source), "--output", str(output), "--split", "train") == 0
    assert "augmented) to" in capsys.readouterr().out
    original = load_text2sql(source)
    augmented = load_text2sql(output)
    assert len(augmented) > len(original)
    known = {(example.gold, example.question_split) for example in original}
    originals = {example.question for example in original}
    added = [example for example in augmented if example.question not in originals]
    assert added and all(example.question_split == "train" for example in added)
    assert all((example.gold, example.question_split) in known for example in added)


def test_same_seed_gives_the_same_file(tmp_path: Path) -> None:
    source = geo_mini_paths()[0]
    outputs = [tmp_path / "a.json", tmp_path / "b.json"]
    for output in outputs:
        assert augment("--input", str(source), "--output", str(output), "--split", "dev", "--seed", "7") == 0
    assert outputs[0].read_bytes() == outputs[1].read_bytes()


def test_tsv_keeps_logical_forms(tmp_path: Path) -> None:
    source = tmp_path / "geo.tsv"
    source.write_text(TSV, encoding="utf-8")
    output = tmp_path / "out.tsv"
    assert augment("--input", str(source), "--output", str(output), "--exclude-original") == 0
    lines = output.read_text(encoding="utf-8").splitlines()
    logical_forms = [line.split("\t")[1] for line in TSV.splitlines()]
    assert lines and {line.split("\t")[1] for line in lines} <= set(logical_forms)
    assert all(("new york" in line) == (line.split("\t")[1] == logical_forms[0]) for line in lines)


def test_csv_with_gold_column_keeps_sql_byte_identical(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    rows = [
        {
            "question": "what is the population density of texas",
            "sql": 'SELECT population / area FROM state WHERE state_name = "texas"',
        },
        {
            "question": "how many people live in the city of boston",
            "sql": "SELECT population / 1000 FROM city WHERE city_name = 'boston'",
        },
    ]
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question", "sql"])
        writer.writeheader()
        writer.writerows(rows)
    output = tmp_path / "out.csv"
    code = augment("--input", str(source), "--output", str(output), "--input-column", "question", "--gold-column", "sql")
    assert code == 0
    with output.open(newline="", encoding="utf-8") as handle:
        written = list(csv.DictReader(handle))
    assert len(written) > len(rows)
    for row in written:
        source_row = next(r for r in rows if r["sql"] == row["sql"])
        value = "texas" if "texas" in source_row["sql"] else "boston"
        assert value in row["question"].split()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--input", "data.xml"], "Cannot tell the format of 'data.xml'"),
        (["--input", "data.csv"], "--format csv needs --input-column"),
        (["--input", "data.tsv", "--split", "train"], "--split applies to text2sql files only"),
        (["--input", "data.json", "--input-column", "q"], "--input-column/--gold-column apply to csv only"),
        (["--input", "data.json", "--transformations-per-example", "0"], "expected a positive integer, got '0'"),
        (["--input", "absent.json"], "'absent.json' does not exist"),
    ],
)
def test_bad_options_are_clear_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("data.xml", "data.csv", "data.tsv", "data.json"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert augment(*arguments, "--output", "out") == 2
    assert message in capsys.readouterr().err


def test_existing_output_needs_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out.json"
    output.write_text("keep me", encoding="utf-8")
    assert augment("--input", str(geo_mini_paths()[0]), "--output", str(output)) == 2
    assert "--overwrite" in capsys.readouterr().err and output.read_text(encoding="utf-8") == "keep me"


def test_unknown_recipe_suggests_the_closest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["augment", "--recipe", "semparse-function-word", "--input", str(geo_mini_paths()[0]),
                 "--output", str(tmp_path / "o.json")])
    assert code == 2 and "Did you mean 'semparse-function-words'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "expected"), [("a.json", "text2sql"), ("a.TSV", "tsv"), ("train.txt", "tsv"), ("a.csv", "csv")]
)
def test_format_from_suffix(name: str, expected: str) -> None:
    assert input_format(name, None) == expected
    assert input_format(name, "csv") == "csv"


def test_format_without_known_suffix_is_an_error() -> None:
    with pytest.raises(DatasetError, match="pass --format"):
        input_format("data", None)


def test_written_json_has_one_text2sql_entry_per_line(tmp_path: Path) -> None:
    output = tmp_path / "o.json"
    assert augment("--input", str(geo_mini_paths()[0]), "--output", str(output), "--split", "test") == 0
    text = output.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert lines[0] == "[" and lines[-2:] == ["]", ""] and not any(line.startswith(" ") for line in lines)
    entries = [json.loads(line.removesuffix(",")) for line in lines[1:-2]]
    assert entries == json.loads(text) and all(entry["sentences"] and "query-split" in entry for entry in entries)


def test_ends_with_the_path_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "out.json"
    assert augment("--input", str(geo_mini_paths()[0]), "--output", str(output), "--no-progress") == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].endswith(f"to {output}; 0 augmentations dropped because they changed a protected literal.")


@pytest.mark.parametrize("operation", ["random-deletion", "random-swap"])
def test_random_deletion_and_swap_keep_every_gold_literal(tmp_path: Path, operation: str) -> None:
    # These run on word lists (WordListAugmenter); the file keeps only augmentations that re-template.
    # In a fresh process: the draws must not depend on what earlier tests did with shared components.
    # --no-judge: what is checked is that the word-list operations keep every gold literal, on all they
    # rewrite; the meaning judge would drop most deletions (its verdicts are tested in tests/judges).
    output = tmp_path / "out.json"
    arguments = ["--input", str(geo_mini_paths()[0]), "--output", str(output), "--perturbation", operation]
    completed = run_command(
        "textattack-semparse", "augment", "--recipe", "semparse-mda", *arguments, "--exclude-original", "--no-progress",
        "--no-judge",
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    sources: dict[str, list[list[str]]] = {}
    for example in load_text2sql(geo_mini_paths()[0]):
        sources.setdefault(example.gold, []).append(example.question.split())
    added = load_text2sql(output)
    assert len(added) > 100
    for example in added:
        words = example.question.split()
        if operation == "random-deletion":  # two words fewer, the others in order
            assert any(len(words) == len(s) - 2 and _is_subsequence(words, s) for s in sources[example.gold])
        else:  # the same words, two places changed
            assert any(sorted(words) == sorted(s) and sum(a != b for a, b in zip(words, s)) == 2 for s in sources[example.gold])


def _is_subsequence(short: list[str], long: list[str]) -> bool:
    remaining = iter(long)
    return all(word in remaining for word in short)


def test_an_nlpaug_augmenter_augments_with_every_literal_kept(tmp_path: Path) -> None:
    # Typos in every word nlpaug may pick; the literals (new york, colorado) are never among them.
    # --no-judge: the check is on everything the augmenter proposed.
    source = tmp_path / "geo.tsv"
    source.write_text(TSV, encoding="utf-8")
    output = tmp_path / "out.tsv"
    typos = "nlpaug:KeyboardAug:aug_word_p=1.0:aug_word_max=100"
    arguments = ["--input", str(source), "--output", str(output), "--exclude-original", "--no-judge"]
    assert main(["augment", "--recipe", "semparse-mda", "--perturbation", typos, *arguments, "--no-progress"]) == 0
    rows = [line.split("\t") for line in output.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4  # two augmentations per question
    for question, logical_form in rows:
        literal = "new york" if "new_york" in logical_form else "colorado"
        assert question.endswith(literal) and question.split() != TSV.split("\t")[0].split()


def test_sampling_an_nlpaug_augmenter_writes_its_file_under_its_file_safe_name(tmp_path: Path) -> None:
    source = tmp_path / "geo.tsv"
    source.write_text(TSV, encoding="utf-8")
    output = tmp_path / "out.tsv"
    arguments = ["--input", str(source), "--output", str(output), "--sample", "1.0", "--no-judge", "--no-progress"]
    assert main(["augment", "--recipe", "semparse-mda", "--perturbation", "nlpaug:KeyboardAug", *arguments]) == 0
    assert (tmp_path / "out.nlpaug_KeyboardAug.tsv").is_file()
