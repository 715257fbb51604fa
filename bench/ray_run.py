"""Benchmark: seconds of ``textattack-semparse robustness run --backend ray --workers 2`` (a local Ray on
127.0.0.1), the whole command in a fresh process, this checkout against a baseline commit.

``knn-geo`` with the deletion and distraction perturbations on the first ``--num-examples`` (default
40) GeoQuery test questions (``SEMPARSE_DATA_DIR``; without it, geo-mini's 28). Each run uses the
package of this checkout or of ``--baseline`` (default 4335fac, which started one set of Ray
workers for the build and another for the evaluation, and forwarded the environment to a local
Ray as a runtime environment; its package extracted with ``git archive``), rounds alternating the
order; the median of each is printed with the ratio. The two runs' files must be byte-identical
(but the record of the command lines).

    .venv/bin/python bench/ray_run.py [--rounds 3] [--num-examples 40] [--baseline REV]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from robustness_build import ROOT, extract_package

RECORD_OF_COMMANDS = "invocations.jsonl"


def run(package_root: Path, output: Path, num_examples: int) -> float:
    """Seconds of one Ray ``robustness run`` with the package under ``package_root``."""
    command = [
        sys.executable, "-m", "textattack_semparse.cli", "robustness", "run", "--model", "knn-geo", "--perturbations",
        "deletion", "distraction", "--num-examples", str(num_examples), "--batch-size", "8", "--output-dir",
        str(output), "--no-progress", "--overwrite", "--backend", "ray", "--workers", "2",
    ]  # fmt: skip
    environment = {**os.environ, "PYTHONPATH": str(package_root), "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    start = time.perf_counter()
    subprocess.run(command, env=environment, cwd=package_root, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != RECORD_OF_COMMANDS
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--num-examples", type=int, default=40)
    parser.add_argument("--baseline", default="4335fac", help="the commit whose package is the baseline")
    options = parser.parse_args()
    seconds: dict[str, list[float]] = {"baseline": [], "current": []}
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        roots = {"baseline": extract_package(options.baseline, work / "baseline-package"), "current": ROOT}
        for round_number in range(options.rounds):
            order = ["baseline", "current"] if round_number % 2 == 0 else ["current", "baseline"]
            for name in order:
                seconds[name].append(run(roots[name], work / name, options.num_examples))
        if files(work / "baseline") != files(work / "current"):
            raise SystemExit("the two packages wrote different files")
    medians = {name: statistics.median(values) for name, values in seconds.items()}
    for name, values in seconds.items():
        print(f"{name:<9} median {medians[name]:.1f} s  ({', '.join(f'{value:.1f}' for value in values)})")
    print(
        f"a Ray robustness run of {options.num_examples} questions takes {medians['current'] / medians['baseline']:.2f}x "
        f"the time of {options.baseline}'s ({medians['baseline'] / medians['current']:.2f}x as fast), the same files"
    )


if __name__ == "__main__":
    main()
