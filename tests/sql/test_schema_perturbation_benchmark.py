"""Schema-perturbed benchmark variants (``<benchmark>-schema-<kind>``): perturbed databases reach the
victims that read a schema, and golds are rewritten (real data; skipped without SEMPARSE_DATA_DIR)."""

from __future__ import annotations

import pytest

from textattack_semparse.datasets.benchmark import clear_benchmark_cache, load_benchmark
from textattack_semparse.victims.llm.prompts import DatabasePrompt
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.registry import get_registry


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path / "cache"))
    clear_benchmark_cache()
    yield tmp_path / "cache"
    clear_benchmark_cache()


def test_variants_and_their_datasets_are_registered():
    registry = get_registry()
    for base in ("geoquery", "spider"):
        for kind in ("synonym", "abbreviation", "table-rename", "column-shuffle", "column-adding"):
            assert f"{base}-schema-{kind}" in registry.names("benchmark")
    assert "geoquery-schema-synonym-question-test" in registry.names("dataset")
    assert "spider-schema-table-rename-dev" in registry.names("dataset")


def test_geoquery_variant_prompts_show_the_new_column_names(real_data_dir, cache):
    benchmark = load_benchmark("geoquery-schema-abbreviation", data_dir=real_data_dir)
    original = load_benchmark("geoquery", data_dir=real_data_dir, use_test_suite=False)
    assert cache in benchmark.database.parents and benchmark.database != original.database
    schema = DatabasePrompt(benchmark.database).schema_text
    assert '"pop" INTEGER' in schema and '"population"' not in schema
    assert '"population"' in DatabasePrompt(original.database).schema_text
    assert len(benchmark.examples) == len(original.examples)  # every gold rewritten
    test = benchmark.split("question", "test")
    rewritten = [example for example in test if "pop" in example.gold and "POPULATION" not in example.gold.upper()]
    assert rewritten
    example = rewritten[0]
    assert benchmark.scoring.judge(example.gold, example.gold, example.db_id).outcome is Outcome.CORRECT
    original_gold = next(e.gold for e in original.split("question", "test") if e.question == example.question)
    assert benchmark.scoring.judge(original_gold, example.gold, example.db_id).outcome is not Outcome.CORRECT


def test_spider_variant_has_one_perturbed_database_per_db_id(real_data_dir, cache):
    benchmark = load_benchmark("spider-schema-table-rename", data_dir=real_data_dir)
    example = next(example for example in benchmark.examples if example.db_id == "concert_singer")
    (database,) = benchmark.databases.for_example("concert_singer")
    assert cache in database.resolve().parents
    schema = DatabasePrompt(database).schema_text
    assert 'CREATE TABLE "singer"' not in schema  # the table got a new name
    assert benchmark.scoring.judge(example.gold, example.gold, example.db_id).outcome is Outcome.CORRECT


def test_every_schema_perturbation_is_registered_for_geoquery_and_spider():
    from textattack_semparse.plugin import SCHEMA_PERTURBATION_DESCRIPTIONS
    from textattack_semparse.registry import get_registry
    from textattack_semparse.sql.schema_perturbation import SCHEMA_PERTURBATIONS

    assert tuple(SCHEMA_PERTURBATION_DESCRIPTIONS) == SCHEMA_PERTURBATIONS
    names = set(get_registry().names("benchmark"))
    assert {f"{base}-schema-{kind}" for base in ("geoquery", "spider") for kind in SCHEMA_PERTURBATIONS} <= names
