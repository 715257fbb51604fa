"""Benchmark: `textattack-semparse augment` with random deletion / swap versus nlpaug's RandomWordAug.

On GeoQuery's 877 questions (``$SEMPARSE_DATA_DIR/text2sql/geography.json``) when
SEMPARSE_DATA_DIR is set, otherwise the embedded geo-mini file. Measured side by side in one
process, in alternating rounds (the median round is reported), imports excluded:

* nlpaug ``RandomWordAug(action="delete")`` / ``(action="swap")`` with its defaults, one
  augmentation per question (``augment(question)``);
* the project's augmentation step exactly as ``textattack-semparse augment --recipe semparse-mda
  --perturbation random-deletion|random-swap --transformations-per-example 1`` runs it: the
  augmenter ``build_augmenter`` makes, wrapped by ``protecting_literals``, called on each
  question with the literals of its gold query (the sentence's values and the SQL's literals,
  as ``text2sql_items`` lists them), one augmentation per question;
* the whole command, file to file (reading and parsing the JSON, extracting the literals,
  augmenting, checking the literals and re-templating each output, writing the JSON), for
  information: nlpaug has no counterpart that reads or writes a file.

Every project output is checked to keep its gold literals (the run stops otherwise).

    .venv/bin/python bench/augment_throughput.py [--rounds 7] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import nlpaug.augmenter.word as naw

from textattack_semparse.augmentation.literal_protection import keeps_literals, protecting_literals
from textattack_semparse.augmentation.text2sql_augmentation import text2sql_items
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.experiments import augment

OPERATIONS = (("random-deletion", "delete"), ("random-swap", "swap"))


def _input_file(data_dir: str | None) -> tuple[Path, str]:
    if data_dir:
        return Path(data_dir) / "text2sql" / "geography.json", "GeoQuery (SEMPARSE_DATA_DIR)"
    return geo_mini_paths()[0], "geo-mini (SEMPARSE_DATA_DIR unset)"


def _augment_config(source: Path, target: Path, operation: str) -> augment.AugmentConfig:
    """The whole workflow ``textattack-semparse augment`` runs, as a Python user calls it."""
    return augment.AugmentConfig(
        recipe="semparse-mda", perturbations=(operation,), input=source, output=target, overwrite=True,
        transformations_per_example=1,
    )  # fmt: skip


def _seconds(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--data-dir", default=os.environ.get("SEMPARSE_DATA_DIR"))
    options = parser.parse_args()
    source, label = _input_file(options.data_dir)
    items = text2sql_items(source)
    questions = [(item.question, item.literals) for item in items]
    passes = max(1, 2000 // len(questions))  # each timed pass of the two augmenters sees >= 2,000 questions
    print(f"{label}: {len(questions)} questions ({passes} passes per round for the augmenters), {options.rounds} "
          "alternating rounds, median round; one augmentation per question")
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for operation, action in OPERATIONS:
            nlpaug = naw.RandomWordAug(action=action)
            augmenter = augment.build_augmenter(
                "semparse-mda", pct_words_to_swap=0.1, transformations_per_example=1, seed=0, perturbations=[operation]
            )
            augment_question = protecting_literals(augmenter)
            for question, literals in questions:
                for output in augment_question(question, literals):
                    if not keeps_literals(question, output, literals):
                        raise SystemExit(f"{operation} changed a literal of {literals}: {question!r} -> {output!r}")
            config = _augment_config(source, Path(directory) / f"{operation}.json", operation)
            times: dict[str, list[float]] = {"nlpaug": [], "augment": [], "command": []}
            for _ in range(options.rounds):
                times["nlpaug"].append(
                    _seconds(lambda: [nlpaug.augment(question) for _ in range(passes) for question, _ in questions]) / passes
                )
                times["augment"].append(
                    _seconds(lambda: [augment_question(q, ls) for _ in range(passes) for q, ls in questions]) / passes
                )
                times["command"].append(_seconds(lambda: augment.run(config)))
            rates = {name: len(questions) / statistics.median(values) for name, values in times.items()}
            rows.append((operation, action, rates))
    print(f"{'perturbation':<16} {'nlpaug RandomWordAug':>22} {'augment step':>14} {'ratio':>6}   "
          f"{'whole command':>14} {'ratio':>6}")
    for operation, action, rates in rows:
        print(f"{operation:<16} {rates['nlpaug']:>13,.0f} ({action:>6}) {rates['augment']:>14,.0f} "
              f"{rates['augment'] / rates['nlpaug']:>6.2f}   {rates['command']:>14,.0f} "
              f"{rates['command'] / rates['nlpaug']:>6.2f}")
    print("sentences/s; ratio = project / nlpaug (target >= 1.00 for the augment step)")


if __name__ == "__main__":
    main()
