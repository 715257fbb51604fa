"""Serial and Ray backends: same results in task order; Ray runs on a local cluster on 127.0.0.1."""

import os
import time

import pytest

from textattack_semparse.runs.backends import RayBackend, SerialBackend, make_backend


class _Parser:
    """A stand-in worker state: counts how often it was built (once per worker)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.calls = 0


def _parse(worker: _Parser, question: str) -> tuple[str, int]:
    worker.calls += 1
    # Later tasks finish first, so ordering is the backend's work, not luck.
    time.sleep(0.02 * (len(question) % 3))
    return question.upper(), worker.pid


def _fail_on_texas(worker: _Parser, question: str) -> str:
    if "texas" in question:
        raise ValueError(f"cannot parse {question!r}")
    return question


QUESTIONS = [f"river {index} {'x' * index}" for index in range(12)]


def test_serial_backend_builds_one_worker_and_keeps_order():
    built = []

    def make_worker():
        built.append(1)
        return _Parser()

    results = list(SerialBackend().map(make_worker, _parse, QUESTIONS))
    assert [text for text, _ in results] == [question.upper() for question in QUESTIONS]
    assert built == [1]


def test_no_tasks_build_no_worker():
    assert list(SerialBackend().map(lambda: pytest.fail("built"), _parse, [])) == []


def test_unknown_backend_names_the_choices():
    with pytest.raises(ValueError, match="choose one of serial, ray"):
        make_backend("dask")


def test_ray_backend_stops_the_local_ray_it_started():
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray of another test is running in this process")
    backend = RayBackend(workers=1)
    assert [text for text, _ in backend.map(_Parser, _parse, ["a"])] == ["A"]
    assert ray.is_initialized()
    backend.close()
    assert not ray.is_initialized()


@pytest.fixture(scope="module")
def ray_backend():
    pytest.importorskip("ray")
    with RayBackend(workers=2) as backend:
        yield backend


def test_ray_backend_returns_the_serial_results_in_task_order(ray_backend):
    results = list(ray_backend.map(_Parser, _parse, QUESTIONS))
    assert [text for text, _ in results] == [text for text, _ in SerialBackend().map(_Parser, _parse, QUESTIONS)]
    worker_processes = {pid for _, pid in results}
    assert len(worker_processes) == 2 and os.getpid() not in worker_processes


def test_ray_backend_raises_the_workers_own_error(ray_backend):
    with pytest.raises(ValueError, match="cannot parse 'rivers in texas'"):
        list(ray_backend.map(_Parser, _fail_on_texas, ["rivers", "rivers in texas", "lakes"]))


class _Counted:
    """A worker state that knows how many workers its process built before it."""

    built_here = 0

    def __init__(self) -> None:
        _Counted.built_here += 1
        self.pid, self.number = os.getpid(), _Counted.built_here


def _where_built(worker: _Counted, question: str) -> tuple[int, int]:
    return worker.pid, worker.number


def test_ray_backend_serves_its_next_map_from_the_same_worker_processes(ray_backend):
    first = set(ray_backend.map(_Counted, _where_built, QUESTIONS))
    second = set(ray_backend.map(_Counted, _where_built, QUESTIONS))
    # Each map built one worker per actor, in the processes of the map before.
    assert len(first) == len(second) == 2
    assert {pid for pid, _ in second} == {pid for pid, _ in first}
    assert {number for _, number in second} == {number + 1 for _, number in first}


def test_ray_backend_replaces_the_workers_of_a_map_that_stopped_early(ray_backend):
    before = {pid for _, pid in ray_backend.map(_Parser, _parse, QUESTIONS)}
    with pytest.raises(ValueError, match="cannot parse"):
        list(ray_backend.map(_Parser, _fail_on_texas, ["rivers in texas"] * 4))
    after = {pid for _, pid in ray_backend.map(_Parser, _parse, QUESTIONS)}
    assert len(after) == 2 and not after & before


def test_ray_backend_raises_the_error_of_building_a_worker(ray_backend):
    def make_worker() -> _Parser:
        raise FileNotFoundError("no victim at ./parser")

    with pytest.raises(FileNotFoundError, match="no victim at ./parser"):
        list(ray_backend.map(make_worker, _parse, QUESTIONS))
    assert [text for text, _ in ray_backend.map(_Parser, _parse, ["a"])] == ["A"]


def test_ray_backend_keeps_the_workers_of_a_map_read_only_up_to_its_last_result(ray_backend):
    # RunContext.map zips the results with the tasks, so it never asks past the last result.
    first = {pid for _, (_, pid) in zip(QUESTIONS, ray_backend.map(_Parser, _parse, QUESTIONS))}
    second = {pid for _, pid in ray_backend.map(_Parser, _parse, QUESTIONS)}
    assert second == first


def _environment(worker: _Parser, name: str) -> str | None:
    return os.environ.get(name)


def test_a_local_rays_workers_see_the_drivers_environment(ray_backend):
    # Data, caches, offline mode and thread counts must reach the workers (a local Ray's processes inherit them).
    names = [name for name in ("HF_HUB_OFFLINE", "SEMPARSE_DATA_DIR", "OMP_NUM_THREADS", "PATH") if name in os.environ]
    assert names and list(ray_backend.map(_Parser, _environment, names)) == [os.environ[name] for name in names]
