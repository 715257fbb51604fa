"""Fixtures of the robustness tests: geo-mini instead of the real data, a shared Sentence-BERT, a tiny T5."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import save_tiny_t5
from textattack_semparse.runs.provenance import INVOCATIONS_FILE


@pytest.fixture(scope="module")
def geo_mini_env() -> Iterator[None]:
    """Registered ``geo-*`` datasets and ``knn-geo`` resolve to the embedded geo-mini (module-wide)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", "")
        yield


@pytest.fixture(scope="session")
def encoder():
    """One Sentence-BERT scorer (the packaged all-MiniLM-L6-v2) for every build in the session."""
    from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity

    return SentenceBERTSimilarity()


T5_WORDS = (
    "what is the capital of texas new york rivers in which states border how many people live area "
    "does do are run through largest SELECT FROM WHERE STATE CITY RIVER STATEalias0.CAPITAL AS "
    "STATEalias0 STATEalias0.STATE_NAME = ; \"texas\" COUNT ( )"
).split()


@pytest.fixture(scope="module")
def t5_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised T5 with a whitespace word-level tokenizer (no download)."""
    return save_tiny_t5(tmp_path_factory.mktemp("tiny-t5"), T5_WORDS)


def real_geoquery() -> bool:
    """Whether SEMPARSE_DATA_DIR holds the real GeoQuery (else the registered datasets are geo-mini)."""
    import os

    data = os.environ.get("SEMPARSE_DATA_DIR")
    return bool(data) and (Path(data) / "text2sql" / "geography.json").is_file()


def robustness_run_arguments(output: Path, *extra: str) -> list[str]:
    """``robustness run`` of knn-geo on GeoQuery with two cheap perturbations: 40 real questions
    (SEMPARSE_DATA_DIR) or the 28 of geo-mini; small batches so the evaluation has several tasks."""
    examples = "40" if real_geoquery() else "28"
    return [
        "robustness", "run", "--model", "knn-geo", "--perturbations", "deletion", "distraction",
        "--num-examples", examples, "--batch-size", "8", "--output-dir", str(output), "--no-progress", *extra,
    ]  # fmt: skip


def run_subprocess_environment() -> dict[str, str]:
    """The environment of a command run as a subprocess: offline, one thread, the test's data."""
    import os

    data = os.environ.get("SEMPARSE_DATA_DIR", "") if real_geoquery() else ""
    return {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "SEMPARSE_DATA_DIR": data}


def journal_lines(output: Path) -> int:
    """Finished items in the journals of a run directory (complete lines only)."""
    journals = [output / "build.jsonl", output / "evaluate.jsonl"]
    return sum(path.read_bytes().count(b"\n") for path in journals if path.exists())


def directory_files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes, but the record of the
    invocations (their command lines and times differ from run to run; not results)."""
    files = sorted(path for path in folder.rglob("*") if path.is_file() and path.name != INVOCATIONS_FILE)
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in files}


def kill_at_random_point(arguments: list[str], output: Path, lines: int, *, timeout: float = 600) -> tuple[list, list[str]]:
    """Start ``textattack-semparse *arguments`` and SIGKILL it once the journals in ``output`` hold
    ``lines`` finished items; return the processes it had started (e.g. a local Ray), which outlive
    it, and their command lines."""
    import os
    import signal
    import subprocess
    import time

    import psutil

    from tests.helpers import VENV_BIN

    with (output.parent / f"{output.name}.killed.log").open("wb") as log:
        process = subprocess.Popen(
            [str(VENV_BIN / "textattack-semparse"), *arguments],
            env=run_subprocess_environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        try:
            while journal_lines(output) < lines:
                assert process.poll() is None, f"the run ended ({process.returncode}) before {lines} journal lines"
                assert time.monotonic() < deadline, f"no {lines} journal lines after {timeout} s"
                time.sleep(0.02)
            descendants = psutil.Process(process.pid).children(recursive=True)
            commands = []
            for child in descendants:
                try:
                    commands.append(" ".join(child.cmdline()))
                except psutil.Error:  # ended meanwhile
                    pass
        finally:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    return descendants, commands


def stop_processes(processes: list) -> None:
    """SIGKILL ``processes`` (psutil) that are still running and wait for them, bounded."""
    import psutil

    for process in processes:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(processes, timeout=60)
    assert not alive, f"processes left running: {alive}"


@pytest.fixture(scope="session")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A serial ``robustness run`` (:func:`robustness_run_arguments`) that nobody stopped: the reference
    the resumed and the Ray runs must equal byte for byte."""
    from tests.helpers import run_command

    output = tmp_path_factory.mktemp("uninterrupted") / "run"
    completed = run_command("textattack-semparse", *robustness_run_arguments(output), env=run_subprocess_environment())
    assert completed.returncode == 0, completed.stderr
    return output
