"""A package installed with pip that only declares an entry point reaches the stock textattack CLI."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.helpers import install_package, pyproject, run_command, with_plugin_site

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
    return install_package(
        tmp_path_factory.mktemp("acme-src"),
        tmp_path_factory.mktemp("acme-site"),
        {
            "pyproject.toml": pyproject("acme-semparse", "acme", "acme_semparse.plugin"),
            "acme_semparse/__init__.py": "",
            "acme_semparse/plugin.py": textwrap.dedent(PLUGIN),
            "acme_semparse/recipe.py": textwrap.dedent(RECIPE),
        },
    )


def _env(site: Path) -> dict[str, str]:
    return with_plugin_site(site)


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
