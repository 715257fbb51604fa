"""Benchmark: how long a mistaken command takes to say what is wrong, this checkout against a baseline commit.

A misspelt name or an output in the way is the most common mistake, and its one-line error used
to arrive only after TextAttack, torch and spaCy had loaded (about 8 s on the 2-core machine):
the workflows checked names and paths after importing the modules that use them. Each case here
runs the command in a fresh process (``python -m textattack_semparse.cli``, the console script's
code) with one package on ``PYTHONPATH``: this checkout's, or ``--baseline``'s (default 857b055,
the commit before the checks moved first; extracted with ``git archive``), alternating which goes
first, ``--rounds`` times. It prints the median seconds of each and their ratio, and checks that
both exit with status 2 and that this checkout names the fix. The embedded geo-mini data is used
(``SEMPARSE_DATA_DIR`` is cleared), so no real data is needed. ``attack`` tells a misspelt recipe
or victim from TextAttack's own names by reading its tables' names from its source
(:mod:`textattack_semparse.textattack_tables`), without importing it.

    .venv/bin/python bench/error_latency.py [--rounds 3] [--baseline REV]
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

from robustness_build import ROOT, extract_package

CASES: dict[str, tuple[list[str], str]] = {
    "augment, misspelt perturbation": (
        ["augment", "--recipe", "semparse-mda", "--perturbation", "deletin", "--input", "{geo}", "--output", "{tmp}/o.json"],
        "Did you mean 'deletion'?",
    ),
    "augment, output exists": (
        ["augment", "--recipe", "semparse-mda", "--input", "{geo}", "--output", "{existing}"],
        "pass --overwrite",
    ),
    "robustness build, misspelt perturbation": (
        ["robustness", "build", "--dataset", "geo-mini-question-test", "--perturbations", "deletin", "--output-dir",
         "{tmp}/b"],
        "Did you mean 'deletion'?",
    ),
    "robustness build, misspelt dataset": (
        ["robustness", "build", "--dataset", "geo-mini-question-tset", "--output-dir", "{tmp}/b"],
        "Did you mean 'geo-mini-question-test'?",
    ),
    "robustness build, another run's directory": (
        ["robustness", "build", "--dataset", "geo-mini-question-test", "--output-dir", "{attack_run}"],
        "holds a 'attack' run",
    ),
    "robustness run, misspelt victim": (
        ["robustness", "run", "--model", "knn-gep", "--output-dir", "{tmp}/r"],
        "Did you mean 'knn-geo'?",
    ),
    "train, misspelt benchmark": (
        ["train", "--benchmark", "geo-mni", "--output-dir", "{tmp}/t"],
        "Did you mean 'geo-mini'?",
    ),
    "evaluate, misspelt victim": (
        ["evaluate", "--model", "knn-gep", "--dataset", "geo-mini-question-test"],
        "Did you mean 'knn-geo'?",
    ),
    "attack, misspelt recipe": (
        ["attack", "--recipe", "semparse-gep", "--model", "knn-geo", "--output-dir", "{tmp}/a"],
        "Did you mean 'semparse-geo'?",
    ),
    "attack, misspelt victim": (
        ["attack", "--recipe", "semparse-geo", "--model", "knn-gep", "--output-dir", "{tmp}/a"],
        "Did you mean 'knn-geo'?",
    ),
    "grammar-attack, misspelt recipe": (
        ["grammar-attack", "--recipe", "nucle-gredy", "--model", "knn-geo", "--output-dir", "{tmp}/g"],
        "Did you mean 'nucle-greedy'?",
    ),
    "grammar-attack, misspelt victim": (
        ["grammar-attack", "--model", "knn-gep", "--output-dir", "{tmp}/g"],
        "Did you mean 'knn-geo'?",
    ),
}  # fmt: skip


def places(directory: Path) -> dict[str, str]:
    """The paths the commands are given: an output that exists, a directory holding an attack's run."""
    from textattack_semparse.datasets.geo_mini import geo_mini_paths

    existing = directory / "augmented.json"
    existing.write_text("[]\n")
    attack_run = directory / "attack-run"
    attack_run.mkdir()
    (attack_run / "run.json").write_text(json.dumps({"command": "attack", "configuration": {}}))
    return {"tmp": str(directory), "existing": str(existing), "attack_run": str(attack_run), "geo": str(geo_mini_paths()[0])}


def mistaken_run(package_root: Path, argv: list[str], cache: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Seconds of the command in a fresh process with the package under ``package_root``, and its outcome."""
    environment = {**os.environ, "PYTHONPATH": str(package_root), "SEMPARSE_DATA_DIR": "", "HF_HUB_OFFLINE": "1",
                   "TEXTATTACK_SEMPARSE_CACHE": cache}  # fmt: skip
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "textattack_semparse.cli", *argv], capture_output=True, text=True,
                         env=environment, cwd=package_root)  # fmt: skip
    return time.perf_counter() - start, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="857b055", help="the commit whose package is the baseline")
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        roots = {"baseline": extract_package(options.baseline, Path(directory) / "baseline"), "this checkout": ROOT}
        given = places(Path(directory))
        cache = str(Path(directory) / "cache")
        for case, (arguments, fix) in CASES.items():
            argv = [argument.format(**given) for argument in arguments]
            times: dict[str, list[float]] = {way: [] for way in roots}
            for round_number in range(options.rounds):
                for way in list(roots) if round_number % 2 == 0 else list(reversed(roots)):
                    seconds, run = mistaken_run(roots[way], argv, cache)
                    if run.returncode != 2 or (way == "this checkout" and fix not in run.stderr):
                        raise SystemExit(f"{case}, {way}: exit {run.returncode}, expected 2 naming {fix!r}:\n{run.stderr}")
                    times[way].append(seconds)
            rows.append((case, statistics.median(times["baseline"]), statistics.median(times["this checkout"])))
    print(f"A mistaken command in a fresh process until its one-line error (exit 2), median of {options.rounds}, "
          f"{options.baseline} vs this checkout (geo-mini):")  # fmt: skip
    print(f"{'case':<42} {options.baseline:>9} {'now':>7} {'faster':>7}")
    for case, before, now in rows:
        print(f"{case:<42} {before:>8.2f}s {now:>6.2f}s {before / now:>6.1f}x")


if __name__ == "__main__":
    main()
