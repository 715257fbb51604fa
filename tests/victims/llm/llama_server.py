"""llama.cpp's OpenAI-compatible server (llama-cpp-python's ``python -m llama_cpp.server``) on
loopback, for tests and benchmark scripts.

The server runs under a small supervisor (this file run as a script) in its own process group.
The supervisor kills the server when its wall-clock limit (``timeout_s``) passes, when the
process that started it dies (even by ``SIGKILL``), or when it is itself terminated; the server
also gets ``SIGKILL`` if the supervisor dies (``PR_SET_PDEATHSIG``). So a crashed or killed test
run leaves no server behind. :meth:`LlamaServer.kill` kills both at once (a server crash);
:meth:`LlamaServer.start` again restarts it on the same port.

The server logs the start and the answer of every HTTP request. When it exits by itself (a
segmentation fault in llama.cpp, say), the supervisor takes its port and answers every request
with HTTP 503 whose message is the exit: the status or signal, the requests it was answering and
the log's last lines (:meth:`LlamaServer.exit_report`). So the first request after a crash says
why, instead of retries that end in "Connection refused".

Original to textattack-semparse (test and benchmark support).

Example::

    with llama_server(gguf_path) as base_url:  # http://127.0.0.1:PORT/v1
        parser = OpenAIParser("smollm2", base_url=base_url, benchmark=geo)
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

N_CTX = 4096
"""Context size: a 5-shot "Create Table + Select 3" prompt over GeoQuery is about 1,900
SmolLM2 tokens, plus the completion."""

MODEL_ALIAS = "smollm2"
"""The model name the server answers to (``/v1/models``)."""

REQUEST_STARTED = "llama_server request:"
REQUEST_ANSWERED = "llama_server answered:"
SERVER_PID = "llama_server supervisor: server pid"
SERVER_EXITED = "llama_server supervisor: the server exited:"
"""Marks of the lines the server and its supervisor write to the log."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def llama_cpp_server_available() -> bool:
    """Whether ``llama_cpp.server`` can be imported (llama-cpp-python with its ``server`` extra)."""
    import importlib.util

    modules = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings")
    return all(importlib.util.find_spec(name) is not None for name in modules)


class LlamaServer:
    """One ``llama_cpp.server`` process serving ``gguf_path`` on ``127.0.0.1:port``.

    Args:
        gguf_path (str | os.PathLike): The GGUF model file.
        port (int | None, default None): The port; ``None`` picks a free one.
        n_threads (int, default 1): CPU threads of llama.cpp.
        n_ctx (int, default N_CTX): Context size in tokens.
        timeout_s (float, default 900.0): Wall-clock limit of each start; the server is killed then.
        startup_s (float, default 120.0): How long :meth:`start` waits for ``/v1/models``.
        model_alias (str, default MODEL_ALIAS): The model's name on the server.
        extra_args (Sequence[str], default ()): More ``llama_cpp.server`` flags.
        log_path (str | os.PathLike | None, default None): Where the server's output goes
            (appended); ``None`` is a new temporary file, removed by :meth:`stop` unless kept.
    """

    def __init__(
        self,
        gguf_path: str | os.PathLike[str],
        *,
        port: int | None = None,
        n_threads: int = 1,
        n_ctx: int = N_CTX,
        timeout_s: float = 900.0,
        startup_s: float = 120.0,
        model_alias: str = MODEL_ALIAS,
        extra_args: Sequence[str] = (),
        log_path: str | os.PathLike[str] | None = None,
    ) -> None:
        self.gguf_path = Path(gguf_path)
        if not self.gguf_path.is_file():
            raise FileNotFoundError(f"No GGUF model at {self.gguf_path}")
        self.port = port or free_port()
        self.n_threads, self.n_ctx = n_threads, n_ctx
        self.timeout_s, self.startup_s = timeout_s, startup_s
        self.model_alias = model_alias
        self.extra_args = list(extra_args)
        self._own_log = log_path is None
        if log_path is None:
            descriptor, name = tempfile.mkstemp(prefix="llama_server_", suffix=".log")
            os.close(descriptor)
            log_path = name
        self.log_path = Path(log_path)
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI ``base_url``: ``http://127.0.0.1:PORT/v1``."""
        return self.origin + "/v1"

    @property
    def running(self) -> bool:
        """Whether the server answers: started, and neither stopped nor exited by itself."""
        return self.process is not None and self.process.poll() is None and self.exit_report() is None

    def command(self) -> list[str]:
        server = [
            sys.executable, str(Path(__file__).resolve()), "--serve",
            "--model", str(self.gguf_path),
            "--model_alias", self.model_alias,
            "--host", "127.0.0.1",
            "--port", str(self.port),
            "--n_ctx", str(self.n_ctx),
            "--n_threads", str(self.n_threads),
            "--n_threads_batch", str(self.n_threads),
            "--seed", "0",
            *self.extra_args,
        ]
        supervisor = [sys.executable, str(Path(__file__).resolve()), "--parent", str(os.getpid()),
                      "--limit", str(self.timeout_s), "--port", str(self.port), "--log", str(self.log_path), "--"]
        return supervisor + server

    def start(self) -> LlamaServer:
        """Start the server (again, after :meth:`kill`/:meth:`stop`) and wait until it answers."""
        if self.running:
            raise RuntimeError(f"llama_cpp.server on port {self.port} is already running")
        self.kill()  # a supervisor answering for a server that exited holds the port
        env = {**os.environ, "OMP_NUM_THREADS": str(self.n_threads), "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
        with open(self.log_path, "ab") as log:
            log.write(f"\n--- start {self.starts + 1} ---\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                start_new_session=True,
            )
        self.starts += 1
        try:
            self._wait_ready()
        except BaseException:
            self.kill()
            raise
        return self

    def kill(self) -> None:
        """``SIGKILL`` the server and its supervisor at once (a crash); a no-op when stopped."""
        self._signal_group(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(timeout=10)

    def stop(self, grace_s: float = 10.0, *, keep_log: bool = False) -> None:
        """``SIGTERM`` the server, then ``SIGKILL`` after ``grace_s``; the temporary log is
        removed unless ``keep_log``."""
        if self.running:
            self._signal_group(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=grace_s)
        self.kill()  # also a server whose supervisor died
        if self._own_log and not keep_log:
            self.log_path.unlink(missing_ok=True)

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def _this_start(self) -> list[str]:
        """The log's lines since the last start."""
        lines = self.log_path.read_text(errors="replace").splitlines()
        starts = [index for index, line in enumerate(lines) if line.startswith("--- start ")]
        return lines[starts[-1] + 1 :] if starts else lines

    def exit_report(self) -> str | None:
        """How the server exited by itself since its last start (its status or signal, the requests
        it was answering, the log's last lines), or ``None`` while it runs or after
        :meth:`kill`/:meth:`stop`."""
        lines = self._this_start() if self.log_path.is_file() else []
        return next((line.removeprefix(SERVER_EXITED).strip() for line in lines if line.startswith(SERVER_EXITED)), None)

    def server_pid(self) -> int:
        """The process id of ``llama_cpp.server`` itself (not its supervisor's)."""
        pids = [line.removeprefix(SERVER_PID).strip() for line in self._this_start() if line.startswith(SERVER_PID)]
        if not pids:
            raise RuntimeError(f"llama_cpp.server on port {self.port} has not started")
        return int(pids[-1])

    def requests_started(self) -> list[str]:
        """``METHOD /path`` of every request the server began to answer since its last start."""
        return [line.removeprefix(REQUEST_STARTED).strip() for line in self._this_start() if line.startswith(REQUEST_STARTED)]

    def crash(self, sig: int = signal.SIGSEGV) -> None:
        """Send ``sig`` to the server alone, as a crash in llama.cpp would end it: its supervisor
        stays and answers for it (see the module docstring)."""
        os.kill(self.server_pid(), sig)

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.stop(keep_log=exc_type is not None)

    def _signal_group(self, sig: int) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, sig)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_s
        while time.monotonic() < deadline:
            report = self.exit_report()
            if self.process.poll() is not None or report is not None:
                raise RuntimeError(
                    report or f"llama_cpp.server's supervisor exited with {self.process.returncode} before the "
                    f"server answered:\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(self.base_url + "/models", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"llama_cpp.server did not answer within {self.startup_s:g} s:\n{self.log_tail()}")


@contextlib.contextmanager
def llama_server(
    gguf_path: str | os.PathLike[str],
    *,
    port: int | None = None,
    n_threads: int = 1,
    timeout_s: float = 900.0,
    **options: object,
) -> Iterator[str]:
    """A running server for the ``with`` block, yielding its ``base_url``; always stopped after.
    ``options``: the other keywords of :class:`LlamaServer`."""
    server = LlamaServer(gguf_path, port=port, n_threads=n_threads, timeout_s=timeout_s, **options)
    server.start()
    failed = True
    try:
        yield server.base_url
        failed = False
    finally:
        server.stop(keep_log=failed)


def _die_with_parent() -> None:
    """In the child, before exec: get SIGKILL when the parent (the supervisor) dies (Linux)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _signal_name(returncode: int) -> str:
    """``returncode`` in words: ``status 1``, or ``signal 11 (SIGSEGV)`` for a negative one."""
    if returncode >= 0:
        return f"status {returncode}"
    try:
        return f"signal {-returncode} ({signal.Signals(-returncode).name})"
    except ValueError:
        return f"signal {-returncode}"


def _exit_report(returncode: int, port: int, log_path: Path, tail: int = 12) -> str:
    """One line: how the server on ``port`` exited, what it was answering, where its log is and
    the log's last lines (those that are not request marks)."""
    lines = log_path.read_text(errors="replace").splitlines() if log_path.is_file() else []
    lines = lines[max((i for i, line in enumerate(lines) if line.startswith("--- start ")), default=-1) + 1 :]
    open_requests: list[str] = []
    for line in lines:
        if line.startswith(REQUEST_STARTED):
            open_requests.append(line.removeprefix(REQUEST_STARTED).strip())
        elif line.startswith(REQUEST_ANSWERED):
            request = line.removeprefix(REQUEST_ANSWERED).strip().rsplit(" ", 1)[0]
            if request in open_requests:
                open_requests.remove(request)
    answering = f"while answering {', '.join(open_requests)}" if open_requests else "between requests"
    last = [line for line in lines if not line.startswith((REQUEST_STARTED, REQUEST_ANSWERED, SERVER_PID))][-tail:]
    return (
        f"llama_cpp.server on 127.0.0.1:{port} exited with {_signal_name(returncode)} {answering}; log {log_path}, "
        f"its last lines: {' | '.join(line.strip() for line in last if line.strip())}"
    )


def _answer_for_the_dead(port: int, report: str) -> Any:
    """An HTTP server on ``port`` answering every request with 503 and ``report`` as the OpenAI
    error message, in a daemon thread; ``None`` when the port cannot be had."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    body = json.dumps({"error": {"message": report, "type": "server_exited", "code": 503}}).encode()

    class Answer(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(503)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            return

    deadline = time.monotonic() + 10.0
    while True:  # the dead server's socket may take a moment to let go of the port
        try:
            server = ThreadingHTTPServer(("127.0.0.1", port), Answer)
            break
        except OSError:
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _supervise(parent: int, limit_s: float, port: int, log_path: Path, command: list[str]) -> int:
    """Run ``command``; kill it when ``parent`` dies, ``limit_s`` passes, or on SIGTERM/SIGINT.
    When it exits by itself with a failure, log how (:func:`_exit_report`) and answer on its
    ``port`` with that report until one of those happens."""
    child = subprocess.Popen(command, preexec_fn=_die_with_parent)
    print(f"{SERVER_PID} {child.pid}", file=sys.stderr, flush=True)
    stop = {"reason": None}

    def on_signal(signum: int, frame: object) -> None:
        stop["reason"] = f"signal {signum}"

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    deadline = time.monotonic() + limit_s

    def stopping() -> bool:
        if stop["reason"] is None and os.getppid() != parent:
            stop["reason"] = f"parent {parent} died"
        if stop["reason"] is None and time.monotonic() > deadline:
            stop["reason"] = f"wall-clock limit of {limit_s:g} s"
        return stop["reason"] is not None

    while child.poll() is None:
        if stopping():
            print(f"llama_server supervisor: stopping the server ({stop['reason']})", file=sys.stderr, flush=True)
            child.terminate()
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=5)
            return 0
        try:
            child.wait(timeout=0.25)
        except subprocess.TimeoutExpired:
            pass
    if child.returncode == 0:
        return 0
    report = _exit_report(child.returncode, port, log_path)
    print(f"{SERVER_EXITED} {report}", file=sys.stderr, flush=True)
    answering = _answer_for_the_dead(port, report)
    while answering is not None and not stopping():
        time.sleep(0.25)
    if answering is not None:
        answering.shutdown()
    return 128 - child.returncode if child.returncode < 0 else child.returncode


class _RequestLog:
    """ASGI middleware writing a line when a request arrives and when its answer is complete."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = f"{scope['method']} {scope['path']}"
        print(f"{REQUEST_STARTED} {request}", flush=True)
        status = {"code": 0}

        async def logged_send(message: dict) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                print(f"{REQUEST_ANSWERED} {request} {status['code']}", flush=True)

        await self.app(scope, receive, logged_send)


def _serve(arguments: list[str]) -> None:
    """``python -m llama_cpp.server`` with ``arguments``, its app wrapped in :class:`_RequestLog`."""
    import runpy

    import llama_cpp.server.app as server_app

    create_app = server_app.create_app
    server_app.create_app = lambda **settings: _RequestLog(create_app(**settings))
    sys.argv = ["llama_cpp.server", *arguments]
    runpy.run_module("llama_cpp.server", run_name="__main__")


if __name__ == "__main__":
    import argparse

    if sys.argv[1:2] == ["--serve"]:
        _serve(sys.argv[2:])
        sys.exit(0)
    parser = argparse.ArgumentParser(description="Supervise a llama_cpp.server process (see the module docstring).")
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--limit", type=float, required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    sys.exit(_supervise(arguments.parent, arguments.limit, arguments.port, arguments.log, command))
