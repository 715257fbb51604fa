"""Benchmark: `textattack-semparse augment` with random deletion / swap versus nlpaug's RandomWordAug.

On GeoQuery's 877 questions (``$SEMPARSE_DATA_DIR/text2sql/geography.json``) when
SEMPARSE_DATA_DIR is set, otherwise the embedded geo-mini file. Measured side by side in one
process, in alternating rounds (the median round is reported), imports excluded:

* nlpaug ``RandomWordAug(action="delete")`` / ``(action="swap")`` with its defaults, one
  augmentation per question (``augment(question)``); nlpaug judges nothing;
* the project's augmentation step as ``textattack-semparse augment --recipe semparse-mda
  --perturbation random-deletion|random-swap --transformations-per-example 1 --no-judge`` runs
  it: the augmenter ``build_augmenter`` makes, wrapped by ``protecting_literals``, called on each
  question with the literals of its gold query (the sentence's values and the SQL's literals,
  as ``text2sql_items`` lists them), one augmentation per question;
* that whole command, file to file, with ``--no-judge`` (no meaning judge, like nlpaug): reading
  and parsing the JSON, extracting the literals, augmenting, checking the literals and
  re-templating each output, writing the JSON. This is issue 27's figure (target >= 1.0x).

For information, the whole command as it runs by default, with the offline meaning judge (it
reads each question and candidate with spaCy), is timed after the rounds, ``--judge-runs`` times
(median).

Every project output is checked to keep its gold literals (the run stops otherwise).

    .venv/bin/python bench/augment_throughput.py [--rounds 7] [--judge-runs 1] [--data-dir DIR]

Measured 2026-11-26 on GeoQuery (2 CPU cores shared with other jobs, so ratios move by about 0.1
from run to run), this bench run back to back on the code before issue 27's item 3 and after it:
whole command ``--no-judge`` 0.39x / 0.34x (deletion / swap) before, 0.59x / 0.57x after
(another pair: 0.33x / 0.34x, 0.64x / 0.54x); augment step 1.27x / 1.23x after; default judge
0.002x-0.003x both times. On 2026-11-29, on a quiet machine, back to back with the commit before
random swap decided pairs without building the swap: whole command 0.49x / 0.53x before, 0.50x /
0.56x after; augment step 1.09x / 1.15x before, 1.03x / 1.42x after. The issue's 1.0x for the
whole command is not reached: reading and checking the file, re-templating and checking each
output cost about as much again as augmenting.
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
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE

OPERATIONS = (("random-deletion", "delete"), ("random-swap", "swap"))


def _input_file(data_dir: str | None) -> tuple[Path, str]:
    if data_dir:
        return Path(data_dir) / "text2sql" / "geography.json", "GeoQuery (SEMPARSE_DATA_DIR)"
    return geo_mini_paths()[0], "geo-mini (SEMPARSE_DATA_DIR unset)"


def _augment_config(source: Path, target: Path, operation: str, judges: tuple[str, ...]) -> augment.AugmentConfig:
    """The whole workflow ``textattack-semparse augment`` runs, as a Python user calls it (``judges=()``: ``--no-judge``)."""
    return augment.AugmentConfig(
        recipe="semparse-mda", perturbations=(operation,), input=source, output=target, overwrite=True,
        transformations_per_example=1, judges=judges,
    )  # fmt: skip


def _seconds(function: Callable[..., object], *arguments: object) -> float:
    start = time.perf_counter()
    function(*arguments)
    return time.perf_counter() - start


def _augment_each(augment_question: Callable[..., object], questions: list[tuple[str, tuple[str, ...]]], passes: int,
                  with_literals: bool) -> None:  # fmt: skip
    """``passes`` passes of ``augment_question`` over the questions (with their literals when ``with_literals``)."""
    for _ in range(passes):
        for question, literals in questions:
            augment_question(question, literals) if with_literals else augment_question(question)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--judge-runs", type=int, default=1, help="runs of the command with the default judge (0: none)")
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
                "semparse-mda", pct_words_to_swap=0.1, transformations_per_example=1, seed=0, judges=(),
                perturbations=[operation],
            )  # fmt: skip
            augment_question = protecting_literals(augmenter)
            for question, literals in questions:
                for output in augment_question(question, literals):
                    if not keeps_literals(question, output, literals):
                        raise SystemExit(f"{operation} changed a literal of {literals}: {question!r} -> {output!r}")
            config = _augment_config(source, Path(directory) / f"{operation}.json", operation, judges=())
            times: dict[str, list[float]] = {"nlpaug": [], "augment": [], "command": []}
            for _ in range(options.rounds):
                times["nlpaug"].append(_seconds(_augment_each, nlpaug.augment, questions, passes, False) / passes)
                times["augment"].append(_seconds(_augment_each, augment_question, questions, passes, True) / passes)
                times["command"].append(_seconds(augment.run, config))
            judged = _augment_config(source, Path(directory) / f"{operation}-judged.json", operation, (DEFAULT_JUDGE,))
            times["judged"] = [_seconds(augment.run, judged) for _ in range(options.judge_runs)]
            rates = {name: len(questions) / statistics.median(values) for name, values in times.items() if values}
            rows.append((operation, action, rates))
    print(f"{'perturbation':<16} {'nlpaug RandomWordAug':>22} {'augment step':>14} {'ratio':>6}   "
          f"{'whole command':>14} {'ratio':>6}   {'default judge':>14} {'ratio':>6}")
    for operation, action, rates in rows:
        judged = (f"{rates['judged']:>14,.0f} {rates['judged'] / rates['nlpaug']:>6.3f}" if "judged" in rates
                  else f"{'-':>14} {'-':>6}")
        print(f"{operation:<16} {rates['nlpaug']:>13,.0f} ({action:>6}) {rates['augment']:>14,.0f} "
              f"{rates['augment'] / rates['nlpaug']:>6.2f}   {rates['command']:>14,.0f} "
              f"{rates['command'] / rates['nlpaug']:>6.2f}   {judged}")
    print("sentences/s; ratio = project / nlpaug. augment step and whole command (file to file): --no-judge, like "
          "nlpaug (target >= 1.00 for the whole command);")
    print(f"default judge: the whole command as it runs by default, with the offline meaning judge, for information "
          f"(median of {options.judge_runs} run(s) after the rounds)")


if __name__ == "__main__":
    main()
