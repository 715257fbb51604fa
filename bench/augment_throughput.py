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

The rounds run in one process, after every question has been augmented once (to check its
literals): spaCy's parses of the questions, which the operations read to keep the words a question
needs, are then cached, so the rounds time a warm command. A user's command is a fresh process
that parses every question first, so the bench also times each **first run** in a fresh process
(``--first-runs`` of them, median), imports excluded on both sides (TextAttack's included): the
command's ``augment.run`` (loading the spaCy pipeline and parsing included) against nlpaug's
augmenter made and run over the questions once.

For information, the whole command as it runs by default, with the offline meaning judge (it
reads each question and candidate with spaCy), is timed after the rounds, ``--judge-runs`` times
(median).

Every project output is checked to keep its gold literals (the run stops otherwise).

    .venv/bin/python bench/augment_throughput.py [--rounds 7] [--first-runs 3] [--judge-runs 1] [--data-dir DIR]

Measured 2026-11-26 on GeoQuery (2 CPU cores shared with other jobs, so ratios move by about 0.1
from run to run), this bench run back to back on the code before issue 27's item 3 and after it:
whole command ``--no-judge`` 0.39x / 0.34x (deletion / swap) before, 0.59x / 0.57x after
(another pair: 0.33x / 0.34x, 0.64x / 0.54x); augment step 1.27x / 1.23x after; default judge
0.002x-0.003x both times. On 2026-11-29, on a quiet machine, back to back with the commit before
random swap decided pairs without building the swap: whole command 0.49x / 0.53x before, 0.50x /
0.56x after; augment step 1.09x / 1.15x before, 1.03x / 1.42x after. The issue's 1.0x for the
whole command is not reached: reading and checking the file, re-templating and checking each
output cost about as much again as augmenting. Those figures are the warm command's. First runs,
measured 2026-11-29 on a quiet machine (``--rounds 5 --first-runs 3``): 1.39 s / 1.44 s for the
877 questions against nlpaug's 25 ms / 30 ms, 0.018x / 0.021x (warm: 0.50x / 0.55x): loading
spaCy and parsing each question (about 0.7 ms a question, to keep the words it needs) is what a
first run adds, about forty times nlpaug's whole work per question.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
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


_FIRST_RUN = """
import sys, time
from pathlib import Path
source, target, operation, action, side = sys.argv[1:]
if side == "nlpaug":
    import nlpaug.augmenter.word as naw
    from textattack_semparse.augmentation.text2sql_augmentation import text2sql_items
    questions = [item.question for item in text2sql_items(source)]
    start = time.perf_counter()
    augmenter = naw.RandomWordAug(action=action)
    for question in questions:
        augmenter.augment(question)
else:
    from textattack_semparse.experiments import augment
    from textattack_semparse.registry import augmentation_recipe_class
    augmentation_recipe_class("semparse-mda")  # imports TextAttack
    config = augment.AugmentConfig(recipe="semparse-mda", perturbations=(operation,), input=Path(source),
                                   output=Path(target), overwrite=True, transformations_per_example=1, judges=())
    start = time.perf_counter()
    augment.run(config)
print(time.perf_counter() - start)
"""
"""One first run in a fresh process, imports excluded: the command's ``augment.run`` (``--no-judge``)
or nlpaug's augmenter made and run over the file's questions once; prints its seconds."""


def _first_run_seconds(side: str, source: Path, target: Path, operation: str, action: str) -> float:
    """Seconds of one first run (:data:`_FIRST_RUN`) of ``side`` ("project" or "nlpaug") in a fresh process."""
    command = [sys.executable, "-c", _FIRST_RUN, str(source), str(target), operation, action, side]
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    output = subprocess.run(command, env=environment, check=True, capture_output=True, text=True).stdout
    return float(output.strip().splitlines()[-1])


def _augment_each(augment_question: Callable[..., object], questions: list[tuple[str, tuple[str, ...]]], passes: int,
                  with_literals: bool) -> None:  # fmt: skip
    """``passes`` passes of ``augment_question`` over the questions (with their literals when ``with_literals``)."""
    for _ in range(passes):
        for question, literals in questions:
            augment_question(question, literals) if with_literals else augment_question(question)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--first-runs", type=int, default=3, help="first runs in a fresh process, per side (0: none)")
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
            for _ in range(options.first_runs):  # alternating sides
                for side in ("nlpaug", "project"):
                    seconds = _first_run_seconds(side, source, Path(directory) / f"{operation}-first.json", operation, action)
                    times.setdefault(f"first {side}", []).append(seconds)
            judged = _augment_config(source, Path(directory) / f"{operation}-judged.json", operation, (DEFAULT_JUDGE,))
            times["judged"] = [_seconds(augment.run, judged) for _ in range(options.judge_runs)]
            rates = {name: len(questions) / statistics.median(values) for name, values in times.items() if values}
            rows.append((operation, action, rates))
    print(f"{'perturbation':<16} {'nlpaug RandomWordAug':>22} {'augment step':>14} {'ratio':>6}   "
          f"{'command, warm':>14} {'ratio':>6}   {'first runs':>19} {'ratio':>6}   {'default judge':>14} {'ratio':>6}")
    for operation, action, rates in rows:
        judged = (f"{rates['judged']:>14,.0f} {rates['judged'] / rates['nlpaug']:>6.3f}" if "judged" in rates
                  else f"{'-':>14} {'-':>6}")
        first = (f"{rates['first project']:>8,.0f} vs {rates['first nlpaug']:>7,.0f} "
                 f"{rates['first project'] / rates['first nlpaug']:>6.3f}" if "first project" in rates
                 else f"{'-':>19} {'-':>6}")
        print(f"{operation:<16} {rates['nlpaug']:>13,.0f} ({action:>6}) {rates['augment']:>14,.0f} "
              f"{rates['augment'] / rates['nlpaug']:>6.2f}   {rates['command']:>14,.0f} "
              f"{rates['command'] / rates['nlpaug']:>6.2f}   {first}   {judged}")
    print("sentences/s; ratio = project / nlpaug. augment step and command (file to file): --no-judge, like nlpaug "
          "(target >= 1.00 for the whole command);")
    print("command, warm: in the rounds' process, the questions' parses cached; first runs: the command's first run "
          f"in a fresh process vs nlpaug's, imports excluded (median of {options.first_runs});")
    print(f"default judge: the whole command as it runs by default, with the offline meaning judge, for information "
          f"(median of {options.judge_runs} run(s) after the rounds)")


if __name__ == "__main__":
    main()
