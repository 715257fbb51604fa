"""ParserTrainer on geo-mini (embedded, offline): a tiny T5 trained for a few steps, saved as a
Hugging Face directory that Seq2SeqParser loads, and resumed from its last checkpoint."""

from __future__ import annotations

import json
import logging
import math
import re
from pathlib import Path

import pytest
import torch
import transformers

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import ConfigurationError, SemparseError
from textattack_semparse.training.parser_trainer import CHECKPOINT_FOLDER, TRAINING_FILE, ParserTrainer, _TrainingData
from textattack_semparse.victims.reconstruction_reranker import RECONSTRUCTION_DIR
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser, is_seq2seq_directory

TINY = {
    "architecture": "t5",
    "d_model": 16,
    "d_ff": 32,
    "num_layers": 1,
    "num_heads": 2,
    "batch_size": 16,
    "warmup_steps": 0,
    "device": "cpu",
}
STEPS_PER_EPOCH = 5
"""geo-mini's question split has 70 training examples: 5 batches of 16."""


@pytest.fixture(autouse=True)
def geo_mini_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    output_dir = tmp_path_factory.mktemp("t5-geo-mini")
    report = ParserTrainer("geo-mini", output_dir, epochs=2, **TINY).train()
    return output_dir, report


def test_output_is_a_standard_seq2seq_directory(trained):
    output_dir, _ = trained
    assert is_seq2seq_directory(output_dir)
    assert {"config.json", "model.safetensors", "tokenizer.json", "generation_config.json"} <= {
        path.name for path in output_dir.iterdir()
    }
    config = transformers.AutoConfig.from_pretrained(output_dir)
    assert config.architectures == ["T5ForConditionalGeneration"]
    assert (config.d_model, config.num_layers) == (16, 1)


def test_report_counts_steps_and_examples(trained):
    output_dir, report = trained
    assert report["global_step"] == 2 * STEPS_PER_EPOCH
    assert (report["train_examples"], report["dev_examples"], report["dev_source"]) == (70, 10, "dev")
    assert 0.0 <= report["best_dev_exact_match"] <= 1.0
    assert json.loads((output_dir / TRAINING_FILE).read_text()) == json.loads(json.dumps(report))


def test_saved_model_is_the_best_checkpoint(trained):
    output_dir, report = trained
    saved = transformers.AutoModelForSeq2SeqLM.from_pretrained(output_dir).state_dict()
    best = transformers.AutoModelForSeq2SeqLM.from_pretrained(report["best_checkpoint"]).state_dict()
    assert all(torch.equal(saved[name], best[name]) for name in saved)


def test_seq2seq_parser_predicts_with_the_trained_model(trained):
    output_dir, _ = trained
    questions = [example.question for example in load_benchmark("geo-mini").split("question", "test")[:4]]
    parser = Seq2SeqParser(output_dir, device="cpu", max_new_tokens=8)
    predictions = parser(questions)
    model, tokenizer, anonymizer = parser.model, parser.tokenizer, parser.anonymizer
    expected = []
    for question in questions:
        # The model reads the question with its entities as placeholders, and its output
        # gets the question's values back (the trainer anonymises by default).
        anonymized = anonymizer.anonymize(question)
        generated = model.generate(**tokenizer(anonymized.text, return_tensors="pt"), max_new_tokens=8, do_sample=False)
        expected.append(anonymizer.deanonymize(tokenizer.decode(generated[0], skip_special_tokens=True).strip(), anonymized.values))
    assert predictions == expected
    assert all(isinstance(prediction, str) for prediction in predictions)


def test_gold_loss_is_the_models_teacher_forced_loss(trained):
    output_dir, _ = trained
    example = load_benchmark("geo-mini").split("question", "test")[0]
    parser = Seq2SeqParser(output_dir, device="cpu")
    [loss] = parser.gold_loss([example.question], [example.gold])
    tokenizer, model, anonymizer = parser.tokenizer, parser.model, parser.anonymizer
    anonymized = anonymizer.anonymize(example.question)
    gold = anonymizer.anonymize_output(example.gold, anonymized.values)
    assert gold != example.gold  # the example's value is a placeholder for the model
    labels = tokenizer(text_target=gold, return_tensors="pt")["input_ids"]
    with torch.inference_mode():
        expected = model(**tokenizer(anonymized.text, return_tensors="pt"), labels=labels).loss
    assert math.isfinite(loss) and loss > 0
    assert loss == pytest.approx(float(expected), rel=1e-5)


def test_bart_round_trip(tmp_path):
    report = ParserTrainer("geo-mini", tmp_path, epochs=1, **{**TINY, "architecture": "bart"}).train()
    assert report["architecture"] == "BartForConditionalGeneration"
    example = load_benchmark("geo-mini").split("question", "test")[0]
    parser = Seq2SeqParser(tmp_path, device="cpu", max_new_tokens=8)
    [prediction] = parser([example.question])
    [loss] = parser.gold_loss([example.question], [example.gold])
    assert isinstance(prediction, str) and math.isfinite(loss) and loss > 0


def test_training_lowers_the_loss(tmp_path):
    report = ParserTrainer("geo-mini", tmp_path, epochs=4, learning_rate=1e-2, **TINY).train()
    checkpoint = Path(report["best_checkpoint"]).parent / f"checkpoint-{report['global_step']}"
    losses = [entry["loss"] for entry in json.loads((checkpoint / "trainer_state.json").read_text())["log_history"] if "loss" in entry]
    assert losses[-1] < losses[0]


def test_resume_continues_the_step_count(tmp_path):
    first = ParserTrainer("geo-mini", tmp_path, epochs=1, **TINY).train()
    assert first["global_step"] == STEPS_PER_EPOCH
    resumed = ParserTrainer("geo-mini", tmp_path, epochs=2, **TINY).train(resume=True)
    assert resumed["resumed_from"] == str(tmp_path / CHECKPOINT_FOLDER / f"checkpoint-{STEPS_PER_EPOCH}")
    assert resumed["global_step"] == 2 * STEPS_PER_EPOCH
    assert (tmp_path / CHECKPOINT_FOLDER / f"checkpoint-{2 * STEPS_PER_EPOCH}").is_dir()


def test_resume_without_a_checkpoint_names_the_folder(tmp_path):
    with pytest.raises(SemparseError, match="no checkpoint under"):
        ParserTrainer("geo-mini", tmp_path, **TINY).train(resume=True)


def test_benchmark_without_dev_split_holds_out_a_seeded_slice(monkeypatch):
    trainer = ParserTrainer("geo-mini", "unused", split_type="question", **TINY)
    monkeypatch.setattr(
        type(load_benchmark("geo-mini")), "split", _split_without_dev(type(load_benchmark("geo-mini")).split)
    )
    train, dev, source = trainer.splits()
    again_train, again_dev, _ = ParserTrainer("geo-mini", "unused", **TINY).splits()
    assert len(dev) == 7 and len(train) == 63
    assert "held-out" in source
    assert dev == again_dev and train == again_train
    assert not set(map(id, dev)) & set(map(id, train))


def _split_without_dev(split):
    from textattack_semparse.errors import DatasetError

    def without_dev(self, split_type="question", name="test"):
        if name == "dev":
            raise DatasetError("no dev split")
        return split(self, split_type, name)

    return without_dev


@pytest.mark.parametrize(
    ("keyword", "value"),
    [("split_type", "fold"), ("architecture", "gpt2"), ("tokenizer_kind", "chars"), ("d_model", 0), ("dev_fraction", 1.0), ("max_steps", 0)],
)
def test_bad_settings_are_rejected_at_construction(keyword, value):
    settings = {**TINY, keyword: value}
    with pytest.raises(ValueError, match=keyword):
        ParserTrainer("geo-mini", "unused", **settings)


def test_train_command_writes_a_model_that_evaluate_loads(tmp_path, capsys):
    from textattack_semparse.cli import main

    output_dir = tmp_path / "model"
    assert (
        main(
            ["train", "--benchmark", "geo-mini", "--output-dir", str(output_dir), "--epochs", "1", "--d-model", "16",
             "--d-ff", "32", "--layers", "1", "--heads", "2", "--batch-size", "16", "--warmup-steps", "0",
             "--device", "cpu"]
        )
        == 0
    )
    captured = capsys.readouterr()
    printed = captured.out
    assert "best dev exact match" in printed
    # The progress bar shows the training loss and the dev accuracy of the last epoch.
    assert re.search(r"loss=\d+\.\d{3}, dev_exact_match=\d+\.\d%", captured.err)
    assert f"evaluate --model {output_dir} --dataset geo-mini-question-test" in printed
    report_file = tmp_path / "report.json"
    assert main(["evaluate", "--model", str(output_dir), "--dataset", "geo-mini-question-test", "--num-examples", "3",
                 "--output", str(report_file)]) == 0
    report = json.loads(report_file.read_text())
    assert report["examples"] == 3 and report["dataset"] == "geo-mini-question-test"


def test_dev_predictions_are_scored_in_example_order(tmp_path):
    from textattack_semparse.training.parser_trainer import _OrderedEvaluationTrainer

    arguments = transformers.Seq2SeqTrainingArguments(output_dir=str(tmp_path), group_by_length=True, use_cpu=True, report_to="none")
    trainer = _OrderedEvaluationTrainer(model=torch.nn.Linear(1, 1), args=arguments)
    dev = [{"input_ids": [1] * length} for length in (3, 9, 1, 7)]
    assert list(trainer._get_eval_sampler(dev)) == [0, 1, 2, 3]


def test_unset_settings_come_from_the_benchmarks_row_of_the_defaults_table():
    from textattack_semparse.training import defaults

    study = ParserTrainer("geo-lambda", "unused", device="cpu")
    row = defaults.for_benchmark("geo-lambda")
    assert row is defaults.PER_BENCHMARK["geo-lambda"]
    assert (study.d_model, study.d_ff, study.num_layers, study.learning_rate) == (256, 1024, 3, 5e-4)
    assert study.dev_selection is False and study.epochs == row.epochs
    # An explicit setting overrides the row; a benchmark without a row gets the general defaults.
    assert ParserTrainer("geo-lambda", "unused", d_model=64, dev_selection=True, device="cpu").d_model == 64
    general = ParserTrainer("geo-mini", "unused", device="cpu")
    assert (general.d_model, general.dev_selection, general.num_beams) == (128, True, 1)
    assert defaults.for_benchmark("ATIS_Lambda").dev_selection is True


def test_train_help_lists_the_defaults_per_benchmark(capsys):
    from textattack_semparse.cli import main

    assert main(["train", "--help"]) == 0
    printed = capsys.readouterr().out
    assert "defaults per benchmark" in printed
    assert (
        "geo-lambda: d_model 256, d_ff 1024, num_layers 3, label_smoothing 0.1, epochs 50, learning_rate 0.0005, "
        "dev_selection False, recombined_examples 600, reconstruction_epochs 40"
    ) in printed
    assert "jobs-lambda: d_model 256, d_ff 1024, num_layers 3, dropout 0.3, learning_rate 0.0005" in printed


def test_without_dev_selection_all_training_examples_train_and_the_last_epoch_is_kept(tmp_path):
    trainer = ParserTrainer("geo-mini", tmp_path, epochs=2, dev_selection=False, num_beams=2, **TINY)
    train, dev, _ = trainer.splits()
    assert dev == [] and train == load_benchmark("geo-mini").split("question", "train")
    report = trainer.train()
    assert (report["train_examples"], report["dev_examples"], report["best_epoch"]) == (70, 0, None)
    assert report["global_step"] == 2 * STEPS_PER_EPOCH and report["epochs_run"] == 2
    saved = transformers.AutoModelForSeq2SeqLM.from_pretrained(tmp_path).state_dict()
    last = transformers.AutoModelForSeq2SeqLM.from_pretrained(
        tmp_path / CHECKPOINT_FOLDER / f"checkpoint-{2 * STEPS_PER_EPOCH}"
    ).state_dict()
    assert all(torch.equal(saved[name], last[name]) for name in saved)
    assert transformers.GenerationConfig.from_pretrained(tmp_path).num_beams == 2


def test_label_smoothing_reaches_the_trainer_and_the_settings(tmp_path):
    smoothed = ParserTrainer("geo-mini", tmp_path, label_smoothing=0.1, **TINY)
    assert smoothed._training_arguments(64).label_smoothing_factor == 0.1
    assert "label_smoothing=0.1" in repr(smoothed)
    plain = ParserTrainer("geo-mini", tmp_path, **TINY)  # geo-mini's defaults: none, and no key (cache keys unchanged)
    assert plain._training_arguments(64).label_smoothing_factor == 0.0 and "label_smoothing=" not in repr(plain)
    assert ParserTrainer("geo-lambda", tmp_path).label_smoothing == 0.1
    for bad in (-0.1, 1.0, True, "0.1"):
        with pytest.raises(ConfigurationError, match="label_smoothing must be in"):
            ParserTrainer("geo-mini", tmp_path, label_smoothing=bad)


def test_a_reconstruction_model_learns_each_training_question_from_its_output(tmp_path, monkeypatch):
    """``reconstruction_epochs`` trains a second model on the parser's training pairs turned around
    (output -> question), saved in ``reconstruction/`` with the tokenizer, which the parser then
    loads to rerank its beam (tests/victims/test_reconstruction_reranker.py checks the reranking)."""
    made: list[list[tuple[str, str]]] = []
    features = ParserTrainer._features

    def recorded(self, tokenizer, pairs):
        made.append(list(pairs))
        return features(self, tokenizer, pairs)

    monkeypatch.setattr(ParserTrainer, "_features", recorded)
    trainer = ParserTrainer("geo-mini", tmp_path, epochs=1, reconstruction_epochs=2, **TINY)
    assert "reconstruction_epochs=2" in repr(trainer)
    report = trainer.train()
    train_pairs, _, turned = made
    assert turned == [(output, question) for question, output in train_pairs]
    steps = math.ceil(len(train_pairs) / TINY["batch_size"])
    assert report["reconstruction"]["epochs_run"] == 2 and report["reconstruction"]["global_step"] == 2 * steps
    assert is_seq2seq_directory(tmp_path / RECONSTRUCTION_DIR)
    assert (tmp_path / RECONSTRUCTION_DIR / "tokenizer.json").read_bytes() == (tmp_path / "tokenizer.json").read_bytes()
    parser = Seq2SeqParser(tmp_path, device="cpu")
    assert len(parser(["how many states are there"])) == 1 and parser.__dict__["_reranker"] is not None
    assert ParserTrainer("geo-mini", tmp_path, **TINY).reconstruction_epochs == 0  # only where the defaults say
    with pytest.raises(ConfigurationError, match="reconstruction_epochs"):
        ParserTrainer("geo-mini", tmp_path, reconstruction_epochs=-1)


def test_recombined_pairs_are_left_out_of_the_questions_pairs():
    data = _TrainingData(
        train_examples=[], extra_count=0, recombined_count=1, dev_examples=[], dev_source="none", anonymizer=None,
        train_pairs=[("how big is s0", "( size s0 )"), ("how big is c0", "( size c0 )")], dev_pairs=[], scorer=None,
    )  # fmt: skip
    assert data.question_pairs == [("how big is s0", "( size s0 )")]


def test_recombination_that_makes_no_pairs_says_so_before_training(tmp_path, caplog):
    # geo-mini's outputs are SQL: no typed logical forms, so no phrase can stand in a placeholder's place
    with caplog.at_level(logging.WARNING, logger="textattack_semparse.training.parser_trainer"):
        data = ParserTrainer("geo-mini", tmp_path, recombined_examples=5, **TINY)._training_data()
    assert data.recombined_count == 0
    assert [record.getMessage().split(":")[0] for record in caplog.records] == ["recombined_examples=5 made no pairs"]
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="textattack_semparse.training.parser_trainer"):
        ParserTrainer("geo-mini", tmp_path, **TINY)._training_data()
    assert not caplog.records
