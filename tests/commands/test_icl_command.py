"""`textattack-semparse icl` end to end on a tiny random causal LM: the tables, the plot, a
resumed re-run, and the usage errors."""

from __future__ import annotations

import csv
import json

import pytest

from tests.helpers import run_command
from tests.llm.test_icl_study import save_tiny_causal_lm
from textattack_semparse.llm.icl_study import ROW_FIELDS

GRID = ["--shots", "0", "2", "--selection", "random", "cluster-tfidf", "--adversarial", "none", "typo"]


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> str:
    return f"hf-causal:{save_tiny_causal_lm(tmp_path_factory.mktemp('tiny-lm'))}?max_new_tokens=4"


@pytest.fixture(scope="module")
def environment(tmp_path_factory) -> dict[str, str]:
    cache = str(tmp_path_factory.mktemp("cache"))
    return {"TEXTATTACK_SEMPARSE_CACHE": cache, "MPLBACKEND": "Agg", "HF_HUB_OFFLINE": "1"}


@pytest.fixture(scope="module")
def study(model, environment, tmp_path_factory):
    output = tmp_path_factory.mktemp("icl")
    command = ["textattack-semparse", "icl", "--model", model, "--dataset", "geo-mini-question-test", *GRID,
               "--num-examples", "2", "--output-dir", str(output)]  # fmt: skip
    return command, run_command(*command, env=environment), output


def test_icl_writes_the_tables_and_the_plot(study):
    _, completed, output = study
    assert completed.returncode == 0, completed.stderr
    assert "per cell and test perturbation" in completed.stdout and "2-shot cluster-tfidf +typo" in completed.stdout
    with (output / "icl.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == ROW_FIELDS and len(rows) == 5  # zero-shot + 2 selections x 2 adversarial, x typo
    assert [(row["shots"], row["selection"], row["adversarial"]) for row in rows][:2] == [
        ("0", "-", "none"),
        ("2", "random", "none"),
    ]
    data = json.loads((output / "icl.json").read_text(encoding="utf-8"))
    assert data["format"] == "textattack-semparse icl result" and data["dataset"] == "geo-mini-question-test"
    assert data["parameters"]["perturbations"] == ["typo"]
    assert [cell["key"] for cell in data["cells"]] == [row["cell"] for row in rows]
    assert all(cell["report"]["perturbations"]["typo"]["utterances"] >= 1 for cell in data["cells"])
    assert len(data["rows"]) == 5 and set(data["rows"][0]) == set(ROW_FIELDS)
    png = (output / "icl.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    assert sorted(path.name for path in (output / "cells").iterdir()) == sorted(f"{row['cell']}.json" for row in rows)


def test_a_rerun_reads_the_finished_cells(study, environment):
    command, first, output = study
    assert first.returncode == 0, first.stderr
    before = (output / "icl.csv").read_text(encoding="utf-8")
    again = run_command(*command, env=environment)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count(": read ") == 5 and "running" not in again.stdout  # every cell read from its file
    assert (output / "icl.csv").read_text(encoding="utf-8") == before


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--model", "knn-geo"], "hf-causal:PATH"),
        (["--model", "hf-causal:/nowhere", "--selection", "rnadom"], "Did you mean 'random'"),
        (["--model", "hf-causal:/nowhere", "--perturbations", "tpyo"], "Did you mean 'typo'"),
    ],
)
def test_usage_errors_name_the_fix(arguments, message, tmp_path, environment):
    completed = run_command(
        "textattack-semparse", "icl", "--dataset", "geo-mini-question-test", "--output-dir", str(tmp_path / "out"),
        *arguments, env=environment,
    )  # fmt: skip
    assert completed.returncode == 2 and message in completed.stderr
    assert not (tmp_path / "out").exists()
