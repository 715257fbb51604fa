import json

import pytest

from textattack_semparse.runs.run_directory import (
    RUN_FILE,
    NothingToResume,
    RunConfigurationChanged,
    RunDirectory,
    atomic_write_text,
)


def test_a_new_directory_records_the_run(tmp_path):
    run = RunDirectory(tmp_path / "out", "robustness run", {"dataset": "geo-mini", "seed": 0})
    assert not run.resumed
    assert json.loads((tmp_path / "out" / RUN_FILE).read_text()) == {
        "command": "robustness run",
        "configuration": {"dataset": "geo-mini", "seed": 0},
    }


def test_the_same_configuration_resumes(tmp_path):
    RunDirectory(tmp_path, "robustness run", {"seed": 0, "perturbations": ["a", "b"]})
    assert RunDirectory(tmp_path, "robustness run", {"perturbations": ["a", "b"], "seed": 0}).resumed


def test_a_changed_configuration_is_refused_naming_the_change(tmp_path):
    RunDirectory(tmp_path, "robustness run", {"seed": 0, "dataset": "geo-mini"})
    with pytest.raises(RunConfigurationChanged, match=r"seed: 0 then, 1 now.*another --output-dir"):
        RunDirectory(tmp_path, "robustness run", {"seed": 1, "dataset": "geo-mini"})


def test_another_command_in_the_directory_is_refused(tmp_path):
    RunDirectory(tmp_path, "icl", {})
    with pytest.raises(RunConfigurationChanged, match="holds a 'icl' run"):
        RunDirectory(tmp_path, "attack", {})


def test_resume_without_a_run_is_an_error(tmp_path):
    with pytest.raises(NothingToResume, match="Nothing to resume"):
        RunDirectory(tmp_path, "attack", {}, resume=True)


def test_atomic_write_replaces_the_whole_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "summary.json"
    atomic_write_text(path, "old")
    atomic_write_text(path, "new contents")
    assert path.read_text() == "new contents"
    assert [item.name for item in tmp_path.iterdir()] == ["summary.json"]


def test_atomic_write_gives_the_mode_a_plain_write_would(tmp_path):
    atomic_write_text(tmp_path / "atomic.csv", "a")
    (tmp_path / "plain.csv").write_text("a")
    assert (tmp_path / "atomic.csv").stat().st_mode == (tmp_path / "plain.csv").stat().st_mode


def test_resuming_removes_the_temporary_files_a_killed_atomic_write_left(tmp_path):
    RunDirectory(tmp_path, "attack", {})
    (tmp_path / "tables").mkdir()
    leftovers = [tmp_path / ".attack_log.csv.x1.tmp", tmp_path / "tables" / ".1.csv.x2.tmp"]
    for leftover in leftovers:
        leftover.write_text("half")
    RunDirectory(tmp_path, "attack", {})
    assert not any(leftover.exists() for leftover in leftovers)


def test_overwrite_deletes_the_run_and_starts_afresh(tmp_path):
    RunDirectory(tmp_path, "attack", {"seed": 0})
    (tmp_path / "examples.jsonl").write_text("{}\n")
    (tmp_path / "tables").mkdir()
    run = RunDirectory(tmp_path, "robustness run", {"seed": 1}, overwrite=True)
    assert not run.resumed and sorted(path.name for path in tmp_path.iterdir()) == ["invocations.jsonl", RUN_FILE]


def test_overwrite_of_a_directory_without_a_run_deletes_nothing(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    RunDirectory(tmp_path, "attack", {}, overwrite=True)
    assert (tmp_path / "notes.txt").read_text() == "mine"
