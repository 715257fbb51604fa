"""Fixtures of the report tests."""

from __future__ import annotations

from pathlib import Path

import pytest

# --- Runs of the report tests: real CLI runs on the embedded geo-mini, made once per session ---

GEO_MINI = {"SEMPARSE_DATA_DIR": "", "HF_HUB_OFFLINE": "1"}
"""The embedded geo-mini, offline."""
DEMO_RUNS = {
    "robustness": ("robustness", "run", "--model", "knn-geo"),
    "attack": ("attack", "--recipe", "semparse-geo", "--model", "knn-geo", "--num-examples", "-1"),
    "grammar": ("grammar-attack", "--recipe", "nucle-greedy", "--model", "knn-geo"),
}
"""The runs of `make demo`, by directory name (before ``--output-dir``)."""


def _run(directory: Path, *arguments: str) -> Path:
    from tests.helpers import run_command

    done = run_command("textattack-semparse", *arguments, "--output-dir", str(directory), "--no-progress", env=GEO_MINI, timeout=900)
    assert done.returncode == 0, f"{' '.join(arguments)} failed:\n{done.stderr[-3000:]}"
    return directory


@pytest.fixture(scope="session")
def demo_runs(tmp_path_factory) -> dict[str, Path]:
    """The three runs `make demo` makes: robustness run, attack, grammatical-error attack of knn-geo."""
    root = tmp_path_factory.mktemp("demo-runs")
    return {name: _run(root / name, *arguments) for name, arguments in DEMO_RUNS.items()}


@pytest.fixture(scope="session")
def robustness_runs(demo_runs, tmp_path_factory) -> tuple[Path, Path]:
    """The demo's robustness run and a second one (three perturbations, another seed) to compare with it."""
    second = _run(tmp_path_factory.mktemp("second") / "run", "robustness", "run", "--model", "knn-geo",
                  "--perturbations", "typo", "deletion", "random-swap", "--seed", "1")  # fmt: skip
    return demo_runs["robustness"], second


@pytest.fixture(scope="session")
def stock_log(tmp_path_factory) -> Path:
    """TextAttack's own CSV log of `textattack attack` (its [[...]] markup kept), 6 examples."""
    from tests.helpers import run_command

    log = tmp_path_factory.mktemp("stock") / "log.csv"
    done = run_command("textattack", "attack", "--recipe", "nucle-greedy", "--model", "knn-geo", "--num-examples", "6",
                       "--log-to-csv", str(log), "--disable-stdout", env=GEO_MINI, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return log


@pytest.fixture(scope="session")
def icl_run(tmp_path_factory) -> Path:
    """An in-context-learning grid of a tiny random GPT-2 on two geo-mini questions (0 and 2 shots)."""
    from tests.llm.test_icl_study import save_tiny_causal_lm

    model = f"hf-causal:{save_tiny_causal_lm(tmp_path_factory.mktemp('tiny-lm'))}?max_new_tokens=4"
    GEO_MINI_CACHE = {**GEO_MINI, "TEXTATTACK_SEMPARSE_CACHE": str(tmp_path_factory.mktemp("cache"))}
    from tests.helpers import run_command

    output = tmp_path_factory.mktemp("icl") / "grid"
    done = run_command("textattack-semparse", "icl", "--model", model, "--dataset", "geo-mini-question-test", "--shots", "0", "2",
                       "--num-examples", "2", "--output-dir", str(output), env=GEO_MINI_CACHE, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return output


# --- end of the runs ---
