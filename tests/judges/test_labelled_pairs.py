"""The default judge against 160 rewrites labelled by hand (``data/labelled_pairs.jsonl``, written
and labelled by a textattack-semparse developer, not produced by the plugin; see ``data/README.md``
for the labelling rule: "same" only if the rewrite asks for the same answer on every database).

A kept rewrite is one the judge calls ``same``; ``unsure`` is not kept, so it counts as "not same".
``pytest -s`` prints the agreement per failure class and the judging time.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from textattack_semparse.judges.judgement import Judgement, RewritePair
from textattack_semparse.judges.operator_judge import OperatorJudge

LABELLED_PAIRS = Path(__file__).parent / "data" / "labelled_pairs.jsonl"
MIN_AGREEMENT = 0.90
"""Share of all pairs on which keeping (verdict ``same``) must match the label."""
MIN_REJECTION = 0.85
"""Share of the pairs labelled "different" the judge must not keep."""


@dataclass(frozen=True)
class Labelled:
    original: str
    rewrite: str
    label: str
    failure_class: str


@dataclass(frozen=True)
class Judged:
    pair: Labelled
    judgement: Judgement

    @property
    def agrees(self) -> bool:
        return self.judgement.keeps_meaning == (self.pair.label == "same")

    def __str__(self) -> str:
        return (
            f"[{self.pair.failure_class}] labelled {self.pair.label}, judged {self.judgement.verdict.value}: "
            f"{self.pair.original!r} -> {self.pair.rewrite!r} ({self.judgement.reason})"
        )


def _labelled_pairs() -> list[Labelled]:
    rows = [json.loads(line) for line in LABELLED_PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Labelled(row["original"], row["rewrite"], row["label"], row["class"]) for row in rows]


@pytest.fixture(scope="module")
def judged() -> list[Judged]:
    pairs = _labelled_pairs()
    judge = OperatorJudge()
    judge("what is the capital of texas", "what is capital of texas")  # load spaCy and WordNet first
    start = time.perf_counter()
    judgements = judge.judge([RewritePair(pair.original, pair.rewrite) for pair in pairs])
    print(f"\njudged {len(pairs)} labelled pairs in {time.perf_counter() - start:.2f} s")
    return [Judged(pair, judgement) for pair, judgement in zip(pairs, judgements, strict=True)]


def test_the_labelled_set_is_160_pairs_of_11_classes() -> None:
    pairs = _labelled_pairs()
    assert len(pairs) == 160
    assert {pair.label for pair in pairs} == {"same", "different"}
    assert len({pair.failure_class for pair in pairs}) == 11
    assert all(pair.original.strip() and pair.rewrite.strip() and pair.original != pair.rewrite for pair in pairs)


def test_the_default_judge_agrees_with_the_labels(judged: list[Judged]) -> None:
    by_class: dict[str, list[Judged]] = defaultdict(list)
    for item in judged:
        by_class[item.pair.failure_class].append(item)
    print(f"\n{'failure class':28} agree  rejected/different")
    for name, items in sorted(by_class.items()):
        different = [item for item in items if item.pair.label == "different"]
        rejected = sum(not item.judgement.keeps_meaning for item in different)
        print(f"{name:28} {sum(item.agrees for item in items):>2}/{len(items):<2}  {rejected:>2}/{len(different)}")
    disagreeing = [item for item in judged if not item.agrees]
    agreement = 1 - len(disagreeing) / len(judged)
    print(f"{'all':28} {len(judged) - len(disagreeing)}/{len(judged)} = {agreement:.1%}")
    assert agreement >= MIN_AGREEMENT, "\n".join(
        [f"agreement {agreement:.1%} < {MIN_AGREEMENT:.0%}; the judge disagrees on:", *map(str, disagreeing)]
    )


def test_the_default_judge_rejects_the_rewrites_labelled_different(judged: list[Judged]) -> None:
    different = [item for item in judged if item.pair.label == "different"]
    kept = [item for item in different if item.judgement.keeps_meaning]
    rejection = 1 - len(kept) / len(different)
    print(f"\nrejected {len(different) - len(kept)}/{len(different)} = {rejection:.1%} of the pairs labelled different")
    assert rejection >= MIN_REJECTION, "\n".join(
        [f"rejection {rejection:.1%} < {MIN_REJECTION:.0%}; the judge keeps:", *map(str, kept)]
    )


LABELLED_SETS = {
    "dev": (LABELLED_PAIRS, MIN_AGREEMENT),
    # Labelled by a second developer after the judge's rules were written, never used to tune them. The
    # judge reads words, not paraphrases, and sides with "different" where it cannot tell (a synonym
    # outside WordNet's common senses, a typo that spells another word), so it agrees less here (74.4%
    # when written); what it must not lose is the share of meaning-changing rewrites it rejects.
    "held out": (LABELLED_PAIRS.with_name("labelled_pairs_holdout.jsonl"), None),
}


@pytest.mark.parametrize("name", LABELLED_SETS)
def test_validate_judge_and_agreement_on_a_labelled_set(name: str, tmp_path: Path) -> None:
    """The user's path: ``validate judge --judge default`` then ``validate agreement`` on the labels."""
    from textattack_semparse.cli import main

    labelled, min_agreement = LABELLED_SETS[name]
    verdicts, report = tmp_path / "verdicts.jsonl", tmp_path / "agreement.json"
    assert main(["validate", "judge", "--judge", "default", "--input", str(labelled), "--output", str(verdicts)]) == 0
    assert main(["validate", "agreement", str(verdicts), str(labelled), "--output-json", str(report)]) == 0
    overall = json.loads(report.read_text(encoding="utf-8"))["agreement"][0]
    labels = [json.loads(line)["label"] for line in labelled.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert overall["group"] == "all" and overall["pairs"] == len(labels)
    assert overall["people_rejected"] == labels.count("different")
    print(f"\n{name}: agreement {overall['accuracy']:.1f}%, rejected {overall['rejected_recall']:.1f}% of those labelled different")
    assert overall["rejected_recall"] >= 100 * MIN_REJECTION
    if min_agreement is not None:
        assert overall["accuracy"] >= 100 * min_agreement
