"""Runs the documentation's code blocks for ``tests/docs/test_docs_examples.py``: each in its own
process and temporary directory, with a time limit, in background threads from the start of the
test session.

Scheduling: the session's docs tests run last (``tests/conftest.py`` moves them there) and every
block they will ask for is queued when the session starts, slow-marked blocks first (the longest
then finish with, not after, the short ones). Until a docs test waits for its block, one block
runs at a time beside the other tests (they leave a core mostly idle on two); from then on
``DOCS_TEST_WORKERS`` at a time (default 2, at most the CPU count). Blocks are isolated from the
tests that run meanwhile: their environment is the session's, as it was when the runner started.

Each ``python`` and console-script command of a block runs through a preloaded interpreter
(``tests/fork_server.py``), started in the background too, unless ``SEMPARSE_TESTS_FRESH_INTERPRETER``
is set.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tests.docs.doc_blocks import CodeBlock
from tests.fork_server import FRESH_VARIABLE, ForkServer

TIMEOUT = float(os.environ.get("DOCS_TEST_TIMEOUT", "300"))
WORKERS = int(os.environ.get("DOCS_TEST_WORKERS", str(max(1, min(2, os.cpu_count() or 1)))))
BACKGROUND_WORKERS = 1
"""Blocks run at a time while other tests run."""
VENV_BIN = Path(sys.executable).parent


def offline_environment(base: Mapping[str, str], launchers: Path | None = None) -> dict[str, str]:
    """The environment of a docs example: ``base`` with the hub offline, no real-data directory,
    the preloaded interpreter's ``launchers`` (if any), then this venv, first on PATH."""
    environment = {key: value for key, value in base.items() if key not in ("SEMPARSE_DATA_DIR", "PYTEST_CURRENT_TEST")}
    environment.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        MPLBACKEND="Agg",
        PATH=os.pathsep.join([*([str(launchers)] if launchers else []), str(VENV_BIN), base.get("PATH", "")]),
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
    """Runs blocks in subprocesses, each once per session: :data:`BACKGROUND_WORKERS` at a time
    until :meth:`result` is first called, then ``workers`` at a time.

    Args:
        root: Where each block gets its working directory.
        workers: Blocks run at a time once a test waits for one.
        environment: The session's environment (blocks get :func:`offline_environment` of it).
    """

    def __init__(self, root: Path, workers: int, environment: Mapping[str, str]) -> None:
        self._root = root
        self._environment = dict(environment)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="docs-example")
        self._slots = threading.Semaphore(min(BACKGROUND_WORKERS, workers))
        self._extra_slots = workers - min(BACKGROUND_WORKERS, workers)
        self._futures: dict[str, Future[Outcome]] = {}
        self._processes: set[subprocess.Popen[str]] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._server: ForkServer | None = None
        self._server_started: Future[ForkServer | None] = Future()
        if environment.get(FRESH_VARIABLE):
            self._server_started.set_result(None)
        else:
            threading.Thread(target=self._start_server, name="docs-fork-server", daemon=True).start()

    def _start_server(self) -> None:
        server = ForkServer(self._root / "fork-server", offline_environment(self._environment))
        started = server.start()
        with self._lock:
            self._server = server
        self._server_started.set_result(server if started else None)

    def submit_all(self, blocks: Iterable[CodeBlock]) -> None:
        """Queue ``blocks``, slow-marked ones first, each in its given order."""
        blocks = list(blocks)
        for block in [block for block in blocks if block.marker == "slow"] + [block for block in blocks if block.marker != "slow"]:
            self.submit(block)

    def submit(self, block: CodeBlock) -> None:
        with self._lock:
            if block.id not in self._futures:
                self._futures[block.id] = self._pool.submit(self._run, block)

    def result(self, block: CodeBlock) -> Outcome:
        """The outcome of ``block`` once it ran; from the first call on, every worker runs blocks."""
        with self._lock:
            extra, self._extra_slots = self._extra_slots, 0
        if extra:
            self._slots.release(extra)
        self.submit(block)
        return self._futures[block.id].result()

    def _run(self, block: CodeBlock) -> Outcome:
        with self._slots:
            return self._run_now(block)

    def _run_now(self, block: CodeBlock) -> Outcome:
        server = self._server_started.result()
        launchers = server.bin_dir if server is not None else None
        workdir = self._root / re.sub(r"[^\w.-]+", "_", block.id)
        workdir.mkdir(parents=True, exist_ok=True)
        if block.kind == "python":
            (workdir / "example.py").write_text(block.code, encoding="utf-8")
            command = [str(launchers / "python") if launchers else sys.executable, "example.py"]
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
                env=offline_environment(self._environment, launchers),
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
        """Cancel what has not started, kill what runs, stop the preloaded interpreter."""
        with self._lock:
            self._closed = True
            for future in self._futures.values():
                future.cancel()
            for process in list(self._processes):
                _kill_group(process)
        self._slots.release(len(self._futures) + 1)  # let queued tasks see the runner closed
        self._pool.shutdown(wait=True)
        self._server_started.result()
        if self._server is not None:
            self._server.stop()


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Stop a process this runner started, and the children in its process group."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
