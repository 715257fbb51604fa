"""From a --model name to a victim and from a dataset name to its benchmark (victims/resolution.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import DatasetError, RegistryError, VictimError
from textattack_semparse.registry import Entry, Registry, get_registry
from textattack_semparse.victims import resolution
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser
from textattack_semparse.victims.resolution import (
    dataset_benchmark,
    is_plugin_victim,
    load_dataset,
    required_dataset,
    resolve_victim,
    victim_dataset,
)
from tests.helpers import save_tiny_t5


@pytest.fixture(autouse=True)
def geo_mini_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``geo`` resolves to the embedded geo-mini."""
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    yield


@pytest.fixture(scope="module")
def t5_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_t5(tmp_path_factory.mktemp("tiny-t5"), "what is the capital of texas SELECT FROM WHERE".split())


def config_dir(path: Path, config: object) -> Path:
    path.mkdir()
    (path / "config.json").write_text(json.dumps(config))
    return path


# --- resolve_victim --------------------------------------------------------------------------


def test_registered_victim_comes_with_its_dataset():
    victim, dataset = resolve_victim("knn-geo")
    assert isinstance(victim, KNNTemplateParser) and dataset == "geo-question-test"
    assert victim.benchmark is load_benchmark("geo") and victim.database == load_benchmark("geo").database


def test_dataset_argument_wins_over_the_victims_own():
    _, dataset = resolve_victim("knn-geo", dataset="geo-question-train")
    assert dataset == "geo-question-train"


def test_unknown_victim_is_a_registry_error_with_the_closest_name():
    with pytest.raises(RegistryError, match=r"Unknown victim 'knn-goe'\. Did you mean 'knn-geo'\? Registered: .*knn-geo"):
        resolve_victim("knn-goe")


def test_missing_path_is_an_unknown_victim(tmp_path):
    with pytest.raises(RegistryError, match="Unknown victim"):
        resolve_victim(str(tmp_path / "no-such-model"))


def test_directory_without_config_is_a_one_line_victim_error(tmp_path):
    with pytest.raises(VictimError) as raised:
        resolve_victim(str(tmp_path))
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(f"{str(tmp_path)!r} is a directory but not a seq2seq model")
    assert "ForConditionalGeneration" in message


def test_classifier_directory_is_a_victim_error_not_a_classifier(tmp_path):
    bert = config_dir(tmp_path / "bert", {"architectures": ["BertForSequenceClassification"]})
    with pytest.raises(VictimError, match="is a directory but not a seq2seq model"):
        resolve_victim(str(bert))


def test_seq2seq_directory_is_bound_to_the_datasets_benchmark(t5_dir):
    from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

    victim, dataset = resolve_victim(str(t5_dir), dataset="geo-question-test")
    assert isinstance(victim, Seq2SeqParser) and dataset == "geo-question-test"
    assert victim.benchmark is load_benchmark("geo") and victim.database == load_benchmark("geo").database


def test_seq2seq_directory_without_dataset_is_bound_to_nothing(t5_dir):
    victim, dataset = resolve_victim(str(t5_dir))
    assert dataset is None and victim.benchmark is None and victim.database is None


# --- is_plugin_victim / victim_dataset ---------------------------------------------------------


def test_is_plugin_victim(tmp_path, t5_dir):
    assert is_plugin_victim("knn-geo")
    assert is_plugin_victim(str(t5_dir))
    assert not is_plugin_victim("bert-base-uncased-sst2")  # left to TextAttack
    assert not is_plugin_victim(str(tmp_path))


def test_encoder_decoder_flag_without_architectures_is_seq2seq(tmp_path):
    assert is_plugin_victim(str(config_dir(tmp_path / "m", {"is_encoder_decoder": True})))


def test_victim_dataset():
    assert victim_dataset("knn-geo") == "geo-question-test"
    assert victim_dataset("knn-geo", "geo-query-test") == "geo-query-test"
    assert victim_dataset("/some/seq2seq/dir") is None
    assert victim_dataset("/some/seq2seq/dir", "geo-question-test") == "geo-question-test"


# --- required_dataset / load_dataset / dataset_benchmark --------------------------------------


def test_required_dataset_returns_the_dataset():
    assert required_dataset("knn-geo", "geo-question-test") == "geo-question-test"


def test_required_dataset_names_the_fix_and_every_dataset():
    with pytest.raises(DatasetError) as raised:
        required_dataset("/models/t5", None)
    message = str(raised.value)
    assert message.startswith("Victim '/models/t5' names no default dataset; pass one of: ")
    assert ", ".join(get_registry().names("dataset")) in message
    assert "(--dataset for textattack-semparse commands, --dataset-by-model for textattack attack)." in message


def test_load_dataset_carries_its_benchmark():
    dataset = load_dataset("geo-question-test")
    assert dataset.benchmark is load_benchmark("geo") and len(dataset) > 0


def test_load_unknown_dataset_is_a_registry_error():
    with pytest.raises(RegistryError, match=r"Unknown dataset 'geo-question-tset'\. Did you mean 'geo-question-test'\?"):
        load_dataset("geo-question-tset")


def test_dataset_benchmark_of_a_derived_dataset():
    assert dataset_benchmark("geo-query-test") is load_benchmark("geo")
    assert dataset_benchmark(None) is None


def test_dataset_benchmark_of_an_unregistered_name_is_none():
    assert dataset_benchmark("saved-by-an-uninstalled-plugin") is None


def test_dataset_benchmark_of_a_dataset_registered_without_one_is_none(monkeypatch):
    registry = Registry()
    registry.add(Entry(kind="dataset", name="plain", target="json:loads", provider="p"))
    monkeypatch.setattr(resolution, "get_registry", lambda: registry)
    assert dataset_benchmark("plain") is None
