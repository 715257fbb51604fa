"""The built-in plugin's dataset and victim names for the real benchmarks (docs/datasets.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import benchmark_names, clear_benchmark_cache
from textattack_semparse.registry import get_registry

REAL_VICTIMS = {
    "knn-atis": "atis-question-test",
    "knn-atis-query": "atis-query-test",
    "knn-scholar": "scholar-question-test",
    "knn-scholar-query": "scholar-query-test",
    "knn-advising": "advising-question-test",
    "knn-advising-query": "advising-query-test",
    "knn-geo-lambda": "geo-lambda-test",
    "knn-jobs-lambda": "jobs-lambda-test",
    "knn-atis-lambda": "atis-lambda-test",
}


def test_every_victim_defaults_to_a_registered_dataset() -> None:
    registry = get_registry()
    for entry in registry.entries("victim"):
        assert entry.dataset in registry.names("dataset"), entry.name


def test_real_benchmark_victims_and_their_datasets() -> None:
    registry = get_registry()
    assert {name: registry.get("victim", name).dataset for name in REAL_VICTIMS} == REAL_VICTIMS
    assert not any(name.startswith("knn-spider") for name in registry.names("victim"))


def test_dataset_names_follow_the_scheme() -> None:
    registry = get_registry()
    for entry in registry.entries("dataset"):
        options = entry.options
        assert options["benchmark"] in benchmark_names()
        two_kinds = entry.name == f"{options['benchmark']}-{options['split_type']}-{options['split']}"
        one_kind = entry.name == f"{options['benchmark']}-{options['split']}" and options["split_type"] == "question"
        assert two_kinds or one_kind, entry.name


def test_real_data_descriptions_say_they_need_the_data() -> None:
    registry = get_registry()
    for kind in ("dataset", "victim"):
        for entry in registry.entries(kind):
            if not entry.name.startswith("geo-") and entry.name not in ("knn-geo", "knn-geo-query"):
                assert "SEMPARSE_DATA_DIR" in entry.description, entry.name


@pytest.mark.real_data
@pytest.mark.parametrize(
    ("name", "size", "columns"),
    [
        ("atis-query-test", 347, ("question",)),
        ("atis-question-test", 447, ("question",)),
        ("scholar-query-test", 315, ("question",)),
        ("advising-query-test", 1832, ("question",)),
        ("spider-dev", 1034, ("question", "db_id")),
        ("geo-lambda-test", 280, ("question",)),
        ("jobs-lambda-test", 140, ("question",)),
        ("atis-lambda-test", 448, ("question",)),
    ],
)
def test_registered_real_datasets_load(
    real_data_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str, size: int, columns: tuple[str, ...]
) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    clear_benchmark_cache()
    dataset = get_registry().get("dataset", name).create()
    assert len(dataset) == size and dataset.input_columns == columns
