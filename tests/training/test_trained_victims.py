"""Trained victims on geo-mini (embedded, offline): a tiny T5 trained on first use into a temporary
cache, loaded from it afterwards, resumed after an interrupted first use, and found by the
registered ``seq2seq-*`` names (``resolve_victim`` and the stock ``textattack attack``)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import shutil
import threading
import time
from pathlib import Path

import pytest
import transformers

from textattack_semparse.cache import CACHE_ENV
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.training.parser_trainer import CHECKPOINT_FOLDER, TRAINING_FILE
from textattack_semparse.training.trained_victims import (
    TRAINED_FOLDER,
    estimated_minutes,
    trained_parser,
    trained_victim_dir,
)
from tests.helpers import run_command

TINY = {
    "d_model": 16,
    "d_ff": 32,
    "num_layers": 1,
    "num_heads": 2,
    "batch_size": 16,
    "warmup_steps": 0,
    "epochs": 1,
    "device": "cpu",
}
STEPS_PER_EPOCH = 5
"""geo-mini's question split has 70 training examples: 5 batches of 16."""


class Interrupted(Exception):
    """Stands in for Ctrl-C or a killed process right after an epoch checkpoint."""


@pytest.fixture(scope="module")
def first_use(tmp_path_factory: pytest.TempPathFactory):
    """The first use of a tiny geo-mini victim in an empty cache: the parser and what it said."""
    cache = tmp_path_factory.mktemp("cache")
    stderr = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(cache))
        patch.setenv("SEMPARSE_DATA_DIR", "")
        with contextlib.redirect_stderr(stderr):
            parser = trained_parser("geo-mini", victim_name="seq2seq-geo-mini", **TINY)
    return cache, parser, stderr.getvalue()


@pytest.fixture(autouse=True)
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    return cache


def test_first_use_announces_the_victim_where_and_how_long(first_use):
    _, parser, stderr = first_use
    [said] = [line for line in stderr.splitlines() if line.startswith("textattack-semparse:")]
    assert "Training victim 'seq2seq-geo-mini' on benchmark 'geo-mini' (question split, 70 training examples)" in said
    assert parser.model_name_or_path in said
    assert "under a minute on this CPU, much less on a GPU" in said


def test_first_use_writes_a_finished_model_under_the_cache(first_use, monkeypatch):
    cache, parser, _ = first_use
    monkeypatch.setenv(CACHE_ENV, str(cache))
    model_dir = Path(parser.model_name_or_path)
    assert model_dir == trained_victim_dir("geo-mini", **TINY)
    assert model_dir.parent == cache / TRAINED_FOLDER and model_dir.name.startswith("geo-mini-question-")
    report = json.loads((model_dir / TRAINING_FILE).read_text())
    assert report["global_step"] == STEPS_PER_EPOCH and report["settings"]["d_model"] == 16
    assert not (model_dir / CHECKPOINT_FOLDER).exists()
    assert sorted(path.name for path in model_dir.parent.iterdir()) == [f".{model_dir.name}.lock", model_dir.name]


def test_second_use_loads_from_the_cache_without_training(first_use, monkeypatch, capsys):
    cache, parser, _ = first_use
    monkeypatch.setenv(CACHE_ENV, str(cache))
    marker = Path(parser.model_name_or_path) / TRAINING_FILE
    before = marker.stat().st_mtime_ns
    again = trained_parser("geo-mini", victim_name="seq2seq-geo-mini", **TINY)
    assert again.model_name_or_path == parser.model_name_or_path
    assert marker.stat().st_mtime_ns == before
    assert capsys.readouterr().err == ""


def test_parser_is_bound_to_the_benchmark_and_its_split_type(first_use):
    _, parser, _ = first_use
    assert parser.benchmark is load_benchmark("geo-mini")
    assert parser.split_type == "question"
    assert parser.device == "cpu"


def test_gold_loss_of_the_loaded_victim_is_finite(first_use):
    _, parser, _ = first_use
    examples = load_benchmark("geo-mini").split("question", "test")[:3]
    losses = parser.gold_loss([example.question for example in examples], [example.gold for example in examples])
    assert len(losses) == 3 and all(math.isfinite(loss) and loss > 0 for loss in losses)


def test_different_settings_train_into_different_directories():
    base = trained_victim_dir("geo-mini", **TINY)
    assert trained_victim_dir("geo-mini", **{**TINY, "d_model": 32}) != base
    assert trained_victim_dir("geo-mini", **{**TINY, "architecture": "t5"}) != base
    assert trained_victim_dir("geo-mini", split_type="query", **TINY).name.startswith("geo-mini-query-")
    assert trained_victim_dir("geo", **TINY).name.startswith("geo-question-")


def test_settings_are_hashed_with_their_defaults_filled_in():
    assert trained_victim_dir("geo-mini") == trained_victim_dir("geo-mini", d_model=128, architecture="bart")


@pytest.mark.parametrize("revision", ["ANONYMIZATION_REVISION", "GRAMMAR_REVISION"])
def test_the_anonymisers_and_the_grammars_revisions_are_part_of_the_hash(monkeypatch, revision):
    """A victim cached with an older anonymiser or output grammar is trained again, not reused."""
    from textattack_semparse.training import trained_victims

    current = trained_victim_dir("geo-mini", **TINY)
    monkeypatch.setattr(trained_victims, revision, getattr(trained_victims, revision) - 1)
    assert trained_victim_dir("geo-mini", **TINY) != current


def test_device_does_not_change_the_directory():
    assert trained_victim_dir("geo-mini", **{**TINY, "device": None}) == trained_victim_dir("geo-mini", **TINY)


def test_bad_setting_is_rejected_before_anything_is_written(empty_cache):
    with pytest.raises(ValueError, match="d_model"):
        trained_parser("geo-mini", **{**TINY, "d_model": 0})
    assert not empty_cache.exists()


@pytest.mark.real_data
def test_the_data_is_part_of_the_hash(real_data_dir, monkeypatch):
    """``geo`` is geo-mini without a data directory; a model trained on it must not be reused on GeoQuery."""
    without = trained_victim_dir("geo", **TINY)
    with_data = trained_victim_dir("geo", data_dir=real_data_dir, **TINY)
    assert without != with_data


def test_interrupted_first_use_leaves_no_model_and_the_next_use_resumes(empty_cache, monkeypatch, capsys):
    settings = {**TINY, "epochs": 2}
    save_checkpoint = transformers.Trainer._save_checkpoint

    def save_then_interrupt(self, *args, **kwargs):
        save_checkpoint(self, *args, **kwargs)
        raise Interrupted

    monkeypatch.setattr(transformers.Trainer, "_save_checkpoint", save_then_interrupt)
    with pytest.raises(Interrupted):
        trained_parser("geo-mini", **settings)
    model_dir = trained_victim_dir("geo-mini", **settings)
    partial = model_dir.with_name(f".{model_dir.name}.partial")
    assert not model_dir.exists()
    assert (partial / CHECKPOINT_FOLDER / f"checkpoint-{STEPS_PER_EPOCH}").is_dir()
    assert not (partial / TRAINING_FILE).exists()

    monkeypatch.setattr(transformers.Trainer, "_save_checkpoint", save_checkpoint)
    capsys.readouterr()
    parser = trained_parser("geo-mini", **settings)
    assert "Resuming the interrupted training of a seq2seq victim" in capsys.readouterr().err
    report = json.loads((Path(parser.model_name_or_path) / TRAINING_FILE).read_text())
    assert report["resumed_from"].endswith(f"checkpoint-{STEPS_PER_EPOCH}")
    assert report["global_step"] == 2 * STEPS_PER_EPOCH
    assert not partial.exists()


def test_a_leftover_without_checkpoints_is_discarded_and_training_starts_over(empty_cache, capsys):
    model_dir = trained_victim_dir("geo-mini", **TINY)
    partial = model_dir.with_name(f".{model_dir.name}.partial")
    partial.mkdir(parents=True)
    (partial / "config.json").write_text("{half written")
    parser = trained_parser("geo-mini", **TINY)
    assert "Training a seq2seq victim" in capsys.readouterr().err
    report = json.loads((Path(parser.model_name_or_path) / TRAINING_FILE).read_text())
    assert report["resumed_from"] is None
    assert json.loads((model_dir / "config.json").read_text())["d_model"] == 16


def test_a_second_process_waits_for_the_first_and_loads_its_model(first_use, capsys):
    import fcntl

    _, trained, _ = first_use
    model_dir = trained_victim_dir("geo-mini", **TINY)
    lock = model_dir.with_name(f".{model_dir.name}.lock")
    lock.parent.mkdir(parents=True)
    results: list[object] = []
    with lock.open("a") as held:  # the "first process", training
        fcntl.flock(held, fcntl.LOCK_EX)
        waiter = threading.Thread(target=lambda: results.append(trained_parser("geo-mini", **TINY)))
        waiter.start()
        said = ""
        for _ in range(600):  # until the waiter reports that it waits (a deadline, not a timing assertion)
            said += capsys.readouterr().err
            if "Waiting for another process" in said:
                break
            time.sleep(0.1)
        shutil.copytree(trained.model_name_or_path, model_dir)  # the first process finishes
        fcntl.flock(held, fcntl.LOCK_UN)
    waiter.join()
    said += capsys.readouterr().err
    assert "Waiting for another process" in said and "Training" not in said
    [parser] = results
    assert parser.model_name_or_path == str(model_dir)


def _place_at_registered_path(trained: Path, benchmark: str) -> Path:
    """Put a tiny trained model where the registered victim (default settings) looks for its model."""
    target = trained_victim_dir(benchmark)
    shutil.copytree(trained, target)
    return target


def test_registered_victim_resolves_to_the_cached_model(first_use, empty_cache, capsys):
    from textattack_semparse.victims.resolution import resolve_victim

    _, trained, _ = first_use
    target = _place_at_registered_path(Path(trained.model_name_or_path), "geo-mini")
    victim, dataset = resolve_victim("seq2seq-geo-mini")
    assert (victim.model_name_or_path, dataset) == (str(target), "geo-mini-question-test")
    assert victim.benchmark is load_benchmark("geo-mini") and victim.split_type == "question"
    assert capsys.readouterr().err == ""


def test_stock_textattack_attack_loads_the_cached_victim(first_use, empty_cache, tmp_path):
    _, trained, _ = first_use
    _place_at_registered_path(Path(trained.model_name_or_path), "geo")
    summary = tmp_path / "summary.json"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-geo", "--model", "seq2seq-geo", "--num-examples", "2",
        "--log-summary-to-json", str(summary), "--disable-stdout",
        env={CACHE_ENV: str(empty_cache), "SEMPARSE_DATA_DIR": "", "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Training" not in result.stderr
    results = json.loads(summary.read_text())["Attack Results"]
    attacked = ("Number of successful attacks:", "Number of failed attacks:", "Number of skipped attacks:")
    assert sum(int(results[key]) for key in attacked) == 2


def test_the_announced_estimate_counts_the_reconstruction_models_epochs():
    """The estimate scales examples x epochs: geo-lambda's defaults (600 questions and 600 recombined
    pairs for 50 epochs, then a reconstruction model for 40 epochs over the 600 questions) take as long
    as the parser alone plus a parser of 40 epochs over 600 questions."""
    from textattack_semparse.training.parser_trainer import ParserTrainer

    defaults = ParserTrainer("geo-lambda", "unused", device="cpu")
    assert (defaults.recombined_examples, defaults.epochs, defaults.reconstruction_epochs) == (600, 50, 40)
    parser_alone = ParserTrainer("geo-lambda", "unused", device="cpu", reconstruction_epochs=0)
    reconstruction_alone = ParserTrainer(
        "geo-lambda", "unused", device="cpu", recombined_examples=0, epochs=40, reconstruction_epochs=0
    )
    assert estimated_minutes(defaults, 600) == pytest.approx(
        estimated_minutes(parser_alone, 600) + estimated_minutes(reconstruction_alone, 600)
    )
