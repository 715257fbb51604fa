"""Released robustness benchmarks as test sets, on the hand-written RobuT files of tests/datasets/data/robut/.

RobuT's scores are recomputed here by hand, as the authors' ``calculate_final_scores`` and
``calculate_sqa_final_scores`` (yilunzhao/RobuT, utils/eval_utils.py) compute them, from the
outcomes the evaluation journaled: per perturbation type, pre-perturbation accuracy is the mean
correctness of the originals of its rewrites, post-perturbation accuracy the mean correctness of
the rewrites, robust accuracy the rewrites correct on both among those whose original is
correct; an SQA sequence's correctness is the mean over its turns.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from textattack_semparse.datasets.benchmark import clear_benchmark_cache
from textattack_semparse.datasets.robut import ROBUT_DIR_ENV
from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.robustness.evaluate_test_set import EvaluationWorker, run_evaluation
from textattack_semparse.robustness.leaderboards import leaderboard_table
from textattack_semparse.robustness.released_test_set import (
    MISSING_ORIGINAL,
    materialise_released_test_set,
    released_test_set,
)
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.runs.journal import Journal
from textattack_semparse.scoring.scoring import Scoring
from textattack_semparse.scoring.table_answer_scorer import TableAnswerScorer
from textattack_semparse.victims.lexical_table_parser import LexicalTableParser

FIXTURE = Path(__file__).parents[1] / "datasets" / "data" / "robut"


@pytest.fixture
def robut_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the hand-written RobuT files named by SEMPARSE_ROBUT_DIR, a private cache."""
    folder = tmp_path / "robut"
    shutil.copytree(FIXTURE, folder)
    monkeypatch.setenv(ROBUT_DIR_ENV, str(folder))
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path / "cache"))
    clear_benchmark_cache()
    yield folder
    clear_benchmark_cache()


def test_originals_and_one_file_per_perturbation_type(robut_dir: Path) -> None:
    test_set = released_test_set("robut-wtq")
    assert [example.question for example in test_set.originals] == [
        "which city hosted the games in 2004?",
        "how many goals did bo score?",
        "which country hosted the games in 2008?",
    ]
    assert test_set.perturbations == ("synonym", "row", "word", "combined")
    assert [(u.example_id, u.perturbed) for u in test_set.utterances["word"]] == [
        (0, "in 2004, the games were held in which city?"),
        (1, "what number of goals did bo net?"),
    ]
    (combined,) = test_set.utterances["combined"]
    assert combined.original == "which country hosted the games in 2008?" and combined.gold == "China"
    assert combined.table is not None and combined.table.header == ("Yr", "Host city", "Host nation")
    assert combined.table != test_set.originals[2].table


def test_a_rewrite_whose_original_is_absent_is_counted_not_dropped(robut_dir: Path) -> None:
    test_set = released_test_set("robut-wtq")
    assert dict(test_set.left_out) == {"word": {MISSING_ORIGINAL: 1}}
    assert all(u.perturbed != "which city hosted the games in 2000?" for u in test_set.utterances["word"])


def test_a_perturbation_type_brings_its_originals(robut_dir: Path) -> None:
    test_set = released_test_set("robut-wtq-synonym")
    assert [example.example_id for example in test_set.originals] == ["t-0", "t-1"]
    assert test_set.perturbations == ("synonym",)


def test_limit_keeps_the_first_originals_and_their_rewrites(robut_dir: Path) -> None:
    test_set = released_test_set("robut-wtq", limit=1)
    assert len(test_set.originals) == 1
    assert {name: len(items) for name, items in test_set.utterances.items()} == {
        "synonym": 1,
        "row": 1,
        "word": 1,
        "combined": 0,
    }


def test_sqa_turns_weigh_one_over_their_sequence_length(robut_dir: Path) -> None:
    test_set = released_test_set("robut-sqa")
    assert [(u.example_id, u.turns) for u in test_set.utterances["synonym"]] == [(0, 2), (1, 2)]
    assert [(u.example_id, u.turns) for u in test_set.utterances["word"]] == [(2, 3), (3, 3), (4, 3)]


def test_a_dataset_that_is_not_released_names_build_and_run() -> None:
    with pytest.raises(DatasetError, match="not a released robustness benchmark.*robustness build.*robustness run"):
        released_test_set("geo-mini-question-test")


def test_an_unknown_layout_lists_the_layouts() -> None:
    from textattack_semparse.robustness.robustness_report import RobustnessReport

    with pytest.raises(ConfigurationError, match="Did you mean 'robut'.*huang-2021, robut"):
        leaderboard_table("robuts", RobustnessReport("v", "d", "s", None, 0, 0, 0, {}, False))


def test_a_release_is_materialised_once_and_again_when_it_changes(robut_dir: Path, tmp_path: Path) -> None:
    root = tmp_path / "released"
    test_set, directory = materialise_released_test_set("robut-wtq", root)
    stamp = (directory / "manifest.json").stat().st_mtime_ns
    again, same = materialise_released_test_set("robut-wtq", root)
    assert same == directory and (directory / "manifest.json").stat().st_mtime_ns == stamp
    assert again.utterances == test_set.utterances and again.left_out == test_set.left_out
    release = robut_dir / "wtq.json"
    os.utime(release, ns=(release.stat().st_atime_ns, release.stat().st_mtime_ns + 10**9))
    clear_benchmark_cache()
    _, changed = materialise_released_test_set("robut-wtq", root)
    assert changed != directory and sorted(path.name for path in root.iterdir()) == sorted([directory.name, changed.name])


def _journaled_evaluation(test_set: RobustnessTestSet, journal_path: Path):
    worker = EvaluationWorker(LexicalTableParser(), Scoring(TableAnswerScorer()), batch_size=4)
    report = run_evaluation(test_set, lambda: worker, victim_name="table-lexical", journal=Journal(journal_path))
    correct = {
        record["key"]: record["value"]["outcome"] == "correct"
        for record in map(json.loads, journal_path.read_text(encoding="utf-8").splitlines())
        if record["key"] != "victim"
    }
    return report, correct


def _robut_row(report, name: str) -> tuple:
    return next(row for row in leaderboard_table("robut", report).rows if row[0] == name)


def test_wtq_scores_are_robuts_from_the_journaled_predictions(robut_dir: Path, tmp_path: Path) -> None:
    test_set = released_test_set("robut-wtq")
    report, correct = _journaled_evaluation(test_set, tmp_path / "evaluate.jsonl")
    assert len(correct) == len(test_set.originals) + sum(len(items) for items in test_set.utterances.values())
    for name, items in test_set.utterances.items():
        if not items:
            continue
        original = [correct[f"originals/{u.example_id}"] for u in items]
        perturbed = [correct[f"{name}/{index}"] for index in range(len(items))]
        both = sum(o and p for o, p in zip(original, perturbed))
        pre = 100 * sum(original) / len(items)
        post = 100 * sum(perturbed) / len(items)
        robust = 100 * both / sum(original) if any(original) else None
        assert _robut_row(report, name) == pytest.approx((name, len(items), pre, post, robust))


def test_sqa_scores_are_robuts_per_turn_scores_averaged_per_sequence(robut_dir: Path, tmp_path: Path) -> None:
    test_set = released_test_set("robut-sqa")
    report, correct = _journaled_evaluation(test_set, tmp_path / "evaluate.jsonl")
    for name, items in test_set.utterances.items():
        sequences: list[list[tuple[bool, bool]]] = []
        for index, item in enumerate(items):  # a sequence's turns are consecutive, item.turns of them
            if not sequences or len(sequences[-1]) == item.turns:
                sequences.append([])
            sequences[-1].append((correct[f"originals/{item.example_id}"], correct[f"{name}/{index}"]))
        original = [sum(o for o, _ in turns) / len(turns) for turns in sequences]
        perturbed = [sum(p for _, p in turns) / len(turns) for turns in sequences]
        both = [sum(o and p for o, p in turns) / len(turns) for turns in sequences]
        expected = (
            name,
            len(sequences),
            100 * sum(original) / len(sequences),
            100 * sum(perturbed) / len(sequences),
            100 * sum(both) / sum(original) if sum(original) else None,
        )
        assert _robut_row(report, name) == pytest.approx(expected)
    assert report.perturbations["word"].utterances == 1 and report.perturbations["synonym"].utterances == 1

