"""An LLM victim used as a plain completer: prompts in, completions out, through the victim's
backend and persistent response cache.

Components that prompt an LLM for something other than parsing (LLM-written header names, the
``llm:`` meaning judge) name the model as any LLM victim is named (``hf-causal:PATH``,
``openai:MODEL@URL``, a plugin's backend) and call :meth:`PromptedParser.complete`. Original to
textattack-semparse.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.cache import cache_dir
from textattack_semparse.victims.llm_victim_name import parse_llm_victim_name, with_options

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark
    from textattack_semparse.victims.llm.prompted_parser import PromptedParser


def llm_completer(name: str) -> PromptedParser:
    """The LLM victim ``name``, zero-shot (the caller's prompt carries its own demonstrations),
    bound to a one-example benchmark that needs no database: only its ``complete`` is used.
    Decoding is the backend's greedy decoding (temperature 0); every completion is cached.

    One per name and cache directory in a process: the components that name the same LLM share
    its model and response cache (``robut-leta``'s four LLM perturbations load a local model once,
    not four times)."""
    return _shared_completer(name, cache_dir())


@functools.lru_cache(maxsize=4)
def _shared_completer(name: str, cache: Path) -> PromptedParser:
    """:func:`llm_completer`, made once per ``name`` and ``cache`` (the response cache it opens is
    under the cache directory current when it is made)."""
    return parse_llm_victim_name(with_options(name, shots=0)).create(benchmark=_prompt_benchmark())


def _prompt_benchmark() -> Benchmark:
    """A one-example Table QA benchmark: LLM victims are built on a benchmark, and this one makes
    them Table QA victims that need no database."""
    from textattack_semparse.datasets.benchmark import Benchmark
    from textattack_semparse.datasets.example import SemparseExample
    from textattack_semparse.scoring.scoring import Scoring
    from textattack_semparse.scoring.table_answer_scorer import TableAnswerScorer
    from textattack_semparse.tables.table import Table

    example = SemparseExample(
        question="what is another name for venue?",
        gold="location",
        table=Table(("Year", "Venue"), (("2004", "Athens"),)),
        question_split="train",
    )
    return Benchmark(name="llm-prompts", examples=(example,), scoring=Scoring(TableAnswerScorer()))
