"""A preloaded interpreter that runs the project's commands in forked children, so tests and docs
examples that start ``textattack``, ``textattack-semparse`` or ``python`` skip the ~9 s of
``import textattack`` each fresh interpreter pays.

How it works: :class:`ForkServer` starts one real, fresh interpreter (this file run as a script)
that imports TextAttack, torch and the plugin's command modules once (:data:`PRELOAD`), then
listens on a Unix socket. :meth:`ForkServer.launcher` is a tiny launcher per program name; run
with arguments, a launcher sends the server its argv, working directory, environment and
standard streams (the file descriptors themselves, with ``SCM_RIGHTS``). The server forks a
child that takes all of them (its own session and process group, cwd, ``os.environ`` and
streams), runs what a fresh interpreter would (the console script of the virtual environment's
``bin``, or ``python``'s script, ``-c`` code or ``-m`` module) as ``__main__``, shuts down as an
interpreter does (non-daemon threads, ``atexit``, flushed streams) and exits. The launcher exits
with the child's status (or kills itself with the child's signal) and passes SIGINT, SIGTERM,
SIGHUP and SIGQUIT on to the child; when the launcher dies (a time-out's SIGKILL), the server
SIGKILLs the child's process group, and when the server's lifeline (its stdin) closes, it
SIGKILLs every child it still runs.

A command runs in a fresh interpreter instead (the launcher ``exec``s the real program) when a
forked child could behave differently from one:

* its environment differs from the server's in a variable that was read before the fork: one
  the preloaded imports read from ``os.environ`` (the server records them: ``HF_HUB_OFFLINE``,
  ``HOME``, ``MPLBACKEND``, ...) or one of :data:`NATIVE_PREFIXES`, read by the interpreter's
  start-up or by native libraries (``PYTHONPATH``, ``OMP_NUM_THREADS``, ...), but for
  :data:`RUN_TIME_VARIABLES` and :data:`REPLAYED_VARIABLES`. A variable no preloaded module read
  (``RAY_ADDRESS``: Ray is not preloaded) is read by the child as by a fresh interpreter; a
  variable the preloaded imports set (TextAttack sets ``TOKENIZERS_PARALLELISM=True``, torch
  ``KMP_*``) may hold the value they set, since a fresh interpreter's imports set it too;
* it sets :data:`FRESH_VARIABLE` (``SEMPARSE_TESTS_FRESH_INTERPRETER=1 make test`` runs every
  command the old way);
* ``python`` gets an option other than ``-c``/``-m``, or no program (``-I``, ``-X ...``, ``-u``,
  the REPL, ...), or the server is not running.

Fork safety: the server only imports (no torch operation runs, so no OpenMP pool exists) and
refuses to serve (every command then runs fresh) when importing started a Python thread or a
probe child cannot compute with NumPy and torch (:func:`_fork_unsafe`). Each child reseeds the
``random`` (Python does at fork) and NumPy global generators, as a fresh interpreter seeds them.

This file is stdlib-only and runs as a script (``python fork_server.py SOCKET``), so the server
imports nothing of ``tests`` and the launchers (``python -I -S``) start in milliseconds.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

FRESH_VARIABLE = "SEMPARSE_TESTS_FRESH_INTERPRETER"
"""Set (non-empty) in a command's environment: run it in a fresh interpreter, never forked."""

RUN_TIME_VARIABLES = frozenset(
    {"PATH", "PWD", "OLDPWD", "SHLVL", "_", "PYTEST_CURRENT_TEST", "SEMPARSE_DATA_DIR", "SEMPARSE_TEST_SUITE_DIR"}
)
"""Variables a command may set differently from the server: read only while running (the data
directories by ``textattack_semparse.datasets.data_dir`` at each call, ``PATH`` by subprocess
calls) or bookkeeping of the shell and of pytest. Any other difference runs the command fresh."""

NATIVE_PREFIXES = (
    "PYTHON", "LANG", "LC_", "TZ", "HOME", "LD_", "MALLOC_", "OMP_", "KMP_", "GOMP_", "MKL_", "OPENBLAS_",
    "GOTO", "BLIS_", "NUMEXPR_", "TORCH", "PYTORCH_", "CUDA", "ARROW_", "JE_", "TQDM_", "FSSPEC_",
)  # fmt: skip
"""Variables read before the fork but not through ``os.environ`` of a preloaded module: by the
interpreter's start-up (``PYTHON*``, locale, ``HOME`` for the user site), by native libraries
with ``getenv`` (OpenMP, BLAS, torch, Arrow, jemalloc), or by scanning the environment for a
prefix (tqdm's ``TQDM_*``, fsspec's ``FSSPEC_*``; :func:`_recording_reads` names the scanners)."""

ENVIRONMENT_SCANNERS = ("/tqdm/utils.py", "/fsspec/config.py")
"""Modules known to iterate ``os.environ`` at import (for their prefix in :data:`NATIVE_PREFIXES`);
another module doing so makes every variable count as read."""

REPLAYED_VARIABLES = ("TEXTATTACK_SEMPARSE_CACHE", "MPLBACKEND")
"""Variables read at import time whose effect a child replays (:func:`_replay`) when its value
differs from the server's, instead of running fresh."""

PRELOAD = (
    "textattack",  # torch, transformers, nltk, ...; through the import hook, the plugin's shim and registry
    "textattack.commands.textattack_cli",
    "textattack_semparse.cli",
    "sentence_transformers",
    "spacy",
)
"""Modules the server imports before it forks (imports only: nothing that starts a thread)."""

SERVED_SCRIPTS = ("textattack", "textattack-semparse")
"""Console scripts of the virtual environment a launcher may stand for, besides ``python``."""
SERVED_PROGRAMS = ("python", *SERVED_SCRIPTS)

_HEADER = struct.Struct("!I")
_STDIO = (0, 1, 2)


# ---------------------------------------------------------------------------------------------
# The test side: start and stop a server, name its launchers.


class ForkServer:
    """A preloaded interpreter started with ``environment`` in ``directory``, and its launchers.

    Args:
        directory: A private directory for the socket, the launchers (``bin``) and the log.
        environment: The server's environment; commands whose environment differs in a
            variable read at import time run fresh.
    """

    def __init__(self, directory: Path, environment: Mapping[str, str]) -> None:
        self.directory = directory
        self.environment = dict(environment)
        self.socket_path = directory / "server.sock"
        self.bin_dir = directory / "bin"
        self.log_path = directory / "server.log"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 900) -> bool:
        """Start the server and wait until it serves; ``False`` when it could not start or
        refuses to fork (the reason is in :attr:`log_path`): its launchers then run every
        command fresh."""
        self.bin_dir.mkdir(parents=True, exist_ok=True)
        venv_bin = Path(sys.executable).parent
        for name in SERVED_PROGRAMS:
            real = sys.executable if name == "python" else str(venv_bin / name)
            launcher = self.launcher(name)
            launcher.write_text(_LAUNCHER.format(python=sys.executable, folder=str(Path(__file__).parent), socket=str(self.socket_path), name=name, real=real))
            launcher.chmod(0o755)
        with open(self.log_path, "ab") as log:
            self._process = subprocess.Popen(
                [sys.executable, __file__, str(self.socket_path)],
                cwd=self.directory,
                env=self.environment,
                stdin=subprocess.PIPE,  # the lifeline: the server stops when it closes
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                return False
            if self.socket_path.exists():
                return True
            time.sleep(0.05)
        self.stop()
        return False

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None and self.socket_path.exists()

    def launcher(self, name: str) -> Path:
        """The launcher of ``name``, one of :data:`SERVED_PROGRAMS`."""
        return self.bin_dir / name

    def stop(self) -> None:
        """Stop the server; it SIGKILLs the commands still running."""
        if self._process is None:
            return
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None


_LAUNCHER = """#!{python} -IS
import sys
sys.path.insert(0, {folder!r})
import fork_server
fork_server.launch({socket!r}, {name!r}, {real!r})
"""


# ---------------------------------------------------------------------------------------------
# The launcher: hand the command to the server, or run it fresh.


def launch(socket_path: str, name: str, real: str) -> None:
    """Run ``name`` with this process's arguments in a forked child of the server and exit as
    it did; ``exec`` the real program ``real`` when the server is absent or declines."""
    arguments = sys.argv[1:]
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(socket_path)
        request = {"name": name, "arguments": arguments, "cwd": os.getcwd(), "environment": dict(os.environ)}
        payload = json.dumps(request).encode()
        socket.send_fds(connection, [_HEADER.pack(len(payload))], list(_STDIO))
        connection.sendall(payload)
        replies = connection.makefile("rb")
        reply = json.loads(replies.readline() or b"{}")
    except OSError:
        reply = {}
    if "pid" not in reply:
        connection.close()
        os.execv(real, [real, *arguments])
    child = reply["pid"]

    def forward(signum: int, frame: object) -> None:
        try:
            os.kill(child, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, forward)
    line = replies.readline()
    if not line:
        sys.stderr.write(f"{name}: the fork server ended before the command did\n")
        os._exit(125)
    status = json.loads(line)["status"]
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


# ---------------------------------------------------------------------------------------------
# The server.


class _Server:
    """The preloaded process: its environment before and after the preloaded imports, its
    socket and its children."""

    def __init__(
        self,
        socket_path: str,
        venv_bin: str,
        base_environment: dict[str, str],
        import_effects: dict[str, str | None],
        import_reads: frozenset[str] | None,
        listener: socket.socket,
    ) -> None:
        self.socket_path = socket_path
        self.venv_bin = venv_bin
        self.base_environment = base_environment  # before the preloaded imports
        self.import_effects = import_effects  # what they changed in os.environ (None: removed)
        self.import_reads = import_reads  # what they read from it (None: possibly everything)
        self.listener = listener
        self.selector = selectors.DefaultSelector()
        self.children: dict[int, socket.socket] = {}  # pid -> its launcher's connection

    def serve(self) -> None:
        """Fork a child per request until stdin (the lifeline) closes."""
        self.selector.register(self.listener, selectors.EVENT_READ, "listener")
        self.selector.register(sys.stdin, selectors.EVENT_READ, "lifeline")
        try:
            while True:
                for key, _ in self.selector.select(timeout=0.05):
                    if key.data == "lifeline":
                        if not os.read(sys.stdin.fileno(), 4096):
                            return
                    elif key.data == "listener":
                        self._accept()
                    else:  # a launcher's connection is readable only when the launcher ended
                        self.selector.unregister(key.fileobj)
                        _kill_group(key.data)
                self._reap()
        finally:
            for pid in self.children:
                _kill_group(pid)
            os.unlink(self.socket_path)

    def _accept(self) -> None:
        """Read a request; fork its child, or tell the launcher to run it fresh."""
        connection, _ = self.listener.accept()
        connection.settimeout(10)
        descriptors: list[int] = []
        try:
            header, descriptors, _, _ = socket.recv_fds(connection, _HEADER.size, len(_STDIO))
            (size,) = _HEADER.unpack(header + _receive(connection, _HEADER.size - len(header)))
            request = json.loads(_receive(connection, size))
            reason = self._why_fresh(request, len(descriptors))
            if reason is not None:
                _log(f"fresh interpreter for {request['name']} {' '.join(request['arguments'])[:160]}: {reason}")
                connection.sendall(json.dumps({"fresh": reason}).encode() + b"\n")
                connection.close()
                return
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                self.selector.close()
                self.listener.close()
                for other in self.children.values():
                    other.close()
                connection.close()
                _run_child(request, descriptors, self.import_effects, self.venv_bin)  # never returns
            try:
                connection.sendall(json.dumps({"pid": pid}).encode() + b"\n")
            except OSError:  # the launcher is gone already
                _kill_group(pid)
                connection.close()
                return
            self.children[pid] = connection
            self.selector.register(connection, selectors.EVENT_READ, pid)
        except (OSError, ValueError) as error:
            _log(f"request failed: {error!r}")
            connection.close()
        finally:
            for descriptor in descriptors:
                os.close(descriptor)

    def _why_fresh(self, request: dict, descriptors: int) -> str | None:
        """Why this request must run in a fresh interpreter, or ``None`` when a fork will do."""
        environment = request["environment"]
        if environment.get(FRESH_VARIABLE):
            return f"{FRESH_VARIABLE} is set"
        if descriptors != len(_STDIO):
            return "standard streams missing"
        differing = sorted(
            key
            for key in (environment.keys() | self.base_environment.keys()) - RUN_TIME_VARIABLES - set(REPLAYED_VARIABLES)
            if environment.get(key) != self.base_environment.get(key)
            and not (key in self.import_effects and environment.get(key) == self.import_effects[key])
            and (self.import_reads is None or key in self.import_reads or key.startswith(NATIVE_PREFIXES))
        )
        differing += [
            key
            for key in REPLAYED_VARIABLES
            if environment.get(key) != self.base_environment.get(key) and not _replayable(key, self.base_environment.get(key))
        ]
        if differing:
            return f"environment differs in {', '.join(differing)}"
        if request["name"] == "python":
            return _python_invocation(request["arguments"])[0]
        return None if request["name"] in SERVED_SCRIPTS else f"{request['name']} is not served"

    def _reap(self) -> None:
        """Collect finished children and send each launcher its command's wait status."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            connection = self.children.pop(pid, None)
            if connection is None:
                continue
            if connection.fileno() in self.selector.get_map():
                self.selector.unregister(connection)
            try:
                connection.sendall(json.dumps({"status": status}).encode() + b"\n")
            except OSError:
                pass
            connection.close()


def _receive(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("request cut short")
        data += chunk
    return data


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _fork_unsafe() -> str | None:
    """Why forking this process is unsafe, or ``None``. Python threads do not survive a fork
    (and may hold locks): there must be none. Native helper threads are allowed (OpenBLAS's
    workers, started when NumPy or SciPy load, and jemalloc's, started with pyarrow, stop and
    restart around a fork with ``pthread_atfork``), and a probe child checks that NumPy and
    torch compute after a fork."""
    import threading

    if threading.active_count() != 1:
        return f"Python threads {[thread.name for thread in threading.enumerate()]}"
    pid = os.fork()
    if pid == 0:
        try:
            import numpy
            import torch

            ok = float((numpy.ones((256, 256)) @ numpy.ones((256, 256)))[0, 0]) == 256.0
            ok = ok and float((torch.ones(256, 256) @ torch.ones(256, 256))[0, 0]) == 256.0
        except BaseException:  # noqa: BLE001
            ok = False
        os._exit(0 if ok else 1)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return None if os.waitstatus_to_exitcode(status) == 0 else "a probe child failed to compute"
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "a probe child hung (a thread pool that does not survive fork)"


def serve(socket_path: str) -> None:
    """Import :data:`PRELOAD`, check fork safety, then serve on ``socket_path``."""
    venv_bin = os.path.dirname(sys.executable)
    sys.path[0] = venv_bin  # as for a console script; not this file's folder (``tests``)
    base_environment = dict(os.environ)
    started = time.monotonic()
    with _recording_reads() as reads:
        for module in PRELOAD:
            importlib.import_module(module)
    import_reads = None if reads.unknown_scanners else frozenset(reads.keys)
    import_effects = {
        key: os.environ.get(key)
        for key in os.environ.keys() | base_environment.keys()
        if os.environ.get(key) != base_environment.get(key)
    }
    _log(f"preloaded {', '.join(PRELOAD)} in {time.monotonic() - started:.1f} s; they set {import_effects}")
    if import_reads is None:
        _log(f"os.environ was scanned at import by {reads.unknown_scanners}: every variable counts as read")
    unsafe = _fork_unsafe()
    if unsafe is not None:
        _log(f"refusing to fork ({unsafe}): every command runs fresh")
        return
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path + ".tmp")
    listener.listen(64)
    os.rename(socket_path + ".tmp", socket_path)  # the socket appears when it accepts
    _Server(socket_path, venv_bin, base_environment, import_effects, import_reads, listener).serve()


class _Reads:
    """The variables read, and the unknown modules that iterated over ``os.environ``."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.unknown_scanners: list[str] = []


@contextlib.contextmanager
def _recording_reads() -> Iterator[_Reads]:
    """Record the variables read through ``os.environ`` (``os.getenv`` included) meanwhile, and
    who iterated over it other than :data:`ENVIRONMENT_SCANNERS`."""
    reads = _Reads()
    environ_class = type(os.environ)
    getitem, iterate = environ_class.__getitem__, environ_class.__iter__

    def recording_getitem(self: os._Environ[str], key: str) -> str:
        reads.keys.add(key)
        return getitem(self, key)

    def recording_iter(self: os._Environ[str]) -> Iterator[str]:
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.startswith("<frozen"):
            frame = frame.f_back
        caller = frame.f_code.co_filename if frame is not None else "?"
        if not caller.endswith(ENVIRONMENT_SCANNERS):
            reads.unknown_scanners.append(caller)
        return iterate(self)

    environ_class.__getitem__, environ_class.__iter__ = recording_getitem, recording_iter
    try:
        yield reads
    finally:
        environ_class.__getitem__, environ_class.__iter__ = getitem, iterate


# ---------------------------------------------------------------------------------------------
# The forked child.


def _python_invocation(arguments: Sequence[str]) -> tuple[str | None, str, str, list[str]]:
    """``(reason to run fresh or None, kind, target, sys.argv)`` of ``python ARGUMENTS``; kind
    is ``script``, ``code`` or ``module``."""
    if not arguments:
        return "the interactive interpreter", "", "", []
    first = arguments[0]
    if first == "-c" and len(arguments) >= 2:
        return None, "code", arguments[1], ["-c", *arguments[2:]]
    if first == "-m" and len(arguments) >= 2:
        return None, "module", arguments[1], [arguments[1], *arguments[2:]]
    if first.startswith("-"):
        return f"python option {first}", "", "", []
    return None, "script", first, list(arguments)


def _run_child(request: dict, descriptors: list[int], import_effects: dict[str, str | None], venv_bin: str) -> None:
    """Become the requested process, run it, exit as an interpreter does; never returns."""
    code = 1
    try:
        os.setsid()  # its own process group: the server kills it with its children
        for target, descriptor in zip(_STDIO, descriptors):
            os.dup2(descriptor, target)  # the Python stream objects write to fds 0-2
        for descriptor in descriptors:
            os.close(descriptor)
        os.chdir(request["cwd"])
        replayed = [variable for variable in REPLAYED_VARIABLES if request["environment"].get(variable) != os.environ.get(variable)]
        server_cache = _plugin_cache_dir()
        os.environ.clear()
        os.environ.update(request["environment"])
        for key, value in import_effects.items():  # as this process's own imports would have
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        importlib.invalidate_caches()  # see modules written since the server listed their folders
        for variable in replayed:
            _replay(variable, server_cache)
        if "numpy" in sys.modules:
            sys.modules["numpy"].random.seed()  # a fresh interpreter seeds it from the OS
        code = _run(request, venv_bin)
    except BaseException as error:  # noqa: BLE001 (the child must reach os._exit whatever happens)
        _print_uncaught(error)
    finally:
        os._exit(_shut_down(code))


def _plugin_cache_dir() -> Path:
    """The plugin's cache directory as the server's environment sets it."""
    from textattack_semparse.cache import cache_dir

    return cache_dir()


def _replayable(variable: str, server_value: str | None) -> bool:
    """Whether :func:`_replay` can give a child any value of ``variable`` (the server's being
    ``server_value``): ``MPLBACKEND`` only when the server had none (rcParams' default stands)."""
    return variable != "MPLBACKEND" or not server_value


def _replay(variable: str, server_cache: Path) -> None:
    """Do with this child's value of ``variable`` what the preloaded imports did with the server's.

    ``TEXTATTACK_SEMPARSE_CACHE``: the plugin's import hook (``_textattack_shim.before_import``),
    when NLTK's own search path lacks the English stopwords, puts the cache's ``nltk_data`` on
    ``nltk.data.path``, writing the list there first if needed; the plugin reads the variable
    nowhere else at import time (``cache_dir()`` is called inside functions only).
    ``MPLBACKEND``: matplotlib's import sets ``rcParams["backend"]`` from it (pyplot picks the
    backend when it first draws, so setting it now is as early).
    """
    if variable == "TEXTATTACK_SEMPARSE_CACHE":
        import nltk.data

        from textattack_semparse import _textattack_shim

        server_folder = str(server_cache / "nltk_data")
        if server_folder in nltk.data.path:
            nltk.data.path.remove(server_folder)
        _textattack_shim.before_import()
    elif variable == "MPLBACKEND" and os.environ.get("MPLBACKEND"):
        import matplotlib

        matplotlib.rcParams["backend"] = os.environ["MPLBACKEND"]


def _run(request: dict, venv_bin: str) -> int:
    """Run the request as ``__main__``; the exit status a fresh interpreter would return."""
    name, arguments = request["name"], request["arguments"]
    if name == "python":
        _, kind, target, argv = _python_invocation(arguments)
    else:  # a console script is a Python script in the virtual environment's bin
        kind, target = "script", os.path.join(venv_bin, name)
        argv = [target, *arguments]
    sys.argv = argv
    try:
        if kind == "module":
            import runpy

            sys.path[0] = os.getcwd()
            runpy._run_module_as_main(target)  # type: ignore[attr-defined]  # what python -m runs
        elif kind == "script":
            path = os.path.abspath(target)  # __main__.__file__ is absolute since Python 3.9
            sys.path[0] = os.path.dirname(os.path.realpath(target))
            with open(path, "rb") as source:
                _run_main(compile(source.read(), path, "exec"), path)
        else:
            sys.path[0] = ""
            _run_main(compile(target, "<string>", "exec"), None)
        return 0
    except SystemExit as exit_:
        return _exit_status(exit_.code)
    except KeyboardInterrupt as interrupt:
        _print_uncaught(interrupt)
        return -signal.SIGINT
    except BaseException as error:  # noqa: BLE001 (printed as the interpreter prints an uncaught exception)
        _print_uncaught(error)
        return 1


def _run_main(code: object, path: str | None) -> None:
    """Execute ``code`` in a new ``__main__`` module, as ``python SCRIPT`` or ``python -c`` does."""
    import builtins
    import importlib.machinery
    import types

    main = types.ModuleType("__main__")
    main.__dict__.update(__builtins__=builtins, __cached__=None, __spec__=None)
    if path is not None:
        main.__file__ = path
        main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    else:
        main.__loader__ = importlib.machinery.BuiltinImporter
    sys.modules["__main__"] = main
    exec(code, main.__dict__)  # noqa: S102 (what the interpreter does with a program)


def _print_uncaught(error: BaseException) -> None:
    """Print ``error`` through ``sys.excepthook`` without this file's frames (a fresh
    interpreter's traceback starts at the program)."""
    traceback = error.__traceback__
    while traceback is not None and traceback.tb_frame.f_code.co_filename == __file__:
        traceback = traceback.tb_next
    sys.excepthook(type(error), error.with_traceback(traceback), traceback)


def _exit_status(code: object) -> int:
    """The exit status of ``SystemExit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _shut_down(code: int) -> int:
    """What ``Py_FinalizeEx`` does that a program can notice: wait for non-daemon threads, run
    ``atexit`` callbacks, flush the standard streams (status 120 when that fails); a negative
    ``code`` is the signal of an uncaught ``KeyboardInterrupt``, which CPython dies of."""
    import atexit
    import threading

    try:
        threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:  # noqa: BLE001
        pass
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    serve(sys.argv[1])
    sys.stderr.flush()
    os._exit(0)  # skip tearing torch & co. down: nothing of the server's needs finalising
