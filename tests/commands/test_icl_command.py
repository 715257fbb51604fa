"""`textattack-semparse icl` end to end on a tiny random causal LM: the tables, the plot, a
resumed re-run, a run killed with SIGKILL at a random point and resumed, and the usage errors."""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import subprocess
import time

import pytest

from tests.helpers import VENV_BIN, run_command
from tests.llm.test_icl_study import save_tiny_causal_lm
from textattack_semparse.llm.icl_results import ROW_FIELDS

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
    journal = [json.loads(line) for line in (output / "cells.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(line["key"] for line in journal) == sorted(row["cell"] for row in rows)
    assert "Wrote " + str(output / "icl.json") in completed.stdout


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
        # the model is looked for before the test set is built or the directory written
        (["--model", "hf-causal:/nowhere"], "could not load '/nowhere': there is no such local directory"),
        (["--model", "hf-causal:/nowhere.gguf"], "could not load '/nowhere.gguf': there is no such file"),
        (["--model", "hf-causal:nobody/no-such-lm"], "not in this machine's Hugging Face cache; HF_HUB_OFFLINE is set"),
    ],
)
def test_usage_errors_name_the_fix(arguments, message, tmp_path, environment):
    completed = run_command(
        "textattack-semparse", "icl", "--dataset", "geo-mini-question-test", "--output-dir", str(tmp_path / "out"),
        *arguments, env=environment,
    )  # fmt: skip
    assert completed.returncode == 2 and message in completed.stderr
    assert not (tmp_path / "out").exists()


RUN_FACTS = ("seconds", "cache", "cache_hits", "cache_misses")
"""What describes a run, not its results: the seconds a cell took and its response-cache
lookups (a cell killed midway finds its completions in the cache when resumed)."""


def results_of(output, cache: str) -> tuple[list[dict], dict]:
    """icl.csv and icl.json without :data:`RUN_FACTS`, the cache folder (where the database copy
    lives) written as ``<cache>``."""
    with (output / "icl.csv").open(newline="", encoding="utf-8") as handle:
        rows = [{key: value for key, value in row.items() if key not in RUN_FACTS} for row in csv.DictReader(handle)]
    data = json.loads((output / "icl.json").read_text(encoding="utf-8").replace(cache, "<cache>"))
    for cell in data["cells"]:
        for key in RUN_FACTS:
            cell.pop(key, None)
    for row in data["rows"]:
        for key in RUN_FACTS:
            row.pop(key, None)
    return rows, data


def test_killed_at_a_random_cell_then_resumed_gives_the_uninterrupted_results(study, environment, tmp_path):
    command, first, reference = study
    assert first.returncode == 0, first.stderr
    output = tmp_path / "icl"
    command = [str(VENV_BIN / command[0]), *command[1:]]
    command[command.index("--output-dir") + 1] = str(output)
    reference_cache = environment["TEXTATTACK_SEMPARSE_CACHE"]
    environment = {**os.environ, **environment, "TEXTATTACK_SEMPARSE_CACHE": str(tmp_path / "cache")}
    journal = output / "cells.jsonl"
    lines = random.Random(7).randint(1, 3)  # of 5 cells
    with (tmp_path / "killed.log").open("w") as log:
        process = subprocess.Popen(command, env=environment, stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while process.poll() is None and time.monotonic() < deadline:
            if journal.exists() and journal.read_bytes().count(b"\n") >= lines:
                break
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == -signal.SIGKILL and not (output / "icl.csv").exists()
    finished = journal.read_bytes().count(b"\n")
    assert lines <= finished < 5

    resumed = run_command(*command, "--resume", env=environment)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.count(": read from ") == finished and resumed.stdout.count(": done in ") == 5 - finished
    cache = environment["TEXTATTACK_SEMPARSE_CACHE"]
    assert results_of(output, cache) == results_of(reference, reference_cache)
    keys = [json.loads(line)["key"] for line in journal.read_text(encoding="utf-8").splitlines()]
    assert sorted(keys) == sorted(row["cell"] for row in results_of(reference, reference_cache)[0])  # each once


def test_another_study_in_the_same_directory_is_refused(study, environment):
    command, first, output = study
    assert first.returncode == 0, first.stderr
    changed = [*command, "--seed", "3"]
    completed = run_command(*changed, env=environment)
    assert completed.returncode == 2 and "seed: 0 then, 3 now" in completed.stderr
