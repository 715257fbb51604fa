"""Cost of the import hook: at every Python start-up, and on `textattack --help`.

1. Start-up: runs `python -X importtime -c pass` several times and prints the self time of
   `_textattack_semparse_autoload` next to the whole interpreter start-up (median of runs).
2. `textattack --help` (which imports all of TextAttack) with and without the hook, in
   alternating rounds, median wall time of each and their ratio (target <= 1.02). Without the
   hook means `TEXTATTACK_SEMPARSE_DISABLE_IMPORT_HOOK=1`, which the `.pth` file honours: the
   process never installs the hook, as if the plugin were not installed. TextAttack then needs
   NLTK's English stopwords on NLTK's own path, so every variant runs with them there:
   `NLTK_DATA` names the folder the plugin provides (or NLTK's own installation is used). The
   hook is timed twice: with that `NLTK_DATA` (stopwords already where NLTK looks) and with
   `NLTK_DATA` unset (stopwords only in the plugin's cache, the usual offline case). All runs
   keep their bytecode under one `PYTHONPYCACHEPREFIX` (a warm-up run fills it), as an installed
   package has its `.pyc` files: with `PYTHONDONTWRITEBYTECODE` set and no `__pycache__` in a
   checkout, every run would compile the plugin's modules again, a cost users do not pay.
3. The hook's own work, timed inside one process, which is far less noisy on a busy machine than
   the difference of two wall times: with the hook disabled, `textattack`'s CLI module is
   imported and timed, then what the hook would have run (importing the plugin's shim, its
   `before_import` and `after_import`), as a share of that import.

    .venv/bin/python bench/autoload_cost.py [--runs 15] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _textattack_semparse_autoload import DISABLE_ENV

from textattack_semparse.offline import ensure_nltk_stopwords


def _startup_times() -> tuple[float, float]:
    stderr = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"], capture_output=True, text=True).stderr
    hook = total = 0.0
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = [part.strip() for part in line[len("import time:"):].split("|")]
        if not parts[0].isdigit():
            continue
        cumulative_us, name = int(parts[1]), parts[2]
        if name == "_textattack_semparse_autoload":
            hook = cumulative_us / 1000
        if not line.split("|")[-1].startswith("  "):
            total += cumulative_us / 1000
    return hook, total


def _help_seconds(environment: dict[str, str]) -> float:
    command = [str(Path(sys.executable).with_name("textattack")), "--help"]
    start = time.perf_counter()
    subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


_IN_PROCESS = """
import sys, time
start = time.perf_counter()
import textattack, textattack.commands.textattack_cli
textattack_seconds = time.perf_counter() - start
start = time.perf_counter()
from textattack_semparse import _textattack_shim
_textattack_shim.before_import()
_textattack_shim.after_import(textattack)
print(textattack_seconds, time.perf_counter() - start)
"""


def _in_process_seconds(environment: dict[str, str]) -> tuple[float, float]:
    """(TextAttack's CLI import, the hook's work after it) in one process without the hook."""
    output = subprocess.run([sys.executable, "-c", _IN_PROCESS], env=environment, capture_output=True, text=True, check=True)
    textattack_seconds, hook_seconds = map(float, output.stdout.split())
    return textattack_seconds, hook_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="start-up runs")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of `textattack --help`")
    options = parser.parse_args()

    samples = [_startup_times() for _ in range(options.runs)]
    hook = statistics.median(sample[0] for sample in samples)
    total = statistics.median(sample[1] for sample in samples)
    print(
        f"import hook at start-up: {hook:.3f} ms of {total:.1f} ms measured start-up imports "
        f"({100 * hook / total:.2f}%), median of {options.runs} runs"
    )

    folder = ensure_nltk_stopwords()  # None: NLTK's own installation has them
    dropped = (DISABLE_ENV, "NLTK_DATA", "PYTHONDONTWRITEBYTECODE")
    base = {key: value for key, value in os.environ.items() if key not in dropped}
    base.setdefault("HF_HUB_OFFLINE", "1")
    base["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "textattack-semparse-bench-pycache")
    on_nltk_path = {**base, "NLTK_DATA": str(folder)} if folder else dict(base)
    variants = {
        "without the hook": {**on_nltk_path, DISABLE_ENV: "1"},
        "with the hook, stopwords on NLTK_DATA": on_nltk_path,
        "with the hook, stopwords in the plugin's cache": base,
    }
    for environment in variants.values():  # compile the bytecode and warm the file system cache
        _help_seconds(environment)
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(options.rounds):
        for name, environment in variants.items():
            times[name].append(_help_seconds(environment))
    reference = statistics.median(times["without the hook"])
    print(f"`textattack --help`, median of {options.rounds} alternating rounds:")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<48} {median:6.2f} s  ratio {median / reference:.3f}  (runs: {', '.join(f'{v:.2f}' for v in values)})")
    print("ratio = with / without the hook (target <= 1.02)")
    pairs = [_in_process_seconds(variants["without the hook"]) for _ in range(options.rounds)]
    textattack_seconds = statistics.median(pair[0] for pair in pairs)
    hook_seconds = statistics.median(pair[1] for pair in pairs)
    print(
        f"the hook's own work in-process: {1000 * hook_seconds:.1f} ms after a {textattack_seconds:.2f} s import of "
        f"TextAttack's CLI, ratio {(textattack_seconds + hook_seconds) / textattack_seconds:.3f} (median of {options.rounds})"
    )


if __name__ == "__main__":
    main()
