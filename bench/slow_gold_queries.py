"""Benchmark: ``textattack-semparse evaluate --model knn-atis --dataset atis-question-test``, the whole
command in a fresh process, with no slow gold query stored yet and then with them stored.

ATIS's question-split test set has two gold queries that take minutes in SQLite: #317 runs into
the benchmark's 300 s gold limit (a gold error) and #272 takes about 40 s. Every process that
judged them used to wait that long again; :mod:`textattack_semparse.sql.slow_gold_results` keeps
the result of a gold query that ran a second or more, per database file, so only the first
command waits. Both runs here use one new cache directory (``TEXTATTACK_SEMPARSE_CACHE``): the
first finds it empty, the second finds what the first stored. Both must print the same report
(the accuracy and its gold errors). Needs SEMPARSE_DATA_DIR (ATIS); without it, it says so and stops.

    .venv/bin/python bench/slow_gold_queries.py [--num-examples N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time


def evaluate(cache: str, num_examples: int | None) -> tuple[float, str]:
    """Seconds and report of one ``evaluate`` run in a fresh process with the cache directory ``cache``."""
    command = [sys.executable, "-m", "textattack_semparse.cli", "evaluate", "--model", "knn-atis", "--dataset",
               "atis-question-test"]  # fmt: skip
    if num_examples is not None:
        command += ["--num-examples", str(num_examples)]
    environment = {**os.environ, "TEXTATTACK_SEMPARSE_CACHE": cache, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    start = time.perf_counter()
    run = subprocess.run(command, env=environment, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, run.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-examples", type=int, default=None, help="the first N test questions (default: all 447)")
    options = parser.parse_args()
    if not os.environ.get("SEMPARSE_DATA_DIR"):
        print("bench/slow_gold_queries.py: skipped, it needs SEMPARSE_DATA_DIR (ATIS)")
        return
    with tempfile.TemporaryDirectory() as cache:
        first, first_report = evaluate(cache, options.num_examples)
        second, second_report = evaluate(cache, options.num_examples)
    if first_report != second_report:
        sys.exit(f"the two runs printed different reports:\n{first_report}\n---\n{second_report}")
    print(first_report.strip())
    print(f"first run (nothing stored) {first:8.1f} s")
    print(f"next run (slow golds read) {second:8.1f} s")
    print(f"ratio first / next: {first / second:.2f}x")


if __name__ == "__main__":
    main()
