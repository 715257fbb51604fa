"""Benchmark: Seq2SeqParser on the victim calls of a real attack, against bare padded ``generate``.

What is measured. A small parser (T5 by default, ``--architecture bart``) is trained on
geo-mini with ``ParserTrainer`` (tiny settings, entities not anonymised; or ``--model DIR`` is
loaded), and the ``semparse-typo`` recipe (TextBugger typos placed by greedy word importance,
Zhuo et al. 2023) attacks it through TextAttack's ``Attacker`` on the first ``--examples``
geo-mini test questions. Every list of inputs the goal function passes to the victim is
recorded, in order. The same lists are then replayed, one call per list, through

(a) ``Seq2SeqParser`` (length-grouped batches padded to their longest input, prediction cache;
    the cache is emptied before each round, so every hit comes from the replay itself),
(b) bare ``model.generate``, each list tokenised with ``padding="max_length"`` at the
    tokenizer's ``model_max_length`` (512) and no cache, as TextAttack's
    ``HuggingFaceModelWrapper`` does for an encoder-decoder (same model, same generation config),
(c) ``Seq2SeqParser(cache_size=0)``: padding alone, no cache,

side by side: each recorded call goes through (a), (b) and (c) in turn (order rotated), and
the replay is repeated ``--rounds`` times (the cache emptied before each); each variant's time
is the sum over calls of its best time per call, reported as inputs per second, with the ratios,
the cache hit rate of (a) and how many outputs of (a) and (b) agree. Only the victim's
``__call__`` inputs are replayed: the goal function also asks for the loss of the gold output
on every queried input (``gold_loss``), which is neither cached nor changed here.

The examples' golds are the victim's own outputs on the original questions (scored by exact
match), not geo-mini's gold SQL: a model trained for seconds gets none of the golds right, and
TextAttack skips an example its victim already gets wrong after one call, with no search. With
its own outputs as golds every example is searched, as a well-trained victim's correct examples
are. Times are wall-clock seconds on whatever device ``Seq2SeqParser`` picks (CUDA when
available); on a shared machine, compare the ratios rather than the rates.

Run: ``HF_HUB_OFFLINE=1 .venv/bin/python bench/seq2seq_throughput.py``
(options: ``--architecture t5|bart``, ``--model DIR``, ``--examples 5``, ``--rounds 3``; a
``--model`` directory must be trained without entity anonymisation, ``textattack-semparse
train --no-anonymize``, since (b) feeds the model the raw questions)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch
import transformers

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

RECIPE = "semparse-typo"
TINY_PARSER = {
    "d_model": 32,
    "d_ff": 64,
    "num_layers": 1,
    "num_heads": 2,
    "epochs": 5,
    "batch_size": 16,
    "warmup_steps": 0,
    "learning_rate": 3e-3,
    "anonymize": False,  # the replay feeds raw questions to both sides
    "device": "cpu",
}


class RecordingParser(Seq2SeqParser):
    """A ``Seq2SeqParser`` that keeps every list of inputs it is called with."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: list[list[Any]] = []

    def __call__(self, text_input_list: Sequence[Any]) -> list[str]:
        self.calls.append(list(text_input_list))
        return super().__call__(text_input_list)


def train_parser(directory: Path, architecture: str) -> Path:
    from textattack_semparse.training.parser_trainer import ParserTrainer

    ParserTrainer("geo-mini", directory, architecture=architecture, **TINY_PARSER).train()
    return directory


def record_attack(model_dir: Path, num_examples: int) -> list[list[Any]]:
    """The input lists a ``semparse-typo`` attack passes to the victim, in order."""
    from textattack import Attacker, AttackArgs
    from textattack.datasets import Dataset

    from textattack_semparse.registry import attack_recipe_class

    victim = RecordingParser(model_dir)
    questions = [example.question for example in load_benchmark("geo-mini").split("question", "test")][:num_examples]
    own_outputs = victim(questions)  # the golds: see the module docstring
    victim.calls.clear()
    dataset = Dataset(list(zip(questions, own_outputs)))
    attack = attack_recipe_class(RECIPE).build(victim)
    arguments = AttackArgs(num_examples=len(questions), silent=True, disable_stdout=True, random_seed=0)
    Attacker(attack, dataset, arguments).attack_dataset()
    return victim.calls


def padded_generate(model_dir: Path, device: str) -> Callable[[list[Any]], list[str]]:
    """``HuggingFaceModelWrapper.__call__`` for an encoder-decoder: pad to the maximum length, generate."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    model = transformers.AutoModelForSeq2SeqLM.from_pretrained(model_dir).to(device).eval()
    max_length = 512 if tokenizer.model_max_length == int(1e30) else tokenizer.model_max_length

    def call(inputs: list[Any]) -> list[str]:
        texts = [item if isinstance(item, str) else item[0] for item in inputs]
        encoding = tokenizer(
            texts, padding="max_length", max_length=max_length, truncation=True, return_tensors="pt"
        ).to(device)
        with torch.no_grad():
            generated = model.generate(input_ids=encoding["input_ids"], attention_mask=encoding["attention_mask"])
        return [text.strip() for text in tokenizer.batch_decode(generated, skip_special_tokens=True)]

    return call


def replay_side_by_side(
    variants: dict[str, Callable[[list[Any]], list[str]]], calls: list[list[Any]], rounds: int, reset: Callable[[], None]
) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Each recorded call through every variant in turn (order rotated per call), ``rounds`` times
    (``reset`` before each); returns each variant's sum over calls of its best time per call, and
    its outputs. Interleaving per call and keeping per-call minima keeps other jobs' load on a
    shared machine out of the comparison."""
    best = {name: [float("inf")] * len(calls) for name in variants}
    outputs: dict[str, list[str]] = {name: [] for name in variants}
    names = list(variants)
    for round_ in range(rounds):
        reset()
        for index, inputs in enumerate(calls):
            shift = (index + round_) % len(names)
            for name in names[shift:] + names[:shift]:
                start = time.perf_counter()
                result = variants[name](inputs)
                best[name][index] = min(best[name][index], time.perf_counter() - start)
                if round_ == 0:
                    outputs[name].extend(result)
    return {name: sum(times) for name, times in best.items()}, outputs


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--model", type=Path, help="a trained parser directory (default: train a tiny one)")
    arguments.add_argument("--architecture", choices=("t5", "bart"), default="t5", help="of the model trained here")
    arguments.add_argument("--examples", type=int, default=5, help="geo-mini test questions attacked")
    arguments.add_argument("--rounds", type=int, default=3, help="replays; each call's best time is kept")
    options = arguments.parse_args()
    if options.examples < 1 or options.rounds < 1:
        arguments.error("--examples and --rounds must be at least 1")
    os.environ.setdefault("SEMPARSE_DATA_DIR", "")  # geo-mini is embedded
    with tempfile.TemporaryDirectory() as temporary:
        started = time.perf_counter()
        model_dir = options.model or train_parser(Path(temporary) / "geo-mini-parser", options.architecture)
        trained = time.perf_counter()
        calls = record_attack(model_dir, options.examples)
        recorded = time.perf_counter()

        cached = Seq2SeqParser(model_dir)
        variants = {
            "a": cached,
            "b": padded_generate(model_dir, cached.device),
            "c": Seq2SeqParser(model_dir, cache_size=0),
        }
        for variant in variants.values():
            variant(calls[0][:2])  # load and warm up
        best, outputs = replay_side_by_side(variants, calls, options.rounds, cached.cache_clear)
        info = cached.cache_info()  # of the last round

    inputs = sum(len(call) for call in calls)
    distinct = len({str(item) for call in calls for item in call})
    agree = sum(a == b for a, b in zip(outputs["a"], outputs["b"]))
    print(
        f"device: {cached.device}; model: {options.model or options.architecture + ' trained here'} "
        f"({trained - started:.0f} s); attack: {RECIPE} on {options.examples} geo-mini test questions "
        f"({recorded - trained:.0f} s)"
    )
    print(f"recorded: {len(calls)} victim calls, {inputs} inputs ({distinct} distinct); per call, best of {options.rounds} rounds")
    print(f"(a) Seq2SeqParser:                    {inputs / best['a']:8.1f} inputs/s ({best['a']:.2f} s)")
    print(f"(b) generate padded to max length:    {inputs / best['b']:8.1f} inputs/s ({best['b']:.2f} s)")
    print(f"(c) Seq2SeqParser, cache_size=0:      {inputs / best['c']:8.1f} inputs/s ({best['c']:.2f} s)")
    print(
        f"(a)/(b): {best['b'] / best['a']:.1f}x; (c)/(b), padding alone: {best['b'] / best['c']:.1f}x; "
        f"(a)/(c), cache alone: {best['c'] / best['a']:.1f}x"
    )
    print(
        f"cache hit rate of (a): {info.hits / max(info.hits + info.misses, 1):.1%} "
        f"({info.hits} hits, {info.misses} misses); identical outputs (a) vs (b): {agree}/{inputs}"
    )


if __name__ == "__main__":
    main()
