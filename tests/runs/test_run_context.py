"""RunOptions and RunContext: how runs are computed, and the one resumable map every workflow uses."""

import json

import pytest

from textattack_semparse.errors import ConfigurationError, SemparseError
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.run_context import RunContext, RunOptions
from textattack_semparse.runs.run_directory import NothingToResume, RunConfigurationChanged, RunDirectoryError


def square(worker, task):
    worker.append(task)
    return task * task


def test_map_yields_in_task_order_journals_each_record_and_fills_done(tmp_path):
    journal = Journal(tmp_path / "squares.jsonl")
    done = {}
    progress = []

    class Bar:
        def advance(self, count=1):
            progress.append(count)

    workers = []

    def make_worker():
        workers.append([])
        return workers[-1]

    with RunContext(RunOptions(progress=False)) as context:
        pairs = list(
            context.map(
                [3, 1, 2], make_worker, square, journal=journal, done=done,
                records=lambda task, result: [(f"n{task}", result)], progress=Bar(), weight=lambda task: task,
            )
        )  # fmt: skip
    assert pairs == [(3, 9), (1, 1), (2, 4)]
    assert done == {"n3": 9, "n1": 1, "n2": 4} == journal.read()
    assert progress == [3, 1, 2]
    assert workers == [[3, 1, 2]]  # the serial backend builds one worker


def test_a_result_is_journaled_before_the_next_task_runs(tmp_path):
    """What a kill leaves: every result the map yielded is already on disk."""
    journal = Journal(tmp_path / "j.jsonl")
    with RunContext() as context:
        for task, _ in context.map([1, 2, 3], list, square, journal=journal, done={}, records=lambda t, r: [(str(t), r)]):
            assert str(task) in Journal(journal.path).records()


def test_records_may_leave_nothing_or_several(tmp_path):
    done = {}
    with RunContext() as context:
        list(context.map([1, 2], list, square, journal=None, done=done,
                         records=lambda task, result: [(f"{task}.{i}", i) for i in range(task - 1)]))  # fmt: skip
    assert done == {"2.0": 0}


@pytest.mark.parametrize(
    "options, message",
    [
        ({"backend": "dask"}, "backend must be one of serial, ray"),
        ({"workers": 0}, "workers must be a positive int"),
        ({"resume": True, "overwrite": True}, "give one of them"),
    ],
)
def test_bad_options_are_semparse_errors(options, message):
    with pytest.raises(SemparseError, match=message):
        RunOptions(**options)


def test_open_directory_resumes_refuses_and_overwrites(tmp_path):
    said = []
    run = tmp_path / "run"
    RunContext(say=said.append).open_directory(run, "attack", {"seed": 0})
    (run / "examples.jsonl").write_text('{"key": "0", "value": 1}\n')
    assert RunContext(say=said.append).open_directory(run, "attack", {"seed": 0}).resumed
    assert said == [f"Resuming the run in {run} (finished items are not recomputed)"]
    with pytest.raises(RunConfigurationChanged, match="add --overwrite to delete that run and start afresh"):
        RunContext().open_directory(run, "attack", {"seed": 1})
    directory = RunContext(RunOptions(overwrite=True)).open_directory(run, "attack", {"seed": 1})
    assert not directory.resumed and not (run / "examples.jsonl").exists()
    assert json.loads((run / "run.json").read_text())["configuration"] == {"seed": 1}


def test_resume_of_an_empty_directory_is_a_semparse_error(tmp_path):
    with pytest.raises(NothingToResume, match="Nothing to resume") as raised:
        RunContext(RunOptions(resume=True)).open_directory(tmp_path / "none", "attack", {})
    assert isinstance(raised.value, SemparseError) and isinstance(raised.value, FileNotFoundError)


def test_a_damaged_run_file_names_the_way_out(tmp_path):
    (tmp_path / "run.json").write_text("{not json")
    with pytest.raises(RunDirectoryError, match="--overwrite"):
        RunContext().open_directory(tmp_path, "attack", {})
    assert RunContext(RunOptions(overwrite=True)).open_directory(tmp_path, "attack", {}).resumed is False


def test_configuration_errors_are_also_value_errors():
    assert issubclass(ConfigurationError, ValueError) and issubclass(ConfigurationError, SemparseError)
