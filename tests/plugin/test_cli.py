"""The textattack-semparse console script."""

from __future__ import annotations

import json
import subprocess
import sys

from textattack_semparse.cli import main

from tests.helpers import run_command

HEAVY_MODULES = ("torch", "transformers", "spacy", "sentence_transformers", "nltk", "tensorflow", "textattack")


def test_help_and_list_import_nothing_heavy():
    code = (
        "import sys, json\n"
        "from textattack_semparse.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "main(['list'])\n"
        f"print(json.dumps([m for m in {HEAVY_MODULES!r} if m in sys.modules]))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout.splitlines()[-1]) == []


def test_list_shows_names_targets_and_providers(capsys):
    assert main(["list", "victim"]) == 0
    out = capsys.readouterr().out
    assert "knn-geo" in out
    assert "KNNTemplateParser.from_benchmark" in out
    assert "(builtin)" in out


def test_unknown_victim_is_a_clear_error(capsys):
    assert main(["evaluate", "--model", "knn-gep"]) == 2
    assert "Did you mean 'knn-geo'" in capsys.readouterr().err


def test_console_script_is_installed():
    result = run_command("textattack-semparse", "list", "attack-recipe")
    assert result.returncode == 0, result.stderr
    assert "semparse-geo" in result.stdout


def test_list_shows_the_nlpaug_family_and_its_recipe_family(capsys):
    assert main(["list", "perturbation"]) == 0
    assert "nlpaug:<augmenter>" in capsys.readouterr().out
    assert main(["list", "attack-recipe"]) == 0
    assert "semparse-nlpaug:<augmenter>" in capsys.readouterr().out
