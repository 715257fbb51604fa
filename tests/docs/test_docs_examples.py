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
a variable read at import time (a block that exports ``TEXTATTACK_SEMPARSE_CACHE``), or that passes
``python`` an option such as ``-I``, runs in a fresh interpreter instead, and so does every command
when ``SEMPARSE_TESTS_FRESH_INTERPRETER`` is set. The selected blocks are started ahead of their tests,
``DOCS_TEST_WORKERS`` at a time (default: 2, at most the CPU count; ``OMP_NUM_THREADS=1`` unless set);
each test waits for its own. ``-m "not slow"`` leaves out the blocks marked slow.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.docs.doc_blocks import REPO_ROOT, CodeBlock, all_code_blocks
from tests.fork_server import FRESH_VARIABLE, ForkServer

BLOCKS = all_code_blocks()
RUNNABLE = [block for block in BLOCKS if block.runnable]
TIMEOUT = float(os.environ.get("DOCS_TEST_TIMEOUT", "300"))
WORKERS = int(os.environ.get("DOCS_TEST_WORKERS", str(max(1, min(2, os.cpu_count() or 1)))))
VENV_BIN = Path(sys.executable).parent

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


def offline_environment(launchers: Path | None = None) -> dict[str, str]:
    """The environment of a docs example: offline hub, no real-data directory, the preloaded
    interpreter's ``launchers`` (if any), then this venv, first on PATH."""
    environment = {key: value for key, value in os.environ.items() if key != "SEMPARSE_DATA_DIR"}
    environment.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        MPLBACKEND="Agg",
        PATH=os.pathsep.join([*([str(launchers)] if launchers else []), str(VENV_BIN), os.environ.get("PATH", "")]),
    )
    # Examples run side by side on few cores; one BLAS/OpenMP thread each avoids oversubscription.
    environment.setdefault("OMP_NUM_THREADS", "1")
    return environment


@dataclass(frozen=True)
class Outcome:
    command: str
    returncode: int | None  # None: killed at the time limit
    stdout: str
    stderr: str
    seconds: float
    workdir: Path

    def report(self, block: CodeBlock) -> str:
        status = f"timed out after {TIMEOUT:.0f} s" if self.returncode is None else f"exit code {self.returncode}"
        return (
            f"{block.id} ({block.section}): `{self.command}` in {self.workdir}: {status} after {self.seconds:.1f} s\n"
            f"--- block ---\n{block.code}--- stdout (end) ---\n{self.stdout[-3000:]}\n"
            f"--- stderr (end) ---\n{self.stderr[-6000:]}"
        )


class BlockRunner:
    """Runs blocks in subprocesses, ``workers`` at a time, each once per session; ``python`` and
    the console scripts through ``server``'s launchers when it is given."""

    def __init__(self, root: Path, workers: int, server: ForkServer | None = None) -> None:
        self._root = root
        self._launchers = server.bin_dir if server is not None else None
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="docs-example")
        self._futures: dict[str, Future[Outcome]] = {}
        self._processes: set[subprocess.Popen[str]] = set()
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, block: CodeBlock) -> None:
        with self._lock:
            if block.id not in self._futures:
                self._futures[block.id] = self._pool.submit(self._run, block)

    def result(self, block: CodeBlock) -> Outcome:
        self.submit(block)
        return self._futures[block.id].result()

    def _run(self, block: CodeBlock) -> Outcome:
        workdir = self._root / re.sub(r"[^\w.-]+", "_", block.id)
        workdir.mkdir(parents=True, exist_ok=True)
        if block.kind == "python":
            (workdir / "example.py").write_text(block.code, encoding="utf-8")
            command = [str(self._launchers / "python") if self._launchers else sys.executable, "example.py"]
        else:
            (workdir / "example.sh").write_text(block.shell_script(), encoding="utf-8")
            command = ["bash", "-euo", "pipefail", "example.sh"]
        started = time.monotonic()
        with self._lock:
            if self._closed:
                raise RuntimeError("the docs runner was closed")
            process = subprocess.Popen(
                command,
                cwd=workdir,
                env=offline_environment(self._launchers),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,  # its own process group, so a time-out stops its children too
            )
            self._processes.add(process)
        try:
            stdout, stderr = process.communicate(timeout=TIMEOUT)
            returncode: int | None = process.returncode
        except subprocess.TimeoutExpired:
            _kill_group(process)
            stdout, stderr = process.communicate()
            returncode = None
        finally:
            with self._lock:
                self._processes.discard(process)
        return Outcome(" ".join(command), returncode, stdout, stderr, time.monotonic() - started, workdir)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for future in self._futures.values():
                future.cancel()
            for process in list(self._processes):
                _kill_group(process)
        self._pool.shutdown(wait=True)


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Stop a process this runner started, and the children in its process group."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _param(block: CodeBlock):  # noqa: ANN202 (a pytest ParameterSet)
    marks = []
    if block.marker == "skip":
        marks.append(pytest.mark.skip(reason=f"{block.id}: {block.reason}"))
    elif block.marker == "slow":
        marks.append(pytest.mark.slow)
    return pytest.param(block, id=block.id, marks=marks)


@pytest.fixture(scope="module")
def docs_runner(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BlockRunner]:
    server = None
    if not os.environ.get(FRESH_VARIABLE):
        server = ForkServer(tmp_path_factory.mktemp("docs-fork-server"), offline_environment())
        if not server.start():
            server.stop()
            server = None
    runner = BlockRunner(tmp_path_factory.mktemp("docs-examples"), WORKERS, server)
    # Start every selected, unskipped block now, in test order, so the workers run ahead of the tests.
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if getattr(item, "originalname", None) == "test_docs_example" and callspec is not None:
            if item.get_closest_marker("skip") is None:
                runner.submit(callspec.params["block"])
    yield runner
    runner.close()
    if server is not None:
        server.stop()


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


def test_readme_composed_attack_finds_an_adversarial_example(docs_runner: BlockRunner) -> None:
    """README's "Compose the attack in Python" builds a working attack that breaks geo-mini at least once."""
    candidates = [
        block
        for block in RUNNABLE
        if block.relative_path == "README.md" and block.section == README_ATTACK_SECTION and block.kind == "python"
    ]
    assert len(candidates) == 1, f"expected one python block under '## {README_ATTACK_SECTION}' in README.md"
    (block,) = candidates
    outcome = docs_runner.result(block)
    assert outcome.returncode == 0, outcome.report(block)
    summary = README_ATTACK_SUMMARY.findall(outcome.stdout)
    assert summary, f"the example no longer prints 'successful attacks: N of M'\n{outcome.report(block)}"
    succeeded, attacked = map(int, summary[-1])
    assert attacked > 0 and succeeded >= 1, f"no adversarial example on geo-mini ({succeeded} of {attacked})"
