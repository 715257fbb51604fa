"""A pip-installed package registers a benchmark with its own SQLite database through an entry point.

Its dataset names, ``knn-*`` victim and bound ``semparse-*`` recipe are derived by the registry,
and the stock ``textattack attack`` and ``textattack-semparse evaluate`` score by execution on
*its* database; nothing in ``textattack_semparse/`` names it.
"""

from __future__ import annotations

import csv
import sqlite3
import textwrap
from pathlib import Path

import pytest

import textattack_semparse
from tests.helpers import install_package, pyproject, run_command, with_plugin_site

PLUGIN = '''
from textattack_semparse import hookimpl


@hookimpl
def semparse_benchmarks():
    return {
        "zoo": {
            "target": "zoo_semparse.benchmark:load_zoo",
            "splits": {"question": ["train", "test"]},
            "knn_victims": True,
            "attack_recipe": True,
            "description": "Questions about the animals of a small zoo.",
        }
    }
'''

BENCHMARK = '''
from pathlib import Path

from textattack_semparse.datasets.benchmark import Benchmark
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.scoring import Databases, ExecutionScorer, Scoring

DATABASE = Path(__file__).with_name("zoo.sqlite")
TRAIN = [
    ("how many animals live in the zoo", "SELECT COUNT(*) FROM animal"),
    ("which animals are mammals", "SELECT name FROM animal WHERE class = 'mammal'"),
    ("which animals are birds", "SELECT name FROM animal WHERE class = 'bird'"),
    ("what is the heaviest animal", "SELECT name FROM animal ORDER BY weight DESC LIMIT 1"),
    ("what is the lightest animal", "SELECT name FROM animal ORDER BY weight ASC LIMIT 1"),
    ("list the keepers", "SELECT name FROM keeper"),
]
TEST = [
    ("how many animals are there in the zoo", "SELECT COUNT(*) FROM animal"),
    ("which of the animals are mammals", "SELECT name FROM animal WHERE class = 'mammal'"),
    ("which animals are the birds", "SELECT name FROM animal WHERE class = 'bird'"),
    ("what is the heaviest animal in the zoo", "SELECT name FROM animal ORDER BY weight DESC LIMIT 1"),
    ("what is the lightest of the animals", "SELECT name FROM animal ORDER BY weight ASC LIMIT 1"),
    ("list all of the keepers", "SELECT name FROM keeper"),
]


def load_zoo(*, name, data_dir):
    examples = [SemparseExample(q, sql, question_split="train") for q, sql in TRAIN]
    examples += [SemparseExample(q, sql, question_split="test") for q, sql in TEST]
    return Benchmark(name, tuple(examples), Scoring(ExecutionScorer(), Databases.at(DATABASE)), source="zoo")
'''


def _zoo_database(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE animal (name TEXT, class TEXT, weight REAL)")
        db.executemany(
            "INSERT INTO animal VALUES (?, ?, ?)",
            [("elephant", "mammal", 5400.0), ("zebra", "mammal", 380.0), ("flamingo", "bird", 3.5), ("owl", "bird", 1.2)],
        )
        db.execute("CREATE TABLE keeper (name TEXT)")
        db.executemany("INSERT INTO keeper VALUES (?)", [("ada",), ("grace",)])
    db.close()


@pytest.fixture(scope="module")
def zoo_site(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("zoo-src")
    (source / "zoo_semparse").mkdir()
    _zoo_database(source / "zoo_semparse" / "zoo.sqlite")
    return install_package(
        source,
        tmp_path_factory.mktemp("zoo-site"),
        {
            "pyproject.toml": pyproject("zoo-semparse", "zoo", "zoo_semparse.plugin"),
            "zoo_semparse/__init__.py": "",
            "zoo_semparse/plugin.py": textwrap.dedent(PLUGIN),
            "zoo_semparse/benchmark.py": textwrap.dedent(BENCHMARK),
        },
    )


def _env(site: Path) -> dict[str, str]:
    return with_plugin_site(site, SEMPARSE_DATA_DIR="")


def test_derived_names_are_listed(zoo_site):
    result = run_command("textattack-semparse", "list", env=_env(zoo_site))
    assert result.returncode == 0, result.stderr
    for name in ("zoo-train", "zoo-test", "knn-zoo", "semparse-zoo"):
        assert name in result.stdout, name


def test_evaluate_scores_by_execution_on_the_plugins_database(zoo_site, tmp_path):
    report = tmp_path / "report.json"
    result = run_command("textattack-semparse", "evaluate", "--model", "knn-zoo", "--output", str(report), env=_env(zoo_site))
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"execution match (classical) on {zoo_site / 'zoo_semparse' / 'zoo.sqlite'}" in result.stdout.replace("\n", "")
    import json

    figures = json.loads(report.read_text())
    assert figures["dataset"] == "zoo-test" and figures["examples"] == 6
    # The gold queries read tables only the zoo database has: none fails, so it is the one used.
    assert figures["gold_errors"] == 0
    assert figures["standard_accuracy"] > 50


def test_stock_attack_runs_the_bound_recipe_on_the_plugins_database(zoo_site, tmp_path):
    log = tmp_path / "log.csv"
    result = run_command(
        "textattack", "attack", "--recipe", "semparse-zoo", "--model", "knn-zoo", "--num-examples", "6",
        "--log-to-csv", str(log), "--disable-stdout",
        env=_env(zoo_site),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    rows = list(csv.DictReader(log.open()))
    assert len(rows) == 6
    assert not any(row["original_output"].startswith("[gold error]") for row in rows)
    assert {row["result_type"] for row in rows} & {"Successful", "Failed"}
    assert "Gold errors (left out):" in result.stdout


def test_nothing_in_the_package_names_the_third_party_benchmark():
    package = Path(textattack_semparse.__file__).parent
    assert not [path for path in package.rglob("*.py") if "zoo" in path.read_text(encoding="utf-8").lower()]
