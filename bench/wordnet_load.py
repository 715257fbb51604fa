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

from fresh_process_loads import load_seconds, timed_rounds
from robustness_build import ROOT

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default="f68331f", help="the commit whose load_wordnet is the baseline")
    options = parser.parse_args()
    snippets = {way: TIMED.format(load=load) for way, load in WAYS.items()}
    make_offline_copy = lambda: load_seconds(snippets["load_wordnet"], ROOT)  # noqa: E731 - once, before timing
    medians = timed_rounds(snippets, options.baseline, options.rounds, before=make_offline_copy)
    print(f"load_wordnet is {medians['nltk'] / medians['load_wordnet']:.2f}x as fast as NLTK's own loading and "
          f"{medians['baseline'] / medians['load_wordnet']:.2f}x as fast as {options.baseline}'s "
          f"(median of {options.rounds} rounds, a fresh process each)")


if __name__ == "__main__":
    main()
