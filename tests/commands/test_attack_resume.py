"""`textattack-semparse attack` killed with SIGKILL at a random point (a Ray driver with its local
cluster), then resumed on the serial backend: the logs equal the uninterrupted run's and no finished
example is attacked twice. A killed Ray run leaves no process behind. (A serial kill resumed on Ray
is left out to keep the suite within 30 minutes: Ray resuming a journal of the shared
``textattack_semparse.runs`` loop is tests/robustness/test_ray_backend.py's.)"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.commands.test_attack_command import (
    ENVIRONMENT,
    EXAMPLES,
    LOGS,
    attack_arguments,
    journal_lines,
    uninterrupted_run,
)
from tests.helpers import VENV_BIN, kill_before_the_end, run_command

KILL_POINTS = random.Random(12)
"""Draws how many journal lines a run writes before it is killed (seeded: the same points each run)."""
DEADLINE = 600


def finished_examples(output: Path) -> int:
    path = output / "examples.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


def processes_of(driver: int) -> list:
    """What a killed driver left: the processes of its session (it was started in a new one) and
    of the local Ray it started (whose session folder is named after the driver's process id)."""
    import psutil

    found = []
    for process in psutil.process_iter(["cmdline"]):
        try:
            mine = os.getsid(process.pid) == driver
        except OSError:
            continue
        named = any(f"_{driver}/" in part or part.endswith(f"_{driver}") for part in process.info["cmdline"] or ())
        if (mine or named) and process.pid != os.getpid():
            found.append(process)
    return found


def kill_after(output: Path, lines: int, backend: str, log: Path) -> int:
    """Start the attack on ``backend``, SIGKILL its driver once the journal holds ``lines``
    examples, then kill what it left behind (bounded); returns the examples journaled."""
    import psutil

    command = [str(VENV_BIN / "textattack-semparse"), *attack_arguments(output, "--backend", backend)]
    with log.open("w") as stderr:
        driver = subprocess.Popen(
            command, env={**os.environ, **ENVIRONMENT}, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
        )
    try:
        deadline = time.monotonic() + DEADLINE
        while finished_examples(output) < lines and driver.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=30)
    finally:
        if driver.poll() is None:
            driver.kill()
        left_behind = processes_of(driver.pid)
        for process in left_behind:
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(left_behind, timeout=30)
    assert driver.returncode == -signal.SIGKILL, log.read_text()[-3000:]
    assert not [process for process in processes_of(driver.pid) if process.status() != psutil.STATUS_ZOMBIE]
    return finished_examples(output)


@pytest.mark.parametrize(("killed", "resumed"), [("ray", "serial")])
def test_killed_then_resumed_writes_the_uninterrupted_logs(killed, resumed, tmp_path, tmp_path_factory):
    pytest.importorskip("ray")
    pytest.importorskip("psutil")
    reference = uninterrupted_run(tmp_path_factory)
    lines = KILL_POINTS.randint(1, EXAMPLES // 2)
    output = tmp_path / "run"

    def kill(lines: int) -> int:
        shutil.rmtree(output, ignore_errors=True)
        return kill_after(output, lines, killed, tmp_path / "killed.log")

    journaled = kill_before_the_end(kill, lines, EXAMPLES)
    assert 1 <= journaled < EXAMPLES and not (output / LOGS[0]).exists()

    completed = run_command(
        "textattack-semparse", *attack_arguments(output, "--resume", "--backend", resumed), env=ENVIRONMENT
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    for name in LOGS:
        assert (output / name).read_bytes() == (reference / name).read_bytes(), name
    keys = [line["key"] for line in journal_lines(output)]
    assert sorted(keys, key=int) == [str(index) for index in range(EXAMPLES)]  # each example attacked once
