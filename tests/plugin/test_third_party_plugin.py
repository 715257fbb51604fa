"""A package installed with pip that only declares an entry point reaches the stock textattack CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers import run_command

PYPROJECT = """
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "acme-semparse"
version = "0.0.1"

[project.entry-points.textattack_semparse]
acme = "acme_semparse.plugin"

[tool.hatch.build.targets.wheel]
packages = ["acme_semparse"]
"""

PLUGIN = '''
from textattack_semparse import hookimpl


@hookimpl
def semparse_attack_recipes():
    return {"acme-deletion": "acme_semparse.recipe:AcmeDeletion"}
'''

RECIPE = '''
from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.search_methods import GreedySearch

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.goal_functions.execution_match import ExecutionMatch
from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion


class AcmeDeletion:
    @staticmethod
    def build(model_wrapper):
        return Attack(
            ExecutionMatch(model_wrapper),
            [RepeatModification(), PreserveLiterals()],
            FunctionWordDeletion(),
            GreedySearch(),
        )
'''


@pytest.fixture(scope="module")
def acme_site(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("acme-src")
    (source / "pyproject.toml").write_text(PYPROJECT)
    package = source / "acme_semparse"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text(textwrap.dedent(PLUGIN))
    (package / "recipe.py").write_text(textwrap.dedent(RECIPE))
    target = tmp_path_factory.mktemp("acme-site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target", str(target), str(source)],
        check=True,
        capture_output=True,
    )
    return target


def _env(site: Path) -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def test_entry_point_recipe_is_listed_by_textattack(acme_site):
    result = run_command("textattack", "list", "attack-recipes", env=_env(acme_site))
    assert result.returncode == 0, result.stderr
    assert "acme-deletion" in result.stdout
    assert "semparse-geo" in result.stdout


def test_entry_point_recipe_runs_through_textattack_attack(acme_site, tmp_path):
    summary = tmp_path / "summary.json"
    result = run_command(
        "textattack", "attack", "--recipe", "acme-deletion", "--model", "knn-geo", "--num-examples", "3",
        "--log-summary-to-json", str(summary),
        env={**_env(acme_site), "SEMPARSE_DATA_DIR": ""},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Attack Results" in result.stdout
    assert summary.is_file()


def test_disabled_plugin_is_not_listed(acme_site):
    result = run_command(
        "textattack-semparse", "--disable", "acme", "list", "attack-recipe", env=_env(acme_site)
    )
    assert result.returncode == 0, result.stderr
    assert "acme-deletion" not in result.stdout
    assert "semparse-geo" in result.stdout
