"""jia-liang-concat: "concatenating two random examples as a new example" (Huang et al. 2021's RQ5
baseline, after Jia & Liang 2016): each new example is two distinct training examples, questions
joined and logical forms joined; ceil(fraction × N) of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textattack_semparse.augmentation.concatenation import concatenated_examples
from textattack_semparse.cli import main
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.errors import DatasetError
from textattack_semparse.training.parser_trainer import TRAINING_FILE

GEO_LINES = (
    "how big is new york\t(size:<lo,i> new_york:s)\n"
    "what is the population of austin\t(population:<lo,i> austin_tx:c)\n"
    "what is the capital of the state of texas\t(capital:<s,c> texas:s)\n"
    "how long is the mississippi river\t(len:<r,i> mississippi_river:r)\n"
    "what is the highest point in florida\t(highest:<lo,lo> florida:s)\n"
)


def examples() -> list[SemparseExample]:
    return [SemparseExample(*line.split("\t")) for line in GEO_LINES.splitlines()]


def test_each_new_example_joins_two_distinct_examples_question_and_logical_form() -> None:
    originals = examples()
    by_question = {example.question: example.gold for example in originals}
    new = concatenated_examples(originals, 20, seed=3)
    assert len(new) == 20
    for example in new:
        pair = [(q, g) for q, g in by_question.items() if example.question.startswith(q + " ")]
        assert len(pair) == 1, example.question
        first_question, first_gold = pair[0]
        second_question = example.question[len(first_question) + 1 :]
        assert second_question in by_question and second_question != first_question
        assert example.gold == f"{first_gold} {by_question[second_question]}"
    assert concatenated_examples(originals, 20, seed=3) == new
    assert concatenated_examples(originals, 20, seed=4) != new


def test_text2sql_examples_and_a_single_example_are_refused() -> None:
    templated = SemparseExample("cities in texas", "SELECT ...", template_question="cities in state_name0")
    with pytest.raises(DatasetError, match="text2sql"):
        concatenated_examples([templated, templated], 1, seed=0)
    with pytest.raises(DatasetError, match="at least two"):
        concatenated_examples(examples()[:1], 1, seed=0)


def test_augment_writes_the_file_then_ceil_fraction_n_concatenations(tmp_path: Path) -> None:
    source = tmp_path / "geo.tsv"
    source.write_text(GEO_LINES, encoding="utf-8")
    output = tmp_path / "concat.tsv"
    assert main(["augment", "--recipe", "jia-liang-concat", "--input", str(source), "--output", str(output),
                 "--sample", "0.5", "--no-judge"]) == 0
    text = output.read_text(encoding="utf-8")
    assert text.startswith(GEO_LINES)
    added = load_logical_forms(output)[5:]
    assert len(added) == -(-5 * 5 // 10) == 3  # ceil(0.5 x 5)


@pytest.mark.real_data
def test_train_augment_jia_liang_concat_draws_from_the_training_examples(tmp_path: Path, real_data_dir: Path) -> None:
    output = tmp_path / "concat"
    assert main(["train", "--benchmark", "geo-lambda", "--data-dir", str(real_data_dir), "--output-dir", str(output),
                 "--augment", "jia-liang-concat", "--max-steps", "1", "--d-model", "16", "--d-ff", "32", "--layers",
                 "1", "--heads", "2", "--warmup-steps", "0", "--device", "cpu"]) == 0
    report = json.loads((output / TRAINING_FILE).read_text(encoding="utf-8"))
    # geo-lambda trains on all 600 training questions (no dev split, none held out by its defaults),
    # so 600 concatenations of them (fraction 1)
    assert (report["train_examples"], report["extra_train_examples"]) == (1200, 600)
    assert report["extra_source"] == "600 from jia-liang-concat of 600 training examples"
