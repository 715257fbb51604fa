"""A pip-installed package adds an LLM backend (hook ``semparse_llm_backends``): its victim names
``nearestdemo:...?options`` work in ``textattack-semparse evaluate`` and the stock ``textattack attack``,
with the demonstrations, prompt, response cache and SQL extraction of ``PromptedParser``; nothing
in ``textattack_semparse/`` names it.

The backend is a real, if simple, in-context parser: it reads the "Create Table + Select 3"
prompt it is given and answers with the query of the demonstration whose question shares the
most words with the test question.
"""

from __future__ import annotations

import csv
import json
import textwrap
from pathlib import Path

import pytest

import textattack_semparse
from tests.helpers import install_package, pyproject, run_command, with_plugin_site

PLUGIN = '''
from textattack_semparse import hookimpl


@hookimpl
def semparse_llm_backends():
    return {"nearestdemo": {"target": "nearestdemo_semparse.parser:NearestDemoParser", "description": "Nearest demonstration."}}
'''

PARSER = '''
import re

from textattack_semparse.victims.llm.prompted_parser import PromptedParser

PAIR = re.compile(r"^-- (.+)\\n(SELECT .+)$", re.MULTILINE)


class NearestDemoParser(PromptedParser):
    """Answers with the query of the demonstration that shares the most words with the question."""

    VICTIM_NAME_OPTIONS = {"min_overlap": int}

    def __init__(self, name, *, min_overlap=1, **kwargs):
        self.name, self.min_overlap = name, min_overlap
        super().__init__(**kwargs)

    @property
    def model_id(self):
        return f"nearestdemo:{self.name}"

    @property
    def decoding_parameters(self):
        return {"min_overlap": self.min_overlap}

    def _generate_completions(self, prompts):
        for prompt in prompts:
            question = prompt.rsplit("-- ", 1)[1].split("\\n")[0]
            words = set(question.split())
            scored = [(len(words & set(q.split())), sql) for q, sql in PAIR.findall(prompt)]
            best = max(scored, default=(0, ""))
            yield prompt, best[1][len("SELECT"):] if best[0] >= self.min_overlap else " nothing"
'''


@pytest.fixture(scope="module")
def nearestdemo_site(tmp_path_factory) -> Path:
    return install_package(
        tmp_path_factory.mktemp("nearestdemo-src"),
        tmp_path_factory.mktemp("nearestdemo-site"),
        {
            "pyproject.toml": pyproject("nearestdemo-semparse", "nearestdemo", "nearestdemo_semparse.plugin"),
            "nearestdemo_semparse/__init__.py": "",
            "nearestdemo_semparse/plugin.py": textwrap.dedent(PLUGIN),
            "nearestdemo_semparse/parser.py": textwrap.dedent(PARSER),
        },
    )


def _env(site: Path, cache: Path) -> dict[str, str]:
    return with_plugin_site(site, SEMPARSE_DATA_DIR="", TEXTATTACK_SEMPARSE_CACHE=str(cache))


def test_the_backend_is_listed(nearestdemo_site, tmp_path):
    result = run_command("textattack-semparse", "list", "llm-backend", env=_env(nearestdemo_site, tmp_path))
    assert result.returncode == 0, result.stderr
    assert {"nearestdemo", "hf-causal", "openai"} <= {line.split()[0] for line in result.stdout.splitlines()[1:]}


def test_evaluate_runs_the_backend_with_its_options_and_the_shared_cache(nearestdemo_site, tmp_path):
    report = tmp_path / "report.json"
    command = (
        "textattack-semparse", "evaluate", "--model", "nearestdemo:lexical?min_overlap=2", "--dataset",
        "geo-mini-question-test", "--shots", "60", "--selection", "random", "--output", str(report),
    )
    first = run_command(*command, env=_env(nearestdemo_site, tmp_path))
    assert first.returncode == 0, first.stderr[-3000:]
    figures = json.loads(report.read_text())
    assert figures["standard_accuracy"] > 0  # a few test questions reword one of the 60 demonstrations
    assert figures["response_cache"]["hits"] == 0 and figures["response_cache"]["misses"] == figures["examples"]
    second = run_command(*command, env=_env(nearestdemo_site, tmp_path))
    assert second.returncode == 0, second.stderr[-3000:]
    assert f"Response cache: {figures['examples']} hits, 0 misses" in second.stdout
    bad = run_command(
        "textattack-semparse", "evaluate", "--model", "nearestdemo:lexical?min_overlap=most",
        "--dataset", "geo-mini-question-test", env=_env(nearestdemo_site, tmp_path),
    )
    assert bad.returncode != 0 and "option min_overlap must be an int" in bad.stderr


def test_the_stock_textattack_cli_attacks_the_backend(nearestdemo_site, tmp_path):
    log = tmp_path / "log.csv"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-typo", "--model", "nearestdemo:lexical?shots=8",
        "--dataset-by-model", "geo-mini-question-test", "--num-examples", "3", "--log-to-csv", str(log),
        "--disable-stdout", env=_env(nearestdemo_site, tmp_path),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(list(csv.DictReader(log.open()))) == 3


def test_nothing_in_the_package_names_the_third_party_backend():
    # The backend's name is no English word, so any occurrence is a mention of it ("recall", its
    # former name, is also a statistic that textattack_semparse.validation reports).
    package = Path(textattack_semparse.__file__).parent
    assert not [path for path in package.rglob("*.py") if "nearestdemo" in path.read_text(encoding="utf-8")]
