"""Benchmark: seconds to load WordNet 3.0, as every command that judges meaning or swaps synonyms
does once per process.

Each load runs in a fresh process (NLTK already imported, so only the load is timed), in
rounds that alternate the order, and the median of each way is printed with the ratios:

* ``nltk``: NLTK's own loading of the plugin's offline copy (``nltk.corpus.wordnet.ensure_loaded()``
  after :func:`~textattack_semparse.linguistics.wordnet.ensure_wordnet`), which also maps WordNet
  3.0 onto itself and reads the lemma index through NLTK's seekable stream reader;
* ``baseline``: :func:`~textattack_semparse.linguistics.wordnet.load_wordnet` of ``--baseline``
  (default f68331f, which skipped only the self-mapping; its package extracted with ``git archive``);
* ``load_wordnet``: this checkout's, which also reads the lemma index and adjective satellites
  with Python's file object (the same maps; ``tests/linguistics/test_wordnet.py`` compares them).

    .venv/bin/python bench/wordnet_load.py [--rounds 5] [--baseline REV]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from robustness_build import ROOT, extract_package

LOAD_WORDNET = "from textattack_semparse.linguistics.wordnet import load_wordnet; wordnet = load_wordnet()\n"
WAYS = {
    "nltk": (
        "from textattack_semparse.linguistics.wordnet import ensure_wordnet; ensure_wordnet()\n"
        "from nltk.corpus import wordnet; wordnet.ensure_loaded()\n"
    ),
    "baseline": LOAD_WORDNET,  # run with the baseline's package
    "load_wordnet": LOAD_WORDNET,
}
TIMED = "import time, nltk\nstart = time.perf_counter()\n{load}assert wordnet.synsets('river')\nprint(time.perf_counter() - start)\n"


def _load_seconds(way: str, package_root: Path) -> float:
    """Seconds of one load the ``way`` names, in a new process importing the package under ``package_root``."""
    output = subprocess.run(
        [sys.executable, "-c", TIMED.format(load=WAYS[way])], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(package_root)}, cwd=package_root,
    ).stdout  # fmt: skip
    return float(output.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default="f68331f", help="the commit whose load_wordnet is the baseline")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        roots = {way: ROOT for way in WAYS} | {"baseline": extract_package(options.baseline, Path(directory) / "baseline")}
        _load_seconds("load_wordnet", ROOT)  # the offline copy is made once, before timing
        times: dict[str, list[float]] = {way: [] for way in WAYS}
        for round_number in range(options.rounds):
            order = list(WAYS) if round_number % 2 == 0 else list(reversed(WAYS))
            for way in order:
                times[way].append(_load_seconds(way, roots[way]))
    medians = {way: statistics.median(values) for way, values in times.items()}
    for way, values in times.items():
        print(f"{way:<13} median {medians[way]:.2f} s  ({', '.join(f'{value:.2f}' for value in values)})")
    print(f"load_wordnet is {medians['nltk'] / medians['load_wordnet']:.2f}x as fast as NLTK's own loading and "
          f"{medians['baseline'] / medians['load_wordnet']:.2f}x as fast as {options.baseline}'s "
          f"(median of {options.rounds} rounds, a fresh process each)")


if __name__ == "__main__":
    main()
