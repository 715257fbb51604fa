"""Benchmark: what the default meaning judge costs per candidate, this checkout against a baseline
commit (default: the last commit of the word-rule judge), on the same pairs in the same run.

The pairs are the perturbations' candidates for the first N questions of a dataset (every distinct
rewrite each offline question perturbation proposes, as ``robustness build`` would judge them; the
gold query and, here, the schema's words passed along). Each judge runs in a fresh process with
its package on ``PYTHONPATH``: loading (spaCy and WordNet for the rules; the reader's model for this
checkout) is timed apart from judging, all pairs in one ``judge`` call (the batch a build makes of
one example's candidates is smaller: ``--batch`` sets the size), after a warm-up on other pairs.

    .venv/bin/python bench/judge_cost.py [--dataset geo-mini-question-test] [--num-examples 60]
        [--baseline REV] [--batch 16] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.robustness_build import extract_package  # noqa: E402

BASELINE = "46d94b8"  # the word-rule judge (OperatorJudge), before the vetoes and the reader
PERTURBATIONS = ("deletion", "insertion", "substitution-f", "substitution-wordnet", "random-deletion", "random-swap",
                 "reordering", "typo", "distraction")  # fmt: skip

CHILD = r"""
import json, sys, time
from textattack_semparse.judges.judgement import RewritePair
from textattack_semparse.judges.meaning_judge import judge_from_name

pairs = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
batch = int(sys.argv[2])
def make(record):
    try:
        return RewritePair(record["original"], record["rewrite"], record["gold"], frozenset(record["schema"]))
    except TypeError:  # a RewritePair without a schema (the baseline)
        return RewritePair(record["original"], record["rewrite"], record["gold"])
start = time.perf_counter()
judge = judge_from_name("default")
judge.judge([make(record) for record in pairs[-8:]])  # warm-up: loads spaCy and WordNet (the rules) ...
if hasattr(judge, "reader"):
    judge.reader.probabilities([("what is the capital of texas", "what's the capital of texas")])  # ... or the reader
loaded = time.perf_counter() - start
ordered = [make(record) for record in pairs[:-8]]
start = time.perf_counter()
judgements = []
for first in range(0, len(ordered), batch):
    judgements += judge.judge(ordered[first : first + batch])
judging = time.perf_counter() - start
read = [(pair.original, pair.rewrite) for pair, j in zip(ordered, judgements) if getattr(j, "layer", "") == "reader"]
if read:
    judge.reader.forget()  # its answers are cached; the floor is the forward passes themselves
start = time.perf_counter()  # the floor: the reader's forward passes alone, on the pairs it decided
for first in range(0, len(read), batch):
    judge.reader.probabilities(read[first : first + batch])
reading = time.perf_counter() - start if read else 0.0
print(json.dumps({"loaded": loaded, "judging": judging, "pairs": len(ordered), "kept": sum(j.keeps_meaning for j in judgements),
                  "read": len(read), "reading": reading}))
"""


def candidate_pairs(dataset: str, limit: int) -> list[dict]:
    """Every distinct candidate of the offline question perturbations for the first ``limit`` questions."""
    from textattack.shared import AttackedText

    from textattack_semparse.attack_attrs import record_gold_output
    from textattack_semparse.datasets.benchmark import benchmark_split
    from textattack_semparse.datasets.schema_words import schema_words_of
    from textattack_semparse.perturbations.example_perturber import create_perturbation
    from textattack_semparse.registry import get_registry

    benchmark, examples = benchmark_split(**get_registry().get("dataset", dataset).options)
    schema = schema_words_of(benchmark)
    pairs, seen = [], set()
    for name in PERTURBATIONS:
        transformation = create_perturbation(name, seed=0)
        for example in examples[:limit]:
            text = AttackedText(example.question)
            record_gold_output(text, example.gold)
            for output in transformation(text):
                key = (example.question, output.text)
                if output.text != example.question and key not in seen:
                    seen.add(key)
                    pairs.append({"original": example.question, "rewrite": output.text, "gold": example.gold,
                                  "schema": sorted(schema(example))})  # fmt: skip
    return pairs


def run(package_root: Path, pairs_file: Path, batch: int) -> dict:
    environment = {**os.environ, "PYTHONPATH": str(package_root), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, str(pairs_file), str(batch)], env=environment, cwd=pairs_file.parent,
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(completed.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="geo-mini-question-test")
    parser.add_argument("--num-examples", type=int, default=60)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--batch", type=int, default=16, help="pairs per judge call (default 16)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-cost-") as scratch:
        work = Path(scratch)
        os.environ.setdefault("TEXTATTACK_SEMPARSE_CACHE", str(work / "cache"))
        pairs = candidate_pairs(args.dataset, args.num_examples)
        pairs_file = work / "pairs.jsonl"
        pairs_file.write_text("".join(json.dumps(pair) + "\n" for pair in pairs), encoding="utf-8")
        baseline_root = extract_package(args.baseline, work / "baseline-package")
        times: dict[str, list[dict]] = {"baseline": [], "this checkout": []}
        for round_ in range(args.repeat):
            order = [("baseline", baseline_root), ("this checkout", ROOT)]
            for name, root in order if round_ % 2 == 0 else order[::-1]:
                result = run(root, pairs_file, args.batch)
                times[name].append(result)
                print(f"round {round_ + 1} {name:13s} loaded in {result['loaded']:5.1f} s; {result['pairs']} pairs in "
                      f"{result['judging']:6.2f} s ({1000 * result['judging'] / result['pairs']:5.2f} ms a pair), "
                      f"{result['kept']} kept")
    per_pair = {name: statistics.median(r["judging"] / r["pairs"] for r in runs) for name, runs in times.items()}
    ratio = per_pair["this checkout"] / per_pair["baseline"]
    reading = statistics.median(r["reading"] / r["pairs"] for r in times["this checkout"])
    read = times["this checkout"][0]["read"]
    print(f"{args.dataset}, {len(pairs) - 8} candidates, batches of {args.batch}, median of {args.repeat}: "
          f"baseline {1000 * per_pair['baseline']:.2f} ms a candidate, this checkout {1000 * per_pair['this checkout']:.2f} ms: "
          f"{ratio:.2f}x (issue 62's limit: 2x)")
    print(f"of which the reader's forward passes alone ({read} of the candidates reach it): {1000 * reading:.2f} ms a "
          f"candidate, {reading / per_pair['baseline']:.2f}x the baseline's whole judge")


if __name__ == "__main__":
    main()
