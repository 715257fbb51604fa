"""Small data for the validation tests: a robustness test set of geo-mini questions, and judgment
files of three annotators written as the annotation page writes them."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet

ANNOTATORS = ("ann", "bob", "cy")


def geo_test_set(folder: Path, *, typos: bool = False) -> RobustnessTestSet:
    """Four geo-mini test questions, a deletion and a distraction of each (with ``typos``: three
    misspelt candidates of each, as Zhuo et al.'s setting keeps several)."""
    originals = load_benchmark("geo-mini").split("question", "test")[:4]

    def utterances(name: str, rewrites: Callable[[str], list[str]]) -> list[PerturbedUtterance]:
        return [
            PerturbedUtterance(index, example.question, text, example.gold, name)
            for index, example in enumerate(originals)
            for text in rewrites(example.question)
        ]

    if typos:
        perturbed = {"typo": utterances("typo", lambda question: [question.replace("e", "3", 1), question + "?", question.replace("a", "", 1)])}
    else:
        perturbed = {
            "deletion": utterances("deletion", lambda question: [" ".join(question.split()[1:])]),
            "distraction": utterances("distraction", lambda question: [question + " who is who"]),
        }
    test_set = RobustnessTestSet("geo-mini-question-test", originals, perturbed, seed=0, candidates=1, keep=1, setting="huang-2021")
    test_set.write(folder)
    return test_set


def annotate(export_dir: Path, folder: Path, label: Callable[[dict], str | None]) -> list[Path]:
    """Three annotators' judgment files for the export's items, as the page writes them:
    ``label(item)`` gives ``"keep"`` (two say same, one different) or ``"drop"`` (one same, one
    different, one unsure); ``None`` leaves the item unjudged."""
    items = [json.loads(line) for line in (export_dir / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    votes = {"keep": ("same", "same", "different"), "drop": ("same", "different", "unsure")}
    paths = []
    for position, annotator in enumerate(ANNOTATORS):
        path = folder / f"judgments-{annotator}.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["item_id", "annotator", "label"])
            for item in items:
                decision = label(item)
                if decision is not None:
                    writer.writerow([item["item_id"], annotator, votes[decision][position]])
        paths.append(path)
    return paths
