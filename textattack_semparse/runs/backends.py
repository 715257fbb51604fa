"""Where the items of a run are computed: in this process, or on Ray workers that each hold a victim.

Both backends take the same three things: ``make_worker`` (builds what a worker holds, e.g. a
victim and its scorer; called once per worker), ``call(worker, task)`` (computes one item) and
the tasks. Results come back in task order whatever order workers finish in, so a run writes
the same files on either backend when every task is seeded by itself (not by shared state).

Ray (https://docs.ray.io) is an optional extra: ``pip install textattack-semparse[ray]``.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError

Worker = TypeVar("Worker")
Task = TypeVar("Task")
Result = TypeVar("Result")

BACKENDS = ("serial", "ray")
"""Backend names accepted by :func:`make_backend` and the commands' ``--backend``."""

FORWARDED_ENVIRONMENT_PREFIXES = (
    "SEMPARSE_",
    "TEXTATTACK_SEMPARSE_",
    "HF_",
    "TRANSFORMERS_",
    "TOKENIZERS_",
    "OMP_NUM_THREADS",
    "NLTK_DATA",
)
"""Environment variables a Ray worker on a cluster needs to find data, caches and NLTK's stopwords and
to stay offline, as the driver does (``OMP_NUM_THREADS`` too: thread counts can change a float's
last bits); a local Ray's workers inherit the driver's whole environment."""


class Backend(Protocol):
    """Computes ``call(worker, task)`` for each task, yielding results in task order."""

    name: str

    def map(
        self, make_worker: Callable[[], Worker], call: Callable[[Worker, Task], Result], tasks: Iterable[Task]
    ) -> Iterator[Result]: ...

    def close(self) -> None: ...


class SerialBackend:
    """Everything in this process, one task after another.

    Example:
        >>> list(SerialBackend().map(lambda: 10, lambda offset, task: offset + task, [1, 2]))
        [11, 12]
    """

    name = "serial"

    def map(
        self, make_worker: Callable[[], Worker], call: Callable[[Worker, Task], Result], tasks: Iterable[Task]
    ) -> Iterator[Result]:
        iterator = iter(tasks)
        for first in iterator:  # the worker is built only when there is a task
            worker = make_worker()
            yield call(worker, first)
            for task in iterator:
                yield call(worker, task)

    def close(self) -> None:
        """Nothing to release."""

    def __enter__(self) -> SerialBackend:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()



class WorkerLost(RuntimeError):
    """A Ray worker died (out of memory, node lost); finished items are kept for ``--resume``."""


class _RayWorker:
    """What a Ray actor holds: the worker of the map it serves, built once per map by ``make_worker``.
    The actor outlives a map, so the backend's next map finds its process started and its imports
    done."""

    def __init__(self) -> None:
        self.worker: Any = None

    def hold(self, make_worker: Callable[[], Any]) -> None:
        self.worker = None  # the last map's worker goes before the next is built
        self.worker = make_worker()

    def run(self, call: Callable[[Any, Any], Any], task: Any) -> Any:
        return call(self.worker, task)


class RayBackend:
    """Tasks spread over ``workers`` Ray actors, each holding its own worker (e.g. a victim).

    Without ``address`` a local Ray is started on 127.0.0.1 for the run and stopped by
    :meth:`close`; with one (``"auto"``, ``"ray://head:10001"``, ``"10.0.0.5:6379"``) the
    workers run on that cluster, which must have this package installed. Each actor asks for
    ``gpus_per_worker`` GPUs; ``None`` = one GPU per worker when the cluster has one for each,
    a fair share when it has fewer, none on a CPU cluster. A worker keeps ``in_flight`` tasks
    queued so it never waits for the driver. The actors of a map that finished serve the
    backend's next map (a robustness run's evaluation after its build), each building that map's
    worker in a process that has done its imports; a map that stops early (an error, a worker
    lost, its caller leaving) kills its actors, and :meth:`close` kills the rest.

    Args:
        workers: Number of actors.
        address: Ray cluster address; ``None`` = a local Ray started for this run.
        gpus_per_worker: GPUs per actor; ``None`` = decided from the cluster's resources.
        in_flight: Tasks queued per actor.
    """

    name = "ray"

    def __init__(
        self, workers: int = 2, *, address: str | None = None, gpus_per_worker: float | None = None, in_flight: int = 2
    ) -> None:
        check_count("workers", workers, minimum=1)
        check_count("in_flight", in_flight, minimum=1)
        if gpus_per_worker is not None and not gpus_per_worker >= 0:
            raise ConfigurationError(f"gpus_per_worker must be None or >= 0, got {gpus_per_worker!r}.")
        self.workers = workers
        self.address = address
        self.gpus_per_worker = gpus_per_worker
        self.in_flight = in_flight
        self._started_ray = False
        self._idle_actors: list[Any] = []

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError as error:
            raise ImportError(
                "--backend ray needs Ray: pip install 'textattack-semparse[ray]' (or pip install ray)."
            ) from error
        if not ray.is_initialized():
            options: dict[str, Any] = {"log_to_driver": False}
            if self.address is None and not os.environ.get("RAY_ADDRESS"):
                # A local Ray's processes inherit this process's environment. Forwarding it as a
                # runtime environment would also keep Ray from using the workers it starts ahead.
                options.update(
                    num_cpus=max(self.workers, os.cpu_count() or 1), include_dashboard=False, _node_ip_address="127.0.0.1"
                )
            else:
                environment = {
                    key: value for key, value in os.environ.items() if key.startswith(FORWARDED_ENVIRONMENT_PREFIXES)
                }
                options["runtime_env"] = {"env_vars": environment}
            ray.init(address=self.address, **options)
            self._started_ray = True
            self._idle_actors = []  # actors of an earlier Ray that was shut down
        return ray

    def _gpus(self, ray: Any) -> float:
        if self.gpus_per_worker is not None:
            return self.gpus_per_worker
        available = float(ray.cluster_resources().get("GPU", 0))
        return min(1.0, available / self.workers)

    def map(
        self, make_worker: Callable[[], Worker], call: Callable[[Worker, Task], Result], tasks: Iterable[Task]
    ) -> Iterator[Result]:
        numbered = enumerate(tasks)
        first = next(numbered, None)
        if first is None:
            return
        iterator = itertools.chain([first], numbered)
        ray = self._ray()
        from ray.exceptions import RayActorError, RayTaskError

        def result(reference: Any, index: int | None) -> Any:
            """``ray.get(reference)``, raising the worker's own error, or WorkerLost."""
            try:
                return ray.get(reference)
            except RayTaskError as error:
                raise (error.cause if isinstance(error.cause, BaseException) else error) from None
            except RayActorError as error:
                item = "its worker" if index is None else f"item {index}"
                raise WorkerLost(
                    f"A Ray worker died while computing {item} ({error}). Finished items are kept: run the same "
                    "command again (or add --resume) to continue."
                ) from None

        if self._idle_actors:
            actors, self._idle_actors = self._idle_actors, []
        else:
            actor_class = ray.remote(num_gpus=self._gpus(ray))(_RayWorker)
            actors = [actor_class.remote() for _ in range(self.workers)]
        call_reference = ray.put(call)
        pending: dict[Any, tuple[int, Any]] = {}
        finished: dict[int, Any] = {}
        next_index = 0
        completed = False

        def submit(actor: Any) -> None:
            item = next(iterator, None)
            if item is not None:
                index, task = item
                pending[actor.run.remote(call_reference, task)] = (index, actor)

        try:
            worker_reference = ray.put(make_worker)
            for held in [actor.hold.remote(worker_reference) for actor in actors]:
                result(held, None)
            for _ in range(self.in_flight):
                for actor in actors:
                    submit(actor)
            while pending:
                [done], _ = ray.wait(list(pending), num_returns=1)
                index, actor = pending.pop(done)
                finished[index] = result(done, index)
                submit(actor)
                # Every task computed: the actors are free for the next map, whether or not the
                # caller asks past the last result (``zip`` with the tasks does not).
                completed = not pending
                if completed:
                    self._idle_actors = actors
                while next_index in finished:
                    yield finished.pop(next_index)
                    next_index += 1
        finally:
            if not completed:
                for actor in actors:
                    ray.kill(actor)

    def close(self) -> None:
        """Kill the backend's actors and stop the local Ray it started (a cluster it joined is left running)."""
        if not self._idle_actors and not self._started_ray:
            return  # ray was never needed: not even imported
        import ray

        if ray.is_initialized():
            for actor in self._idle_actors:
                ray.kill(actor)
        self._idle_actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def make_backend(name: str, *, workers: int = 2, address: str | None = None) -> SerialBackend | RayBackend:
    """The backend called ``name`` (one of :data:`BACKENDS`)."""
    if name == "serial":
        return SerialBackend()
    if name == "ray":
        return RayBackend(workers, address=address)
    raise ConfigurationError(f"Unknown backend {name!r}; choose one of {', '.join(BACKENDS)}.")
