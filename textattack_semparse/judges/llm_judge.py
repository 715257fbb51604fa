"""The ``llm:`` judge: an LLM asked whether two questions ask the database for the same thing.

Any LLM victim name works (``llm:hf-causal:/models/x.gguf``, ``llm:openai:gpt-4o-mini@https://
api.openai.com/v1``, a plugin's backend): the judge prompts it few-shot through the backend's
greedy decoding and persistent response cache (:func:`~textattack_semparse.victims.llm.completer.
llm_completer`), so judging the same pair again costs nothing. The answer is read from the
completion's first word: *yes* / *same* is ``same``, *no* / *different* is ``different``, anything
else ``unsure``. The prompt and its demonstrations are original to textattack-semparse.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.judgement import Judgement, RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import MeaningJudge

INSTRUCTION = (
    "Two questions are put to a database. Answer yes if they ask for exactly the same information (the same "
    "answer for every database), no if they ask for something different."
)
DEMONSTRATIONS = (
    ("what is the capital of texas", "what is capital of texas", "yes"),
    ("how many rivers are in texas", "which rivers are in texas", "no"),
    ("which state has the largest population", "which state has the most inhabitants", "yes"),
    ("what is the highest mountain not in alaska", "what is the highest mountain in alaska", "no"),
)
"""Few-shot examples: two kept, two changed meanings (a count asked as a list, a dropped negation)."""

ANSWERS = {"yes": Verdict.SAME, "same": Verdict.SAME, "no": Verdict.DIFFERENT, "different": Verdict.DIFFERENT}
"""First words of a completion and what they mean."""


class LLMJudge(MeaningJudge):
    """Registered as ``llm``: ``llm:<LLM victim name>``.

    Args:
        target (str): The LLM victim name (``hf-causal:PATH``, ``openai:MODEL@URL``, ...).

    Example:
        >>> LLMJudge("hf-causal:/models/x.gguf").prompt(RewritePair("where is dallas", "where is dallas?")).splitlines()[-1]
        'Same:'
    """

    def __init__(self, target: str = "") -> None:
        if not target.strip():
            raise ConfigurationError(
                "The llm judge needs an LLM victim name: llm:hf-causal:PATH or llm:openai:MODEL@URL "
                "(textattack-semparse list llm-backend)."
            )
        self.target = target
        self.name = f"llm:{target}"

    @cached_property
    def completer(self) -> Any:
        """The LLM victim that answers (its model loads on first use)."""
        from textattack_semparse.victims.llm.completer import llm_completer

        return llm_completer(self.target)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("completer", None)  # a worker loads its own model
        return state

    def prompt(self, pair: RewritePair) -> str:
        """The few-shot prompt about ``pair``, ending where the answer goes."""
        blocks = [INSTRUCTION]
        blocks += [_block(first, second) + f" {answer}" for first, second, answer in DEMONSTRATIONS]
        blocks.append(_block(pair.original, pair.rewrite))
        return "\n\n".join(blocks)

    def judge(self, pairs: Sequence[RewritePair]) -> list[Judgement]:
        completions = self.completer.complete([self.prompt(pair) for pair in pairs])
        return [parse_answer(completion) for completion in completions]


def _block(first: str, second: str) -> str:
    return f"Question 1: {first}\nQuestion 2: {second}\nSame:"


def parse_answer(completion: str) -> Judgement:
    """The verdict of a completion's first word (see :data:`ANSWERS`).

    Example:
        >>> parse_answer(" Yes, both ask for the capital.").verdict.value, parse_answer("no").verdict.value
        ('same', 'different')
        >>> parse_answer("Question 3: ...").verdict.value
        'unsure'
    """
    words = re.findall(r"[a-z]+", completion.lower())
    first = words[0] if words else ""
    verdict = ANSWERS.get(first, Verdict.UNSURE)
    shown = " ".join(completion.split())[:80]
    return Judgement(verdict, f"the LLM answered {shown!r}" if shown else "the LLM answered nothing")
