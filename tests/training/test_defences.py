"""The studies' defences as training data (Huang et al. 2021 §4): augmented files and
adversarial examples found against a parser trained here, on geo-mini (offline)."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.text2sql import fill_placeholders
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.training.defences import augmented_examples
from textattack_semparse.training.parser_trainer import ParserTrainer
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser
from tests.helpers import run_command

SMALL = {"architecture": "t5", "d_model": 64, "d_ff": 128, "num_layers": 2, "num_heads": 4, "batch_size": 16, "device": "cpu"}


@pytest.fixture(autouse=True)
def geo_mini_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")


def _geo_mini_entries() -> list[dict]:
    path = resources.files("textattack_semparse") / "resources" / "geo_mini" / "geo-mini.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _with_rewrites(entries: list[dict]) -> tuple[list[dict], list[str]]:
    """geo-mini plus one rewritten training question per entry that has one (as augment writes)."""
    entries = copy.deepcopy(entries)
    added = []
    for entry in entries:
        train = [sentence for sentence in entry["sentences"] if sentence["question-split"] == "train"]
        if train:
            rewrite = dict(train[0], text="please tell me " + train[0]["text"])
            entry["sentences"].append(rewrite)
            added.append(fill_placeholders(rewrite["text"], rewrite["variables"]))
    return entries, added


def test_augmented_examples_are_the_files_training_questions_not_in_the_split(tmp_path):
    geo = load_benchmark("geo-mini")
    entries, added = _with_rewrites(_geo_mini_entries())
    path = tmp_path / "geo-mini-mda.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    found = augmented_examples(path, geo, geo.split("question", "train"))
    assert sorted(example.question for example in found) == sorted(added)
    for example in found:
        assert example.template_question.startswith("please tell me ")
        assert fill_placeholders(example.template_gold, example.variables) == example.gold


def test_augmented_file_errors_name_the_fix(tmp_path):
    geo = load_benchmark("geo-mini")
    with pytest.raises(DatasetError, match="textattack-semparse augment"):
        augmented_examples(tmp_path / "missing.json", geo, geo.split("question", "train"))
    unchanged = tmp_path / "unchanged.json"
    unchanged.write_text(json.dumps(_geo_mini_entries()), encoding="utf-8")
    with pytest.raises(DatasetError, match="adds no question"):
        augmented_examples(unchanged, geo, geo.split("question", "train"))


def test_train_augment_adds_the_files_questions_to_training(tmp_path):
    entries, added = _with_rewrites(_geo_mini_entries())
    augmented = tmp_path / "augmented.json"
    augmented.write_text(json.dumps(entries), encoding="utf-8")
    output_dir = tmp_path / "model"
    result = run_command(
        "textattack-semparse",
        "train", "--benchmark", "geo-mini", "--output-dir", str(output_dir), "--augment", str(augmented),
        "--d-model", "16", "--d-ff", "32", "--layers", "1", "--heads", "2", "--max-steps", "2", "--device", "cpu",
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((output_dir / "semparse_training.json").read_text())
    assert report["extra_train_examples"] == len(added)
    assert report["train_examples"] == len(load_benchmark("geo-mini").split("question", "train")) + len(added)


@pytest.fixture(scope="module")
def memorising_parser(tmp_path_factory: pytest.TempPathFactory):
    """A small parser trained until it gets most geo-mini training questions right."""
    output_dir = tmp_path_factory.mktemp("geo-mini-parser")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", "")
        ParserTrainer("geo-mini", output_dir, epochs=60, learning_rate=3e-3, warmup_steps=20, patience=60, **SMALL).train()
    return output_dir


def test_adversarial_examples_are_successful_attacks_with_their_sources_gold(memorising_parser, tmp_path, monkeypatch):
    from textattack_semparse.experiments import attack
    from textattack_semparse.experiments.train import TrainConfig, defence_examples
    from textattack_semparse.runs.run_context import RunContext, RunOptions

    geo = load_benchmark("geo-mini")
    config = TrainConfig(
        "geo-mini", tmp_path / "retrained", trainer_options=SMALL, adversarial_from=str(memorising_parser),
        adversarial_recipe="semparse-geo", adversarial_examples=20,
    )  # fmt: skip
    trainer = ParserTrainer("geo-mini", tmp_path / "retrained", **SMALL)
    train = trainer.splits()[0][:20]  # the training part of the split (geo-mini has a dev split)
    victim = Seq2SeqParser(memorising_parser, benchmark=geo)
    right = [example for example, output in zip(train, victim([e.question for e in train])) if geo.scoring.judge(output, example.gold).outcome is Outcome.CORRECT]
    assert len(right) >= 5, "the parser should have learnt most training questions"
    found, sources = defence_examples(config, trainer, RunContext(RunOptions(progress=False)))
    assert found and sources == [f"{len(found)} adversarial (semparse-geo against {memorising_parser})"]
    by_gold = {}
    for example in train:
        by_gold.setdefault(example.gold, []).append(example)
    outputs = victim([example.question for example in found])
    for example, output in zip(found, outputs):
        sources = [source for source in by_gold[example.gold] if source.question != example.question]
        assert sources, "an adversarial question is a rewrite of a training question with the same gold"
        assert fill_placeholders(example.template_question, example.variables) == example.question
        assert not geo.scoring.judge(output, example.gold).outcome is Outcome.CORRECT  # it fools the parser it was found against
    # The attack is a resumable run of its own: a second call reads its journal and attacks nothing.
    journal = tmp_path / "retrained" / "adversarial" / "semparse-geo" / "examples.jsonl"
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 20
    monkeypatch.setattr(attack, "build_attack", lambda spec: pytest.fail("a finished example was attacked again"))
    assert defence_examples(config, trainer, RunContext(RunOptions(progress=False)))[0] == found


def test_the_parser_reads_placeholders_and_writes_the_questions_values(memorising_parser):
    geo = load_benchmark("geo-mini")
    train = [example for example in geo.split("question", "train") if example.variables][:20]
    victim = Seq2SeqParser(memorising_parser, benchmark=geo)
    assert victim.anonymizer is not None
    outputs = victim([example.question for example in train])
    right = [example for example, output in zip(train, outputs) if output == example.gold]
    assert right, "a memorising parser reproduces some training golds exactly, values included"
    for example in right:
        model_input = victim.anonymizer.anonymize(example.question).text
        assert all(value.lower() not in model_input for value in example.variables.values())
        assert all(value in example.gold for value in example.variables.values())


def test_train_augment_with_a_recipe_writes_the_augmented_file_and_trains_on_it(tmp_path):
    output_dir = tmp_path / "model"
    result = run_command(
        "textattack-semparse", "train", "--benchmark", "geo-mini", "--output-dir", str(output_dir),
        "--augment", "semparse-function-words",
        "--d-model", "16", "--d-ff", "32", "--layers", "1", "--heads", "2", "--max-steps", "2", "--device", "cpu",
    )
    assert result.returncode == 0, result.stderr
    augmented = output_dir / "augmented" / "geo-mini-question-train-semparse-function-words.json"
    assert augmented.is_file()
    geo = load_benchmark("geo-mini")
    added = augmented_examples(augmented, geo, geo.split("question", "train"))
    report = json.loads((output_dir / "semparse_training.json").read_text())
    assert report["extra_train_examples"] == len(added) > 0
