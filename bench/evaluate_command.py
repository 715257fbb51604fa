"""Benchmark: seconds of ``textattack-semparse evaluate --model knn-geo``, the whole command in a
fresh process, this checkout against a baseline commit.

Each run starts a new interpreter that runs the command's module (``python -c`` running
``textattack_semparse.cli`` as ``__main__``, the command's output discarded) with one package on
``PYTHONPATH``: this checkout's, or ``--baseline``'s (default 4335fac, whose victims and datasets
imported TextAttack, and torch with it; its package extracted with ``git archive``). Rounds
alternate the order; the median of each is printed with the ratio. Both must print the same
report (checked once before timing). On GeoQuery (``SEMPARSE_DATA_DIR``) the dataset is the
question split's 279 test questions; without it, the embedded geo-mini.

    .venv/bin/python bench/evaluate_command.py [--rounds 5] [--baseline REV]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from fresh_process_loads import timed_rounds
from robustness_build import ROOT, extract_package

ARGUMENTS = ["evaluate", "--model", "knn-geo", "--dataset", "geo-question-test"]
TIMED = (
    "import time\nstart = time.perf_counter()\n"
    "import contextlib, io, runpy, sys\n"
    f"sys.argv = ['textattack-semparse', *{ARGUMENTS!r}]\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    try:\n        runpy.run_module('textattack_semparse.cli', run_name='__main__')\n"
    "    except SystemExit as stop:\n        assert not stop.code, stop.code\n"
    "print(time.perf_counter() - start)\n"
)


def report(package_root: Path) -> str:
    """What the command prints with the package under ``package_root``."""
    run = subprocess.run(
        [sys.executable, "-m", "textattack_semparse.cli", *ARGUMENTS], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(package_root), "HF_HUB_OFFLINE": "1"}, cwd=package_root,
    )  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"evaluate failed:\n{run.stderr}")
    return run.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default="4335fac", help="the commit whose package is the baseline")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        if report(extract_package(options.baseline, Path(directory) / "baseline")) != report(ROOT):
            raise SystemExit(f"{options.baseline} and this checkout print different reports")
    print(
        f"`textattack-semparse {' '.join(ARGUMENTS)}` on "
        f"{'GeoQuery' if os.environ.get('SEMPARSE_DATA_DIR') else 'geo-mini'}: the same report; seconds per run"
    )
    medians = timed_rounds({"baseline": TIMED, "current": TIMED}, options.baseline, options.rounds)
    print(
        f"this checkout's evaluate is {medians['baseline'] / medians['current']:.2f}x as fast as "
        f"{options.baseline}'s (median of {options.rounds} rounds, a fresh process each)"
    )


if __name__ == "__main__":
    main()
