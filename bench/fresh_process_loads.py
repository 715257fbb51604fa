"""Timing a load in fresh processes, several ways side by side: the shared part of
``wordnet_load.py`` and ``gguf_load.py``.

Each way is a snippet run by ``python -c`` with one package on ``PYTHONPATH`` (this checkout's, or a
baseline commit's extracted with ``git archive``); the snippet prints its seconds last. Rounds
alternate the order of the ways, and the median of each way is reported.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from robustness_build import ROOT, extract_package


def load_seconds(snippet: str, package_root: Path) -> float:
    """The seconds ``snippet`` prints last, run in a new process importing the package under ``package_root``."""
    run = subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(package_root), "HF_HUB_OFFLINE": "1"}, cwd=package_root,
    )  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"a timed load failed:\n{run.stderr}")
    return float(run.stdout.split()[-1])


def timed_rounds(snippets: Mapping[str, str], baseline: str, rounds: int,
                 before: Callable[[], object] = lambda: None) -> dict[str, float]:  # fmt: skip
    """Median seconds of each way in ``snippets`` over ``rounds`` alternating rounds, printed with
    every round's figure; the way called ``"baseline"`` runs with the package of commit ``baseline``.
    ``before`` runs once before timing (e.g. to make an offline copy)."""
    with tempfile.TemporaryDirectory() as directory:
        roots = {way: ROOT for way in snippets} | {"baseline": extract_package(baseline, Path(directory) / "baseline")}
        before()
        times: dict[str, list[float]] = {way: [] for way in snippets}
        for round_number in range(rounds):
            order = list(snippets) if round_number % 2 == 0 else list(reversed(snippets))
            for way in order:
                times[way].append(load_seconds(snippets[way], roots[way]))
    medians = {way: statistics.median(values) for way, values in times.items()}
    width = max(map(len, snippets)) + 2
    for way, values in times.items():
        print(f"{way:<{width}} median {medians[way]:.2f} s  ({', '.join(f'{value:.2f}' for value in values)})")
    return medians
