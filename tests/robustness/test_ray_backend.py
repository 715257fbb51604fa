"""``robustness run --backend ray`` (a local Ray on 127.0.0.1, 2 workers each holding knn-geo) killed
with SIGKILL at a random point and resumed on Ray writes the files of the serial run byte for byte
(the items finished before the kill were written by Ray too, so an uninterrupted Ray run is not run
again: the suite stays within 30 minutes); the killed driver's Ray processes are stopped by the test."""

from __future__ import annotations

import random

import pytest

from tests.helpers import run_command
from tests.robustness.conftest import (
    directory_files,
    journal_lines,
    kill_at_random_point,
    robustness_run_arguments,
    run_subprocess_environment,
    stop_processes,
)

pytest.importorskip("ray")

RAY = ("--backend", "ray", "--workers", "2")


def test_a_ray_run_killed_at_a_random_point_then_resumed_writes_the_serial_files(uninterrupted, tmp_path):
    output = tmp_path / "ray"
    lines = random.Random("ray-kill").randint(1, journal_lines(uninterrupted) - 2)
    left_behind: list = []
    try:
        left_behind, commands = kill_at_random_point(robustness_run_arguments(output, *RAY), output, lines)
        assert any("raylet" in command for command in commands)  # the killed driver had started a local Ray
    finally:
        stop_processes(left_behind)
    resumed = run_command(
        "textattack-semparse", *robustness_run_arguments(output, *RAY, "--resume"), env=run_subprocess_environment()
    )
    assert resumed.returncode == 0, resumed.stderr
    assert directory_files(output) == directory_files(uninterrupted)
