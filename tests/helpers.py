"""Helpers shared by test modules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

VENV_BIN = Path(sys.executable).parent


def run_command(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """Run a console script of the test's virtual environment and capture its output."""
    command = [str(VENV_BIN / args[0]), *args[1:]] if (VENV_BIN / args[0]).exists() else list(args)
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=timeout,
    )
