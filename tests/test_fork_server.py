"""The preloaded interpreter of ``tests/fork_server.py``: a command forked from it behaves as in a
fresh interpreter (output, exit status, ``__main__``, streams, signals, time-out kill), and
commands share no state."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fork_server import ForkServer
from tests.helpers import command_server, run_command

PROGRAM = """\
import os, sys
print(sys.argv, __name__, __file__, sys.path[0], os.getcwd())
print(sys.stdin.read().upper())
sys.stdout.flush()
raise ValueError("the end")
"""


@pytest.fixture(scope="module")
def server() -> ForkServer:
    found = command_server()
    if found is None:
        pytest.skip("the preloaded interpreter is off (SEMPARSE_TESTS_FRESH_INTERPRETER) or failed to start")
    return found


def _both(*args: str, **options: object) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    return run_command(*args, **options), run_command(*args, fresh=True, **options)  # type: ignore[arg-type]


def test_a_console_script_prints_and_exits_as_in_a_fresh_interpreter(server: ForkServer) -> None:
    forked, fresh = _both("textattack-semparse", "list", "attack-recipe")
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.returncode == 0 and "semparse-geo" in forked.stdout
    forked, fresh = _both("textattack-semparse", "evaluate", "--model", "knn-gep")
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.returncode == 2 and "Did you mean 'knn-geo'" in forked.stderr


def test_a_script_runs_as_main_with_its_argv_cwd_stdin_and_traceback(server: ForkServer, tmp_path: Path) -> None:
    (tmp_path / "program.py").write_text(PROGRAM)
    runs = [
        subprocess.run([str(python), "program.py", "a b", "c"], cwd=tmp_path, input="hello", capture_output=True, text=True)
        for python in (server.launcher("python"), Path(sys.executable))
    ]
    forked, fresh = runs
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.returncode == 1 and forked.stderr.endswith("ValueError: the end\n") and "HELLO" in forked.stdout


def test_code_and_modules_run_as_with_python_c_and_m(server: ForkServer) -> None:
    forked, fresh = _both("python", "-c", "import sys; print(sys.argv, __name__); sys.exit(3)", "x")
    assert (forked.returncode, forked.stdout) == (fresh.returncode, fresh.stdout) == (3, "['-c', 'x'] __main__\n")
    forked, fresh = _both("python", "-m", "platform")
    assert (forked.returncode, forked.stdout) == (fresh.returncode, fresh.stdout)


def test_commands_share_no_state(server: ForkServer) -> None:
    first = run_command("python", "-c", "import os, textattack_semparse as t; os.environ['LEAK'] = '1'; t.LEAK = 1")
    second = run_command("python", "-c", "import os, textattack_semparse as t; print(os.environ.get('LEAK'), hasattr(t, 'LEAK'))")
    assert first.returncode == 0 and second.stdout == "None False\n"


def test_an_environment_read_before_the_fork_gets_a_fresh_interpreter(server: ForkServer) -> None:
    probe = ("python", "-c", "import sys; print('torch' in sys.modules)")
    assert run_command(*probe).stdout == "True\n"  # forked from the preloaded interpreter
    assert run_command(*probe, env={"OMP_NUM_THREADS": "1"}).stdout == "False\n"  # read by OpenMP: fresh
    assert run_command(*probe, env={"HF_HUB_OFFLINE": "0"}).stdout == "False\n"  # read by huggingface_hub's import
    assert run_command(*probe, env={"SEMPARSE_DATA_DIR": ""}).stdout == "True\n"  # read at run time only
    assert run_command(*probe, env={"RAY_ADDRESS": "local"}).stdout == "True\n"  # read by Ray, not preloaded


def test_a_cache_directory_of_its_own_is_provisioned_as_by_a_fresh_interpreter(server: ForkServer, tmp_path: Path) -> None:
    # The plugin's import hook puts NLTK's stopwords in TEXTATTACK_SEMPARSE_CACHE when NLTK lacks them;
    # a forked child replays that with its own cache directory.
    code = "import os, textattack, nltk.data; print([p.replace(os.environ['TEXTATTACK_SEMPARSE_CACHE'], '$C') for p in nltk.data.path])"
    outputs, files = [], []
    for fresh in (False, True):
        cache = tmp_path / f"cache-{fresh}"
        done = run_command("python", "-c", code, env={"TEXTATTACK_SEMPARSE_CACHE": str(cache)}, fresh=fresh)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
        files.append(sorted(path.relative_to(cache).as_posix() for path in cache.rglob("*")))
    assert outputs[0] == outputs[1] and files[0] == files[1]


def test_a_matplotlib_backend_of_its_own_is_set_as_by_a_fresh_interpreter(server: ForkServer) -> None:
    code = "import sys, matplotlib.pyplot; print(matplotlib.get_backend(), 'torch' in sys.modules)"
    forked, fresh = _both("python", "-c", code, env={"MPLBACKEND": "svg"})
    assert (forked.stdout, fresh.stdout) == ("svg True\n", "svg False\n")


def test_killing_the_launcher_kills_the_command(server: ForkServer, tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    code = f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(600)"
    with pytest.raises(subprocess.TimeoutExpired):
        subprocess.run([str(server.launcher("python")), "-c", code], timeout=5)  # SIGKILLs the launcher
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    assert not _alive(pid)


def test_signals_reach_the_command_and_its_status_is_the_launchers(server: ForkServer, tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    code = f"import time; open({str(ready)!r}, 'w').close(); time.sleep(600)"
    launcher = subprocess.Popen([str(server.launcher("python")), "-c", code])
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    launcher.send_signal(signal.SIGTERM)
    assert launcher.wait(timeout=30) == -signal.SIGTERM


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
