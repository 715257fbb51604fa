"""Benchmark: the ``augment`` command as a user runs it, this checkout against a baseline commit.

``bench/augment_throughput.py`` times augmentation inside one process, where every round after the
first finds the questions' parses cached. A user runs the command once, in a new process: it
imports TextAttack, loads spaCy (and WordNet, with the judge), parses each question to know which
words it must keep, and, by default, judges the candidates. This bench runs
``textattack-semparse augment --recipe semparse-mda --perturbation random-deletion|random-swap``
on GeoQuery (``$SEMPARSE_DATA_DIR/text2sql/geography.json``; the embedded geo-mini file when
SEMPARSE_DATA_DIR is unset), with the default meaning judge and with ``--no-judge``, each in a
fresh process through the CLI, with this checkout's package and with the package of
``--baseline`` (its ``textattack_semparse/`` extracted with ``git archive``), alternating which
goes first, ``--repeat`` times. It prints the median wall-clock seconds of each and their ratio,
and checks the files: with ``--no-judge`` they must be byte-identical; with the judge it prints the
questions each added (the baseline judged all of a step's candidates before drawing one, this
checkout judges them in the draw order: the same distribution, other draws).

    .venv/bin/python bench/augment_command.py [--repeat 3] [--baseline REV]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from augment_throughput import _input_file
from robustness_build import extract_package

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "49692e3"  # main before augmentation read the questions ahead and judged in the draw order
OPERATIONS = ("random-deletion", "random-swap")


def run_command(package_root: Path, source: Path, output: Path, operation: str, judged: bool) -> float:
    """Seconds of one ``augment`` command run with the package under ``package_root``."""
    command = [
        sys.executable, "-m", "textattack_semparse.cli", "augment", "--recipe", "semparse-mda", "--perturbation",
        operation, "--input", str(source), "--output", str(output), "--overwrite", "--no-progress",
    ]  # fmt: skip
    if not judged:
        command.append("--no-judge")
    environment = {**os.environ, "PYTHONPATH": str(package_root), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    start = time.perf_counter()
    # The working directory holds no package: Python puts it first on the path.
    subprocess.run(command, env=environment, cwd=output.parent, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def questions_written(path: Path) -> int:
    """The sentences of an augmented text2sql file (the originals and the augmentations)."""
    return sum(len(entry["sentences"]) for entry in json.loads(path.read_text(encoding="utf-8")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision measured against (default {BASELINE})")
    options = parser.parse_args()
    source, label = _input_file(os.environ.get("SEMPARSE_DATA_DIR"))
    print(f"{label}; baseline {options.baseline}; each command in a new process, median of {options.repeat}")
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        roots = {"baseline": extract_package(options.baseline, work / "baseline-package"), "current": ROOT}
        for operation in OPERATIONS:
            for judged in (True, False):
                seconds: dict[str, list[float]] = {"baseline": [], "current": []}
                outputs = {}
                for round_number in range(options.repeat):
                    order = ["baseline", "current"] if round_number % 2 == 0 else ["current", "baseline"]
                    for name in order:
                        outputs[name] = work / name / f"{operation}-{'judged' if judged else 'no-judge'}.json"
                        outputs[name].parent.mkdir(exist_ok=True)
                        seconds[name].append(run_command(roots[name], source, outputs[name], operation, judged))
                old, new = statistics.median(seconds["baseline"]), statistics.median(seconds["current"])
                if judged:
                    files = f"questions written {questions_written(outputs['baseline'])} / {questions_written(outputs['current'])}"
                elif outputs["baseline"].read_bytes() == outputs["current"].read_bytes():
                    files = "files byte-identical"
                else:
                    sys.exit(f"{operation} --no-judge: the two packages wrote different files")
                rows.append((operation, "default judge" if judged else "--no-judge", old, new, files))
    print(f"{'perturbation':<16} {'judge':<14} {'baseline s':>10} {'current s':>10} {'speed-up':>9}   files")
    for operation, judge, old, new, files in rows:
        print(f"{operation:<16} {judge:<14} {old:>10.1f} {new:>10.1f} {old / new:>8.2f}x   {files}")


if __name__ == "__main__":
    main()
