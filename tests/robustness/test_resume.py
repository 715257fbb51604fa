"""Resuming robustness runs: a run killed with SIGKILL at a random point, then run again, writes the
files of an uninterrupted run; finished items are never recomputed; a changed configuration is refused.

knn-geo on GeoQuery (40 real questions with SEMPARSE_DATA_DIR, else the 28 of geo-mini), the serial
backend; tests/robustness/test_ray_backend.py does the same on Ray.
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter

import pytest

from tests.helpers import kill_before_the_end, run_command
from tests.robustness.conftest import (
    directory_files,
    journal_lines,
    kill_at_random_point,
    robustness_run_arguments,
    run_subprocess_environment,
    stop_processes,
)
from textattack_semparse.cli import main


def test_the_journals_hold_one_line_per_finished_item(uninterrupted):
    build = [json.loads(line) for line in (uninterrupted / "build.jsonl").read_text(encoding="utf-8").splitlines()]
    evaluate = [json.loads(line) for line in (uninterrupted / "evaluate.jsonl").read_text(encoding="utf-8").splitlines()]
    manifest = json.loads((uninterrupted / "manifest.json").read_text(encoding="utf-8"))
    assert len(build) == len({record["key"] for record in build}) == 2 * manifest["examples"]
    utterances = sum(counts["utterances"] for counts in manifest["counts"].values())
    assert [record["key"] for record in evaluate][:2] == ["victim", "originals/0"]
    assert len(evaluate) == len({record["key"] for record in evaluate}) == 1 + manifest["examples"] + utterances
    assert {"prediction", "outcome", "loss"} <= set(evaluate[1]["value"])


def test_a_run_killed_at_a_random_point_then_run_again_writes_the_uninterrupted_files(uninterrupted, tmp_path):
    output = tmp_path / "run"
    total = journal_lines(uninterrupted)

    def kill(lines: int) -> int:
        shutil.rmtree(output, ignore_errors=True)
        left_behind, _ = kill_at_random_point(robustness_run_arguments(output), output, lines)
        stop_processes(left_behind)
        return journal_lines(output)

    kill_before_the_end(kill, random.Random("serial-kill-0").randint(1, total - 2), total)
    again = run_command("textattack-semparse", *robustness_run_arguments(output), env=run_subprocess_environment())
    assert again.returncode == 0, again.stderr
    assert "Resuming the run" in again.stdout
    assert directory_files(output) == directory_files(uninterrupted)


def test_a_resumed_evaluation_predicts_only_the_unfinished_inputs(uninterrupted, tmp_path):
    # The journal cut after n lines is what a kill leaves; the real knn-geo victim, wrapped to count
    # its inputs, then sees exactly the inputs the journal does not hold.
    from textattack_semparse.robustness.evaluate_test_set import EvaluationWorker, evaluation_items, run_evaluation
    from textattack_semparse.robustness.robustness_report import RobustnessReport
    from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
    from textattack_semparse.runs.journal import Journal
    from textattack_semparse.victims.resolution import resolve_victim

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", run_subprocess_environment()["SEMPARSE_DATA_DIR"])
        test_set = RobustnessTestSet.read(uninterrupted)
        knn, _ = resolve_victim("knn-geo", dataset=test_set.dataset)
        seen: list[object] = []

        def counting_victim(inputs):
            seen.extend(inputs)
            return knn(inputs)

        lines = (uninterrupted / "evaluate.jsonl").read_bytes().splitlines(keepends=True)
        finished = random.Random("cut").randint(2, len(lines) - 1)
        journal = Journal(tmp_path / "evaluate.jsonl")
        journal.path.write_bytes(b"".join(lines[:finished]) + lines[finished][:7])  # and a torn line
        worker = EvaluationWorker(counting_victim, EvaluationWorker.named("knn-geo", test_set.dataset).scoring, 8)
        report = run_evaluation(test_set, lambda: worker, victim_name="knn-geo", batch_size=8, journal=journal)
    items = evaluation_items(test_set)
    done = {json.loads(line)["key"] for line in lines[:finished]}
    unfinished = Counter(item.input for item in items if item.key not in done)
    assert set(seen) == set(unfinished) and Counter(seen) <= unfinished  # each distinct input of a chunk once
    assert journal.path.read_bytes() == b"".join(lines)
    assert report.to_json() == RobustnessReport.read(uninterrupted / "robustness.json").to_json()


def test_a_changed_configuration_is_refused_and_the_backend_is_not_part_of_it(geo_mini_env, tmp_path, capsys):
    build = ["robustness", "build", "--dataset", "geo-question-test", "--perturbations", "deletion", "--num-examples", "3"]
    output = ["--output-dir", str(tmp_path), "--no-progress"]
    assert main([*build, *output]) == 0
    before = directory_files(tmp_path)
    capsys.readouterr()
    assert main([*build, "--seed", "1", *output]) == 2
    error = capsys.readouterr().err
    assert "another configuration (seed: 0 then, 1 now)" in error and "--output-dir" in error
    assert directory_files(tmp_path) == before
    assert main([*build, *output, "--resume", "--workers", "3"]) == 0  # how it runs is not configuration
    assert "Resuming the run" in capsys.readouterr().out
    assert directory_files(tmp_path) == before


def test_resume_without_a_run_is_refused(geo_mini_env, tmp_path, capsys):
    assert main(["robustness", "build", "--dataset", "geo-question-test", "--output-dir", str(tmp_path), "--resume"]) == 2
    assert "Nothing to resume" in capsys.readouterr().err
