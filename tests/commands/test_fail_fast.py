"""A mistyped name, an output in the way or a model that is not here is reported before TextAttack,
torch, transformers or spaCy load: the one-line error arrives at once, not after their seconds of
imports (``import textattack`` alone takes about 8 s on the 2-core machine)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_command
from textattack_semparse.datasets.geo_mini import geo_mini_paths

HEAVY = ("textattack", "torch", "transformers", "spacy")

REPORT_IMPORTS = f"""
import sys
from textattack_semparse.cli import main
code = main(sys.argv[1:])
print(code, ",".join(name for name in {HEAVY!r} if name in sys.modules) or "none")
"""
"""The command in this process, then its exit status and the heavy packages it imported."""


@pytest.fixture
def places(tmp_path):
    """Paths the commands are given: an output that exists, a directory holding another command's run."""
    existing = tmp_path / "augmented.json"
    existing.write_text("[]\n")
    attack_run = tmp_path / "attack-run"
    attack_run.mkdir()
    (attack_run / "run.json").write_text(json.dumps({"command": "attack", "configuration": {}}))
    return {"tmp": tmp_path, "existing": existing, "attack_run": attack_run, "geo": geo_mini_paths()[0]}


CASES = {
    "augment, misspelt perturbation": (
        ["augment", "--recipe", "semparse-mda", "--perturbation", "deletin", "--input", "{geo}", "--output", "{tmp}/o.json"],
        "Did you mean 'deletion'?",
    ),
    "augment, output exists": (
        ["augment", "--recipe", "semparse-mda", "--input", "{geo}", "--output", "{existing}"],
        "exists; pass --overwrite to replace it",
    ),
    "robustness build, misspelt perturbation": (
        ["robustness", "build", "--dataset", "geo-mini-question-test", "--perturbations", "deletin", "--output-dir", "{tmp}/b"],
        "Did you mean 'deletion'?",
    ),
    "robustness build, another command's directory": (
        ["robustness", "build", "--dataset", "geo-mini-question-test", "--output-dir", "{attack_run}"],
        "holds a 'attack' run, not 'robustness build'",
    ),
    "robustness run, another command's directory": (
        ["robustness", "run", "--model", "knn-geo", "--output-dir", "{attack_run}"],
        "holds a 'attack' run, not 'robustness run'",
    ),
    "train, misspelt benchmark": (
        ["train", "--benchmark", "geo-mni", "--output-dir", "{tmp}/t"],
        "Did you mean 'geo-mini'?",
    ),
    "attack, misspelt recipe": (
        ["attack", "--recipe", "semparse-gep", "--model", "knn-geo", "--output-dir", "{tmp}/a"],
        "Did you mean 'semparse-geo'?",
    ),
    "attack, misspelt TextAttack recipe": (
        ["attack", "--recipe", "textfoolr", "--model", "knn-geo", "--output-dir", "{tmp}/a"],
        "Did you mean 'textfooler'?",
    ),
    "attack, misspelt victim": (
        ["attack", "--recipe", "semparse-geo", "--model", "knn-gep", "--output-dir", "{tmp}/a"],
        "Did you mean 'knn-geo'?",
    ),
    "grammar-attack, misspelt recipe": (
        ["grammar-attack", "--recipe", "nucle-gredy", "--model", "knn-geo", "--output-dir", "{tmp}/g"],
        "Did you mean 'nucle-greedy'?",
    ),
    "grammar-attack, misspelt victim": (
        ["grammar-attack", "--model", "knn-gep", "--output-dir", "{tmp}/g"],
        "Did you mean 'knn-geo'?",
    ),
    "evaluate, model path missing": (
        ["evaluate", "--model", "seq2seq:{tmp}/t5-geo", "--dataset", "geo-mini-question-test"],
        "there is no such local directory",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_the_error_comes_before_the_heavy_imports(case, places):
    arguments, message = CASES[case]
    argv = [argument.format(**places) for argument in arguments]
    environment = {"SEMPARSE_DATA_DIR": "", "HF_HUB_OFFLINE": "1", "TEXTATTACK_SEMPARSE_CACHE": str(places["tmp"] / "cache")}
    completed = run_command("python", "-c", REPORT_IMPORTS, *argv, env=environment, fresh=True, timeout=120)
    assert message in completed.stderr, completed.stderr
    assert completed.stdout.split() == ["2", "none"], (completed.stdout, completed.stderr)
