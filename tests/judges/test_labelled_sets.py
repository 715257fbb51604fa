"""The default judge against rewrites that three blind annotators labelled (``data/labelled``;
``data/README.md`` tells how they were made). People keep a rewrite at least two of the three
call the same (Huang et al. 2021: "we keep only the ones that have the same meaning agreed by at
least two turkers"). The originals are read from the real benchmarks, so these tests run where
``SEMPARSE_DATA_DIR`` is set (CI sets it); the files hold only the edits and the labels.

``pytest -s`` prints the agreement per source and dataset.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from textattack_semparse.judges.judgement import Judgement, RewritePair

LABELLED = Path(__file__).parent / "data" / "labelled"

FLOORS = {
    # set: (agreement, meaning-changing rejected, kept of what people keep)
    "test.jsonl": (0.92, 0.91, 0.92),  # measured 93.0%, 92.7% of 164, 93.2% of 294
    "spider_syn_test.jsonl": (0.74, 0.72, 0.74),  # 75.4%, 75.9% of 29, 75.3% of 97
    "dev.jsonl": (0.92, 0.90, 0.92),  # 93.2%, 91.9% of 246, 93.8% of 470
    "spider_syn_dev.jsonl": (0.71, 0.68, 0.72),  # 72.9%, 70.7% of 41, 73.9% of 92
    "spider_syn_round3.jsonl": (0.56, 0.34, 0.62),  # 58.0%, 39.1% of 23, 63.6% of 77: held out from the veto fixes
    "round3.jsonl": (0.86, 0.90, 0.81),  # 87.7%, 91.5% of 141, 83.2% of 119: held out from the veto fixes
}
"""What the default judge achieved when the sets were labelled, one or two points below (one
verdict moves the Spider-Syn rejection rate by 3.4 points): a regression guard. Issue 62 asked for 90% agreement, 95% rejected and 90% kept on the held-out set,
and 90% rejected and kept on Spider-Syn; docs/judges.md gives the measured figures."""


@dataclass(frozen=True)
class Labelled:
    pair: RewritePair
    labels: tuple[str, ...]
    dataset: str
    source: str

    @property
    def people_keep(self) -> bool:
        return self.labels.count("same") >= 2


def apply_edits(original: str, edits: list[list]) -> str:
    """The rewrite: ``original``'s words with each ``[start, end, text]`` span replaced by ``text``."""
    words = original.split()
    for start, end, text in sorted(edits, reverse=True):
        words[start:end] = text.split()
    return " ".join(words)


@functools.cache
def _examples(dataset: str, data_dir: Path) -> tuple[list, object]:
    """The examples of ``dataset`` and the function giving their schema words."""
    from textattack_semparse.datasets.benchmark import benchmark_split
    from textattack_semparse.datasets.example import SemparseExample
    from textattack_semparse.datasets.schema_words import schema_words_of
    from textattack_semparse.registry import get_registry

    if dataset == "spider-syn-dev":  # Spider-Syn's originals: Spider dev's questions, on Spider dev's databases
        records = json.loads((data_dir / "spider-syn" / "dev.json").read_text(encoding="utf-8"))
        benchmark, _ = _spider_dev(data_dir)
        examples = [SemparseExample(r["SpiderQuestion"].strip(), r["query"], db_id=r["db_id"]) for r in records]
        return examples, schema_words_of(benchmark)
    benchmark, examples = benchmark_split(**get_registry().get("dataset", dataset).options)
    return examples, schema_words_of(benchmark)


def _spider_dev(data_dir: Path):
    from textattack_semparse.datasets.benchmark import benchmark_split
    from textattack_semparse.registry import get_registry

    return benchmark_split(**get_registry().get("dataset", "spider-dev").options)


def read_labelled(name: str, data_dir: Path) -> list[Labelled]:
    rows = [json.loads(line) for line in (LABELLED / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    labelled = []
    for row in rows:
        examples, schema_words = _examples(row["dataset"], data_dir)
        example = examples[row["example"]]
        original = " ".join(example.question.split())
        pair = RewritePair(original, apply_edits(original, row["edits"]), example.gold, schema_words(example))
        labelled.append(Labelled(pair, tuple(row["labels"]), row["dataset"], row["source"]))
    return labelled


@functools.cache
def _judged(name: str, data_dir: Path) -> tuple[list[Labelled], list[Judgement]]:
    from textattack_semparse.judges.meaning_judge import judge_from_name

    labelled = read_labelled(name, data_dir)
    return labelled, judge_from_name("default").judge([item.pair for item in labelled])


def _rates(items: list[tuple[Labelled, Judgement]]) -> tuple[float, float, float, int, int]:
    different = [judgement for item, judgement in items if not item.people_keep]
    same = [judgement for item, judgement in items if item.people_keep]
    agreement = sum(judgement.keeps_meaning == item.people_keep for item, judgement in items) / len(items)
    rejected = sum(not judgement.keeps_meaning for judgement in different) / max(1, len(different))
    kept = sum(judgement.keeps_meaning for judgement in same) / max(1, len(same))
    return agreement, rejected, kept, len(different), len(same)


def test_the_sets_are_blind_labelled_by_three_and_big_enough() -> None:
    rows = {name: [json.loads(line) for line in (LABELLED / name).read_text().splitlines()] for name in FLOORS}
    assert len(rows["test.jsonl"]) >= 400 and len(rows["spider_syn_test.jsonl"]) >= 100
    for name, items in rows.items():
        assert all(len(row["labels"]) == 3 and set(row["labels"]) <= {"same", "different", "unsure"} for row in items)
    test = rows["test.jsonl"]
    assert {row["dataset"] for row in test} == {"geo-lambda-test", "spider-dev", "atis-lambda-test", "wtq-dev"}
    changing = sum(row["labels"].count("same") < 2 for row in test)
    assert changing >= 0.25 * len(test)
    classes = {row["source"].split(":")[-1] for row in test if row["source"].startswith("writer:minimal-edit")}
    assert {"value", "number", "superlative", "comparative", "negation", "aggregation", "quantifier", "predicate"} <= classes
    # Disjoint originals: nothing of a held-out set was looked at while the judge was tuned.
    for held_out, development in (
        ("test.jsonl", "dev.jsonl"), ("spider_syn_test.jsonl", "spider_syn_dev.jsonl"),
        ("spider_syn_round3.jsonl", "spider_syn_dev.jsonl"), ("spider_syn_round3.jsonl", "spider_syn_test.jsonl"),
        ("round3.jsonl", "dev.jsonl"), ("round3.jsonl", "test.jsonl"), ("round3.jsonl", "spider_syn_dev.jsonl"),
        ("round3.jsonl", "spider_syn_test.jsonl"), ("round3.jsonl", "spider_syn_round3.jsonl"),
    ):  # fmt: skip
        looked_at = {(row["dataset"], row["example"]) for row in rows[development]}
        assert not looked_at & {(row["dataset"], row["example"]) for row in rows[held_out]}
    assert len(rows["spider_syn_round3.jsonl"]) >= 100


@pytest.mark.real_data
@pytest.mark.parametrize("name", FLOORS)
def test_the_default_judge_meets_the_floors(name: str, real_data_dir: Path) -> None:
    labelled, judgements = _judged(name, real_data_dir)
    pairs = list(zip(labelled, judgements, strict=True))
    groups: dict[str, list] = defaultdict(list)
    for item, judgement in pairs:
        groups[f"dataset {item.dataset}"].append((item, judgement))
        groups[f"source {item.source}"].append((item, judgement))
    print(f"\n{name}: {'group':42} agree  rejected  kept")
    for group, members in sorted(groups.items()):
        agreement, rejected, kept, different, same = _rates(members)
        print(f"  {group:42} {agreement:6.1%} {rejected:6.1%} of {different:3} {kept:6.1%} of {same:3}")
    agreement, rejected, kept, different, same = _rates(pairs)
    print(f"  {'all':42} {agreement:6.1%} {rejected:6.1%} of {different:3} {kept:6.1%} of {same:3}")
    min_agreement, min_rejected, min_kept = FLOORS[name]
    wrong = [
        f"{'kept' if judgement.keeps_meaning else 'rejected'} ({judgement.layer}: {judgement.reason}): "
        f"{item.pair.original!r} -> {item.pair.rewrite!r}, people {item.labels}"
        for item, judgement in pairs
        if judgement.keeps_meaning != item.people_keep
    ]
    assert rejected >= min_rejected and kept >= min_kept, "\n".join(wrong)
    if min_agreement is not None:
        assert agreement >= min_agreement, "\n".join(wrong)
