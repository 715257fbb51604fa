"""Start-up cost of the import hook for Python processes that never import textattack.

Runs `python -X importtime -c pass` several times and prints the self time of
`_textattack_semparse_autoload` next to the whole interpreter start-up (median of runs).
"""

from __future__ import annotations

import statistics
import subprocess
import sys

RUNS = 15


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


def main() -> None:
    samples = [_startup_times() for _ in range(RUNS)]
    hook = statistics.median(sample[0] for sample in samples)
    total = statistics.median(sample[1] for sample in samples)
    print(f"import hook: {hook:.3f} ms of {total:.1f} ms measured start-up imports ({100 * hook / total:.2f}%), median of {RUNS} runs")


if __name__ == "__main__":
    main()
