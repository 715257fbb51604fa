"""Every kind of registered victim on hostile questions: one string answer, no failure, no hang.

A victim isolates an input it fails on (``Prediction.error``) so one bad question does not
stop a run; here such a failure counts as a crash. Victims that need big models are fuzzed
through the tiny ones their tests build: TAPAS, TAPEX (``tapex-wtq``, ``omnitab-wtq``), a T5
``Seq2SeqParser`` (what ``seq2seq-*`` trains), and a GPT-2 behind ``hf-causal:`` (the LLM
victims). ``knn-geo`` is the registered victim itself; ``table-lexical`` its parser.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example as explicit_example
from hypothesis import given

from textattack_semparse.registry import get_registry
from textattack_semparse.victims.lexical_table_parser import LexicalTableParser
from textattack_semparse.victims.resolution import resolve_victim
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser
from textattack_semparse.victims.tapas_parser import TapasParser
from textattack_semparse.victims.tapex_parser import TapexParser

from tests.fuzz.components import TinyModels
from tests.fuzz.hostile import LONG_EXAMPLE, HostileExample, fuzz_settings, hostile_examples


class VictimFailure(RuntimeError):
    """A victim answered an input with a failure instead of a prediction."""


@pytest.fixture(scope="module")
def llm_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the LLM victim's response cache out of the user's cache directory; the benchmarks
    loaded meanwhile (their databases derived under this cache) are forgotten afterwards."""
    from textattack_semparse.datasets.benchmark import clear_benchmark_cache

    previous = os.environ.get("TEXTATTACK_SEMPARSE_CACHE")
    os.environ["TEXTATTACK_SEMPARSE_CACHE"] = str(tmp_path_factory.mktemp("fuzz-llm-cache"))
    yield
    if previous is None:
        os.environ.pop("TEXTATTACK_SEMPARSE_CACHE", None)
    else:
        os.environ["TEXTATTACK_SEMPARSE_CACHE"] = previous
    clear_benchmark_cache()


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> TinyModels:
    return TinyModels(Path(tmp_path_factory.mktemp("fuzz-victim-models")))


VICTIMS: dict[str, tuple[int, float, bool, Callable[[TinyModels], Any]]] = {
    # name -> (examples, seconds per input, reads a table, build)
    "knn-geo": (800, 60, False, lambda m: get_registry().get("victim", "knn-geo").create()),
    "table-lexical": (600, 60, True, lambda m: LexicalTableParser()),
    "tapas-wtq (tiny TAPAS)": (40, 120, True, lambda m: TapasParser(m.tapas(), device="cpu", max_length=128)),
    "tapex-wtq (tiny TAPEX)": (40, 120, True, lambda m: TapexParser(m.tapex(), device="cpu", max_length=256, max_new_tokens=6)),
    "seq2seq (tiny T5)": (60, 120, False, lambda m: Seq2SeqParser(m.t5(), device="cpu", max_new_tokens=8)),
    "hf-causal (tiny GPT-2)": (
        25, 120, False,
        lambda m: resolve_victim(f"hf-causal:{m.causal_lm()}?max_new_tokens=4", dataset="geo-mini-question-test")[0],
    ),
}


def _answer(victim: Any, item: Any) -> str:
    (output,) = victim([item])
    if not isinstance(output, str):
        raise VictimFailure(f"answer is a {type(output).__name__}, not a string")
    if getattr(output, "error", None):
        raise VictimFailure(output.error)
    return output


@pytest.mark.parametrize("name", list(VICTIMS))
def test_victim_survives_hostile_input(name: str, models: TinyModels, llm_cache: None, ledger) -> None:
    examples, seconds, with_table, build = VICTIMS[name]
    victim = build(models)
    component = f"victim:{name}"

    @fuzz_settings(examples)
    @given(example=hostile_examples())
    @explicit_example(example=LONG_EXAMPLE)
    def run(example: HostileExample) -> None:
        item = (example.question, example.table.to_json()) if with_table else example.question
        ledger.run(component, example.question, lambda: _answer(victim, item), seconds=seconds)

    run()
    ledger.assert_clean(component)
