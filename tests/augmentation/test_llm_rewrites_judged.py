"""``augment`` with an LLM rewriter keeps the paraphrases people accept and drops the rewrites that
ask another question, and says which layer of the default judge decided.

The LLM is a pip-installed backend (hook ``semparse_llm_backends``) that answers RobuT's
sentence-level rewrite prompt with the rewrites written below: a scripted writer, so that the
test knows which rewrites keep the question. Those that do are paraphrases a person writes
(another structure, other words); the others change a value, a superlative or add a negation.
"""

from __future__ import annotations

import csv
import json
import re
import textwrap
from pathlib import Path

import pytest

from tests.helpers import install_package, pyproject, run_command, with_plugin_site

REWRITES = {
    # question: (rewrite, whether it asks the same question)
    "what is the capital of texas": ("which city is the capital of texas", True),
    "how many rivers are in colorado": ("what is the number of rivers in colorado", True),
    "what is the population of utah": ("how many people live in utah", True),
    "which state has the largest area": ("which state is the biggest", True),
    "what is the highest point in ohio": ("what is the lowest point in ohio", False),
    "what rivers flow through kansas": ("what rivers flow through nebraska", False),
    "what is the area of maine": ("what is not the area of maine", False),
}
SQL = {
    "what is the capital of texas": "SELECT capital FROM state WHERE state_name = 'texas'",
    "how many rivers are in colorado": "SELECT COUNT(river_name) FROM river WHERE traverse = 'colorado'",
    "what is the population of utah": "SELECT population FROM state WHERE state_name = 'utah'",
    "which state has the largest area": "SELECT state_name FROM state WHERE area = (SELECT MAX(area) FROM state)",
    "what is the highest point in ohio": "SELECT highest_point FROM highlow WHERE state_name = 'ohio'",
    "what rivers flow through kansas": "SELECT river_name FROM river WHERE traverse = 'kansas'",
    "what is the area of maine": "SELECT area FROM state WHERE state_name = 'maine'",
}

PLUGIN = '''
from textattack_semparse import hookimpl


@hookimpl
def semparse_llm_backends():
    return {"scripted": {"target": "scripted_semparse.writer:ScriptedWriter", "description": "Scripted rewrites."}}
'''

WRITER = '''
import json

from textattack_semparse.victims.llm.prompted_parser import PromptedParser

REWRITES = json.loads({rewrites!r})


class ScriptedWriter(PromptedParser):
    """Answers a rewrite prompt with the rewrite written for its question."""

    def __init__(self, name, **kwargs):
        self.name = name
        super().__init__(**kwargs)

    @property
    def model_id(self):
        return f"scripted:{{self.name}}"

    @property
    def decoding_parameters(self):
        return {{}}

    def _generate_completions(self, prompts):
        for prompt in prompts:
            question = prompt.rsplit("Question: ", 1)[1].split("\\n")[0]
            yield prompt, f" The names stay.\\nRewrite: {{REWRITES[question]}}"
'''


@pytest.fixture(scope="module")
def scripted_site(tmp_path_factory) -> Path:
    rewrites = json.dumps({question: rewrite for question, (rewrite, _) in REWRITES.items()})
    return install_package(
        tmp_path_factory.mktemp("scripted-src"),
        tmp_path_factory.mktemp("scripted-site"),
        {
            "pyproject.toml": pyproject("scripted-semparse", "scripted", "scripted_semparse.plugin"),
            "scripted_semparse/__init__.py": "",
            "scripted_semparse/plugin.py": textwrap.dedent(PLUGIN),
            "scripted_semparse/writer.py": textwrap.dedent(WRITER).format(rewrites=rewrites),
        },
    )


def test_augment_keeps_the_paraphrases_and_names_the_deciding_layer(scripted_site: Path, tmp_path: Path) -> None:
    source = tmp_path / "questions.csv"
    with source.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "sql"])
        writer.writerows((question, SQL[question]) for question in REWRITES)
    output = tmp_path / "augmented.csv"
    env = with_plugin_site(
        scripted_site, SEMPARSE_DATA_DIR="", TEXTATTACK_SEMPARSE_CACHE=str(tmp_path / "cache"),
        SEMPARSE_PERTURBATION_LLM="scripted:writer",
    )  # fmt: skip
    result = run_command(
        "textattack-semparse", "augment", "--input", str(source), "--output", str(output), "--input-column",
        "question", "--gold-column", "sql", "--recipe", "semparse-mda", "--perturbation", "robut-sentence-llm", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    with output.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    written = {row["question"] for row in rows}
    for question, (rewrite, same) in REWRITES.items():
        assert question in written
        assert (rewrite in written) == same, (question, rewrite, same)
    # TextAttack's augmenter judges a candidate on each of its tries: the counts are of judgements.
    assert re.search(r"Meaning judge default on the candidate rewrites: \d+ of \d+ kept", result.stdout)
    by_layer = next(line for line in result.stdout.splitlines() if line.startswith("By layer: "))
    # The rewrite that changes the value never reaches the judge: the literal 'kansas' must survive it.
    assert "veto:value" not in by_layer
    for layer in ("veto:superlative", "veto:negation"):
        assert re.search(rf"{layer}: \d+ different(;|$)", by_layer), by_layer
    assert re.search(r"reader: \d+ same", by_layer), by_layer  # the paraphrases, which no veto settles
