"""Every code block of README.md and docs/*.md that a user would run is run here, so no example can rot.

Which blocks run (the rule; the parsing is in ``tests/docs/doc_blocks.py``):

1. The fence's language decides. ``python`` blocks are Python scripts; ``bash``/``sh``/``console``
   blocks are shell commands; ``text``/``json``/``toml``/``yaml``/``sql``/``ini`` blocks are listings
   (output, file layouts, usage synopses, configuration) and never run. A fence without a language
   fails ``test_every_block_declares_its_language``: write ``text`` for anything that is not a command.
2. Every Python and shell block runs, unless the nearest non-blank line above it is
   ``<!-- docs-test: skip (reason) -->``. The reason is shown by ``pytest -ra``. A block is marked
   skip when, and only when, it cannot run offline on a fresh install in about a minute: it needs
   the real benchmarks (``SEMPARSE_DATA_DIR=...``), downloads a model or data set, installs
   (``make``, ``pip install``), or runs longer than about 60 s. A block that needs a file makes it
   (``printf ... > train.csv``) rather than being skipped.
3. ``test_unmarked_blocks_run_offline`` fails for an unmarked block that mentions
   ``SEMPARSE_DATA_DIR``, ``pip install``, ``make`` or a placeholder (``/path/to``, ``...``, or a
   shell variable the block never assigns, like ``$P``), so such a block is either rewritten to run
   or marked skip. A download attempt fails at run time (the hub is offline), with the same effect.
4. ``<!-- docs-test: slow -->`` marks a block that runs but takes more than about 20 s; it gets
   ``@pytest.mark.slow`` and still runs by default.

How a block runs: in its own process (``python example.py``, or ``bash -euo pipefail example.sh``
with this interpreter's ``bin`` on ``PATH``, so ``python``, ``textattack`` and ``textattack-semparse``
are the ones under test), in its own temporary directory (files it writes never land in the
repository), with the Hugging Face hub offline and ``SEMPARSE_DATA_DIR`` unset (so benchmarks resolve
to the embedded geo-mini), and a time limit (``DOCS_TEST_TIMEOUT``, default 300 s; at the limit the
block's process group is killed). It must exit 0.

A fresh interpreter pays for ``import textattack`` (about 9 s) at every start, so ``python`` and the two
console scripts are launchers of a preloaded interpreter (``tests/fork_server.py``): each command runs
the real program in a child forked from it, with the command's own arguments, working directory,
environment and standard streams, in its own process group. A command whose environment differs in
a variable read at import time, or that passes ``python`` an option such as ``-I``, runs in a fresh
interpreter instead, and so does every command when ``SEMPARSE_TESTS_FRESH_INTERPRETER`` is set.

The blocks run in the background from the start of the session (``tests/docs/runner.py``: one at a
time beside the other tests, slow-marked blocks first, then ``DOCS_TEST_WORKERS`` at a time, default
2, once the docs tests, which run last, wait for them; ``OMP_NUM_THREADS=1`` unless set). ``-m "not
slow"`` leaves out the blocks marked slow.
"""

from __future__ import annotations

import re

import pytest

from tests.docs.doc_blocks import REPO_ROOT, CodeBlock, all_code_blocks
from tests.docs.runner import BlockRunner

BLOCKS = all_code_blocks()
RUNNABLE = [block for block in BLOCKS if block.runnable]

# What an unmarked runnable block may not contain (comments are ignored): rule 3 above.
NEEDS_SKIP_MARKER = {
    r"SEMPARSE_DATA_DIR": "needs the real benchmarks",
    r"\bpip3? install\b": "installs packages",
    r"(^|[;&|]\s*)make\b": "runs make (creates .venv and installs)",
    r"/path/to\b": "has a placeholder path",
}
SHELL_PLACEHOLDER = re.compile(r"(?<![.\w])\.\.\.(?![.\w])")  # a literal "..." argument
SHELL_ENVIRONMENT = {"PATH", "HOME", "PWD", "TMPDIR", "VIRTUAL_ENV"}

README_ATTACK_SECTION = "Compose the attack in Python"
README_ATTACK_SUMMARY = re.compile(r"successful attacks: (\d+) of (\d+)")


def _param(block: CodeBlock):  # noqa: ANN202 (a pytest ParameterSet)
    marks = []
    if block.marker == "skip":
        marks.append(pytest.mark.skip(reason=f"{block.id}: {block.reason}"))
    elif block.marker == "slow":
        marks.append(pytest.mark.slow)
    return pytest.param(block, id=block.id, marks=marks)


def _without_comments(block: CodeBlock) -> str:
    if block.kind == "python":
        return "\n".join(re.sub(r"(^|\s)#.*$", "", line) for line in block.code.splitlines())
    return "\n".join(re.sub(r"(^|\s)#.*$", "", line) for line in block.shell_script().splitlines())


def _unassigned_shell_variables(script: str) -> set[str]:
    used = set(re.findall(r"\$\{?([A-Za-z_]\w*)", script))
    assigned = set(re.findall(r"(?:^|[;&|(]\s*|\bexport\s+|\bfor\s+)([A-Za-z_]\w*)(?:=|\s+in\b)", script, re.M))
    return used - assigned - SHELL_ENVIRONMENT


def test_every_block_declares_its_language() -> None:
    unknown = [f"{block.id} (```{block.language})" for block in BLOCKS if block.kind == "unknown"]
    assert not unknown, (
        "Every fenced block says what it is: ```python, ```bash/```sh for commands (run by the tests), "
        "```text/```json/```toml for listings (not run). Undeclared: " + ", ".join(unknown)
    )


def test_markers_are_well_formed() -> None:
    problems = [f"{block.id}: skip marker without a reason" for block in BLOCKS if block.marker == "skip" and not block.reason]
    problems += [f"{block.id}: docs-test marker on a block that never runs" for block in BLOCKS if block.marker and not block.runnable]
    assert not problems, "\n".join(problems)


def test_every_documentation_file_is_collected() -> None:
    collected = {block.relative_path for block in BLOCKS}
    assert "README.md" in collected
    assert any(path.startswith("docs/") for path in collected)
    assert len(RUNNABLE) >= 30, f"only {len(RUNNABLE)} runnable blocks were found in {REPO_ROOT}"


@pytest.mark.parametrize("block", [block for block in RUNNABLE if block.marker != "skip"], ids=lambda block: block.id)
def test_unmarked_blocks_run_offline(block: CodeBlock) -> None:
    code = _without_comments(block)
    problems = [why for pattern, why in NEEDS_SKIP_MARKER.items() if re.search(pattern, code, re.M)]
    if block.kind == "shell":
        if SHELL_PLACEHOLDER.search(code):
            problems.append("has a '...' placeholder")
        if unassigned := _unassigned_shell_variables(code):
            problems.append(f"uses shell variables it never sets ({', '.join(sorted(unassigned))})")
    assert not problems, (
        f"{block.id} {' and '.join(problems)}: make it run offline on geo-mini, or put "
        f"'<!-- docs-test: skip (reason) -->' right above it.\n{block.code}"
    )


@pytest.mark.parametrize("block", [_param(block) for block in RUNNABLE])
def test_docs_example(block: CodeBlock, docs_runner: BlockRunner) -> None:
    outcome = docs_runner.result(block)
    assert outcome.returncode == 0, outcome.report(block)


def readme_attack_blocks() -> list[CodeBlock]:
    """The python blocks under README's "Compose the attack in Python" (there must be one)."""
    return [
        block
        for block in RUNNABLE
        if block.relative_path == "README.md" and block.section == README_ATTACK_SECTION and block.kind == "python"
    ]


def blocks_to_run(item: pytest.Item) -> list[CodeBlock]:
    """The blocks a collected test of this module will ask ``docs_runner`` for (none when skipped)."""
    if item.get_closest_marker("skip") is not None:
        return []
    if getattr(item, "originalname", None) == "test_docs_example":
        return [item.callspec.params["block"]]  # type: ignore[attr-defined]
    if getattr(item, "originalname", None) == "test_readme_composed_attack_finds_an_adversarial_example":
        return readme_attack_blocks()[:1]
    return []


def test_readme_composed_attack_finds_an_adversarial_example(docs_runner: BlockRunner) -> None:
    """README's "Compose the attack in Python" builds a working attack that breaks geo-mini at least once."""
    candidates = readme_attack_blocks()
    assert len(candidates) == 1, f"expected one python block under '## {README_ATTACK_SECTION}' in README.md"
    (block,) = candidates
    outcome = docs_runner.result(block)
    assert outcome.returncode == 0, outcome.report(block)
    summary = README_ATTACK_SUMMARY.findall(outcome.stdout)
    assert summary, f"the example no longer prints 'successful attacks: N of M'\n{outcome.report(block)}"
    succeeded, attacked = map(int, summary[-1])
    assert attacked > 0 and succeeded >= 1, f"no adversarial example on geo-mini ({succeeded} of {attacked})"
