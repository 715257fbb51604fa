"""The in-context-learning study on Scholar (Zhuo et al. 2023 study GeoQuery and Scholar) with the
packaged local LLM: Scholar is published without a database, so the prompt shows the schema and
example rows of a test suite distilled from that schema, which also scores the predictions."""

from __future__ import annotations

import csv

import pytest

from tests.helpers import SMOLLM2_MISSING, run_command, smollm2_gguf

GGUF = smollm2_gguf()


@pytest.mark.slow
@pytest.mark.real_data
@pytest.mark.skipif(GGUF is None, reason=SMOLLM2_MISSING)
def test_icl_on_scholar_runs_on_a_distilled_suite_and_writes_the_table(real_data_dir, tmp_path):
    environment = {
        "SEMPARSE_DATA_DIR": str(real_data_dir),
        "SEMPARSE_TEST_SUITE_DIR": str(tmp_path / "suites"),
        "TEXTATTACK_SEMPARSE_CACHE": str(tmp_path / "cache"),
        "HF_HUB_OFFLINE": "1",
    }
    built = run_command(
        "textattack-semparse", "test-suite", "build", "--benchmark", "scholar", "--output-dir", str(tmp_path / "suites"),
        "--max-databases", "1", "--candidates", "3", "--split", "test", "--split-type", "query", "--no-progress",
        env=environment,
    )
    assert built.returncode == 0, built.stderr
    study = run_command(
        "textattack-semparse", "icl", "--model", f"hf-causal:{GGUF}?max_new_tokens=24", "--dataset",
        "scholar-query-test", "--shots", "1", "--num-examples", "1", "--output-dir", str(tmp_path / "icl"),
        "--no-progress",
        env=environment, timeout=1800,
    )
    assert study.returncode == 0, study.stderr
    assert "on scholar-query-test" in study.stdout and "1-shot random" in study.stdout
    with open(tmp_path / "icl" / "icl.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["cell"] for row in rows] == ["1-shot_random_none"]
    assert rows[0]["demonstrations"] == "1" and rows[0]["perturbation"] == "typo"
    assert (tmp_path / "icl" / "icl.json").is_file() and (tmp_path / "icl" / "icl.png").is_file()
