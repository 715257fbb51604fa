"""Benchmark: candidates per second, ``transformations.word_edits`` against TextAttack's ``AttackedText`` methods.

Builds the candidates a function-word transformation builds (every insertion before a word, every
substitution and every deletion, with a list of words) for every test question of GeoQuery's
logical-form split (the embedded geo-mini when SEMPARSE_DATA_DIR is unset), once with TextAttack's
methods and once with the plugin's functions, alternating which goes first, ``--repeat`` times. It
prints candidates per second of each, the median ratio, and whether every candidate's text and
``attack_attrs`` were the same both ways (issue 27, item 2).

    .venv/bin/python bench/word_edits.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from collections.abc import Callable

import numpy as np
from textattack.shared import AttackedText

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.transformations import word_edits

WORDS = ("the", "a", "very", "is", "just", "really", "also", "then")
Edit = Callable[[AttackedText, int, str], AttackedText]


def candidates(
    texts: list[AttackedText], insert: Edit, replace: Edit, delete: Callable[[AttackedText, int], AttackedText]
) -> list[AttackedText]:
    built = []
    for text in texts:
        for index in range(text.num_words):
            built.extend(insert(text, index, word) for word in WORDS)
            built.extend(replace(text, index, word) for word in WORDS)
            built.append(delete(text, index))
    return built


def textattack_candidates(texts: list[AttackedText]) -> list[AttackedText]:
    return candidates(
        texts,
        lambda text, index, word: text.insert_text_before_word_index(index, word),
        lambda text, index, word: text.replace_word_at_index(index, word),
        lambda text, index: text.delete_word_at_index(index),
    )


def plugin_candidates(texts: list[AttackedText]) -> list[AttackedText]:
    return candidates(
        texts,
        word_edits.insert_text_before_word_index,
        word_edits.replace_word_at_index,
        word_edits.delete_word_at_index,
    )


def same(first: AttackedText, second: AttackedText) -> bool:
    if first.text != second.text or set(first.attack_attrs) != set(second.attack_attrs):
        return False
    return all(
        np.array_equal(value, second.attack_attrs[key])
        if isinstance(value, np.ndarray)
        else value == second.attack_attrs[key]
        for key, value in first.attack_attrs.items()
        if key != "previous_attacked_text"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    benchmark = "geo-lambda" if os.environ.get("SEMPARSE_DATA_DIR") else "geo-mini"
    dataset = load_benchmark(benchmark).dataset("question", "test")
    texts = [AttackedText(next(iter(columns.values()))) for columns, _ in dataset]
    # One untimed pass: the comparison, and the warm-up of both paths.
    reference, built = textattack_candidates(texts), plugin_candidates(texts)
    identical = len(reference) == len(built) and all(same(a, b) for a, b in zip(reference, built))
    count = len(built)
    del reference, built
    ratios = []
    for round_ in range(args.repeat):
        rates = {}
        order = [("textattack", textattack_candidates), ("word_edits", plugin_candidates)]
        for name, build in order if round_ % 2 == 0 else order[::-1]:
            gc.collect()
            start = time.perf_counter()
            build(texts)
            rates[name] = count / (time.perf_counter() - start)
            print(f"round {round_ + 1} {name:10s} {count} candidates: {rates[name]:9.0f}/s")
        ratios.append(rates["word_edits"] / rates["textattack"])
    print(f"{benchmark} test questions ({len(texts)}); every candidate the same both ways: {identical}")
    print(f"candidates per second, word_edits / TextAttack, median of {len(ratios)}: {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
