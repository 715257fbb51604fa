"""TableQATrainer (fine-tuning a TAPEX/OmniTab-style Table QA model, RobuT's RTA/LeTA training) on a
tiny random TAPEX built here: the labels are the answers TapexParser reads back, the fine-tuned
model learns its examples and loads as a victim, and ``train --base-model`` runs on real WTQ rows."""

from __future__ import annotations

import json

import pytest
import transformers

from tests.helpers import TINY_TABLES, build_tiny_tapex, run_command
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.training.table_qa_trainer import REPORT_FILE, TableQATrainer, answer_text
from textattack_semparse.victims.tapex_parser import TapexParser

EXAMPLES = [
    SemparseExample(question="which city won in 2004", gold="Rome", table=TINY_TABLES[0]),
    SemparseExample(question="how many gold", gold="5|3", table=TINY_TABLES[1]),
]


@pytest.fixture(scope="module")
def base_model(tmp_path_factory):
    # 1,024 positions: the trainer and TapexParser keep 1,024 input tokens by default.
    return build_tiny_tapex(tmp_path_factory.mktemp("tapex-base"), init_std=0.02, max_positions=1024)


def test_labels_are_the_answers_as_tapex_prints_them(base_model) -> None:
    tokenizer = transformers.TapexTokenizer.from_pretrained(base_model)
    features = TableQATrainer(base_model, device="cpu", max_source_length=64).features(tokenizer, EXAMPLES)
    assert [tokenizer.decode(f["labels"], skip_special_tokens=True) for f in features] == ["rome", "5, 3"]
    assert all(len(f["input_ids"]) == len(f["attention_mask"]) <= 64 for f in features)
    question = tokenizer.decode(features[0]["input_ids"], skip_special_tokens=True)
    assert question.startswith("which city won in 2004") and "col : city | year | gold" in question


def test_a_fine_tuned_model_learns_its_examples_and_loads_as_a_victim(base_model, tmp_path) -> None:
    output = tmp_path / "fine-tuned"
    # A learning rate no real model would take: the tiny model must learn two answers in 150 steps.
    trainer = TableQATrainer(
        base_model, output, max_steps=150, batch_size=2, gradient_accumulation_steps=1, learning_rate=1e-2,
        warmup_ratio=0.0, max_source_length=256, checkpoint_every=1000, device="cpu",
    )
    report = trainer.train(EXAMPLES, source="two tiny tables")
    assert report["steps"] == 150 and report["examples"] == 2
    assert json.loads((output / REPORT_FILE).read_text())["source"] == "two tiny tables"
    parser = TapexParser(output, device="cpu", max_length=256, max_new_tokens=8)
    assert parser([(e.question, e.table.to_json()) for e in EXAMPLES]) == ["rome", "5|3"]


def test_examples_without_tables_and_bad_settings_are_refused(base_model, tmp_path) -> None:
    with pytest.raises(DatasetError, match="no table"):
        TableQATrainer(base_model, tmp_path, device="cpu").train([SemparseExample(question="q", gold="a")])
    with pytest.raises(DatasetError, match="No training examples"):
        TableQATrainer(base_model, tmp_path, device="cpu").train([])
    with pytest.raises(ConfigurationError):
        TableQATrainer(base_model, tmp_path, learning_rate=0.0)
    with pytest.raises(ConfigurationError):
        TableQATrainer(base_model, tmp_path, checkpoint_every=0)
    assert answer_text("2004|Oslo") == "2004, Oslo"


@pytest.mark.real_data
def test_train_base_model_fine_tunes_on_wtq_and_the_model_evaluates(base_model, real_data_dir, tmp_path) -> None:
    output = tmp_path / "tapex-wtq"
    env = {"SEMPARSE_DATA_DIR": str(real_data_dir), "HF_HUB_OFFLINE": "1"}
    trained = run_command(
        "textattack-semparse", "train", "--benchmark", "wtq", "--base-model", str(base_model), "--train-examples", "4",
        "--max-steps", "2", "--batch-size", "2", "--gradient-accumulation-steps", "1", "--device", "cpu",
        "--output-dir", str(output), env=env,
    )
    assert trained.returncode == 0, trained.stderr[-3000:]
    assert "the first 4 of wtq-train" in trained.stdout and "--dataset wtq-dev" in trained.stdout
    assert json.loads((output / REPORT_FILE).read_text())["steps"] == 2
    evaluated = run_command(
        "textattack-semparse", "evaluate", "--model", str(output), "--dataset", "wtq-dev", "--num-examples", "2",
        env=env,
    )
    assert evaluated.returncode == 0, evaluated.stderr[-3000:]
    refused = run_command(
        "textattack-semparse", "train", "--benchmark", "wtq", "--base-model", str(base_model), "--train-examples", "4",
        "--augment", str(tmp_path / "missing.tsv"), "--output-dir", str(tmp_path / "x"), env=env,
    )
    assert refused.returncode != 0 and "--train-examples" in refused.stderr
