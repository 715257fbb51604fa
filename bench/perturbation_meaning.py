"""Benchmark: how often each question perturbation proposes a rewrite, and how often the offline
meaning judge calls a proposed rewrite the same question.

For every question of a dataset, a perturbation proposes its distinct rewrites exactly as a
robustness build makes them (:class:`~textattack_semparse.perturbations.example_perturber.ExamplePerturber`:
gold recorded, ``RepeatModification`` and ``PreserveLiterals``, the generators reseeded per
example), with no sampling or Sentence-BERT ranking, so every proposal is counted. The table
gives, per dataset, perturbation and setting:

* ``coverage``: the share of questions with at least one rewrite;
* ``same``: the share of all proposed rewrites the default judge (vetoes, then the packaged reader) calls the
  same question;
* ``covered after judge``: the share of questions with at least one rewrite the judge keeps
  (what a judged build can still draw from).

The function-word perturbations run in the default setting and with the ``huang-2021`` setting's
options (``robustness build --setting huang-2021``). Datasets: the packaged geo-mini test split
and, when ``SEMPARSE_DATA_DIR`` is set, GeoQuery's ``geo-lambda-test``.

    PYTHONPATH=. .venv/bin/python bench/perturbation_meaning.py [--limit N] [--examples 5]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from textattack_semparse.judges.grounded_judge import GroundedJudge, default_judge
from textattack_semparse.perturbations.example_perturber import ExamplePerturber, create_perturbation
from textattack_semparse.robustness.build_test_set import dataset_examples
from textattack_semparse.robustness.selection_settings import SETTING_PERTURBATION_OPTIONS

PERTURBATIONS: tuple[tuple[str, str], ...] = (
    ("deletion", "default"),
    ("deletion", "huang-2021"),
    ("insertion", "default"),
    ("insertion", "huang-2021"),
    ("substitution-f", "default"),
    ("substitution-f", "huang-2021"),
    ("substitution-wordnet", "default"),
    ("random-deletion", "default"),
    ("random-swap", "default"),
    ("reordering", "default"),
)
"""(registered perturbation, setting): ``default`` is the registered options alone."""


@dataclass
class Tally:
    """Counts of one perturbation on one dataset."""

    questions: int = 0
    covered: int = 0
    proposed: int = 0
    same: int = 0
    covered_after_judge: int = 0
    seconds: float = 0.0
    kept: list[tuple[str, str]] = field(default_factory=list)
    rejected: list[tuple[str, str, str]] = field(default_factory=list)


def measure(examples: Sequence, perturbation: str, options: Mapping[str, object], judge: GroundedJudge) -> Tally:
    """Propose and judge every rewrite of every example's question."""
    transformation = create_perturbation(perturbation, seed=0, options=options)
    perturber = ExamplePerturber(transformation, perturbation, candidates=None, keep=None, seed=0, judge=judge)
    tally = Tally()
    start = time.perf_counter()
    for example_id, example in enumerate(examples):
        result = perturber.perturb(example_id, example)
        tally.questions += 1
        tally.covered += result.proposed > 0
        tally.proposed += result.proposed
        tally.same += result.proposed - len(result.rejected)
        tally.covered_after_judge += bool(result.utterances)
        tally.kept.extend((example.question, utterance.perturbed) for utterance in result.utterances)
        tally.rejected.extend((example.question, rewrite, reason) for rewrite, reason in result.rejected)
    tally.seconds = time.perf_counter() - start
    return tally


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="questions per dataset (default: all)")
    parser.add_argument("--examples", type=int, default=0, help="print this many kept and rejected rewrites per row")
    parser.add_argument("--only", nargs="*", default=None, help="perturbation names to run (default: all)")
    options = parser.parse_args()
    datasets = ["geo-mini-question-test"] + (["geo-lambda-test"] if os.environ.get("SEMPARSE_DATA_DIR") else [])
    judge = default_judge()
    header = f"{'dataset':24} {'perturbation':22} {'setting':11} {'questions':>9} {'coverage':>8} {'proposed':>9} " \
             f"{'same':>6} {'covered after judge':>19} {'seconds':>8}"  # fmt: skip
    rows = []
    for dataset in datasets:
        examples = dataset_examples(dataset, limit=options.limit)
        for perturbation, setting in PERTURBATIONS:
            if options.only and perturbation not in options.only:
                continue
            setting_options = SETTING_PERTURBATION_OPTIONS.get(setting, {}).get(perturbation, {})
            tally = measure(examples, perturbation, setting_options, judge)
            row = (
                f"{dataset:24} {perturbation:22} {setting:11} {tally.questions:9d} "
                f"{_share(tally.covered, tally.questions):>8} {tally.proposed:9d} {_share(tally.same, tally.proposed):>6} "
                f"{_share(tally.covered_after_judge, tally.questions):>19} {tally.seconds:8.1f}"
            )
            rows.append(row)
            print(row, flush=True)
            if options.examples:
                generator = random.Random(0)
                for original, rewrite in generator.sample(tally.kept, min(options.examples, len(tally.kept))):
                    print(f"    same      {original!r} -> {rewrite!r}")
                for original, rewrite, reason in generator.sample(
                    tally.rejected, min(options.examples, len(tally.rejected))
                ):
                    print(f"    different {original!r} -> {rewrite!r}: {reason}")
    print()
    print(header)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
