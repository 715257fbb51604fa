"""RobuT's mixed perturbation: two or three levels (header, content, question) on one example.

Zhao et al. (2023), "RobuT: A Systematic Study of Table QA Robustness Against Human-Annotated
Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321: the mix perturbation
combines two or three different-level annotated perturbations (table header, table content,
question) on the same example.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError
from textattack_semparse.registry import get_registry
from textattack_semparse.transformations.derived_text import distinct_new_texts

LEVELS = ("header", "content", "question")
"""RobuT's perturbation levels, in the order a mix applies them (the question last, so its word
positions are those of the original question)."""

DEFAULT_LEVEL_PERTURBATIONS: Mapping[str, tuple[str, ...]] = {
    "header": ("header-synonym", "header-abbreviation"),
    "content": ("row-shuffle", "column-shuffle", "column-extension", "column-masking"),
    "question": ("robut-word-wordnet",),
}
"""The registered perturbations each level draws from by default: all of RobuT's header
perturbations; its content perturbations that need no other table (``column-adding`` reads the
WTQ tables: add it with ``content=``); the offline word-level question rewrite (``question=``
takes ``robut-word``, ``robut-sentence``, ``robut-sentence-llm``, ... where their models are)."""


class RobutMix(Transformation):
    """Perturb two or three levels of a Table QA example: header, content and/or question.

    Each candidate draws, with a generator seeded by ``seed`` and the input, how many levels to
    combine (from ``level_counts``) and which levels, then for each chosen level one registered
    perturbation from that level's list; the levels are applied in the order header, content,
    question, each to one (seeded) output of the previous step. A candidate whose drawn
    perturbation gives no output at some step is dropped; up to ``num_candidates`` distinct
    outputs are returned (``4 x num_candidates`` draws at most). Every table perturbation keeps
    the gold answer valid, and the question is rewritten last, so the meaning judge of
    ``robustness build`` and ``augment`` judges the question as it judges any rewrite.

    Args:
        header (Sequence[str], default ("header-synonym", "header-abbreviation")): Registered
            header perturbations.
        content (Sequence[str], default ("row-shuffle", "column-shuffle", "column-extension",
            "column-masking")): Registered content perturbations.
        question (Sequence[str], default ("robut-word-wordnet",)): Registered question perturbations.
        level_counts (Sequence[int], default (2, 3)): How many levels a candidate combines.
        num_candidates (int, default 3): Mixed outputs per input, at most.
        seed (int | None, default 0): Seed of the draws and of the table perturbations.
    """

    needs_tables: ClassVar[bool] = True
    """A mix always has a header or content level, so it only applies to examples with a table."""

    def __init__(
        self,
        *,
        header: Sequence[str] = DEFAULT_LEVEL_PERTURBATIONS["header"],
        content: Sequence[str] = DEFAULT_LEVEL_PERTURBATIONS["content"],
        question: Sequence[str] = DEFAULT_LEVEL_PERTURBATIONS["question"],
        level_counts: Sequence[int] = (2, 3),
        num_candidates: int = 3,
        seed: int | None = 0,
    ) -> None:
        check_count("num_candidates", num_candidates)
        check_seed(seed)
        self.header = _names("header", header)
        self.content = _names("content", content)
        self.question = _names("question", question)
        self.level_counts = tuple(level_counts)
        if not self.level_counts or any(count not in (2, 3) for count in self.level_counts):
            raise ConfigurationError(
                f"level_counts must name 2 and/or 3 levels (RobuT mixes two or three), got {level_counts!r}."
            )
        self.num_candidates = num_candidates
        self.seed = seed
        registry = get_registry()
        for name in (*self.header, *self.content, *self.question):
            registry.get("perturbation", name)  # an unknown name fails here, listing the known ones
        self._parts: dict[str, Transformation] = {}

    def _part(self, name: str) -> Transformation:
        """The registered perturbation ``name``, made on first use (with this mix's seed)."""
        if name not in self._parts:
            entry = get_registry().get("perturbation", name)
            self._parts[name] = entry.create(seed=self.seed) if "seed" in entry.options else entry.create()
        return self._parts[name]

    def _rng(self, current_text: AttackedText) -> random.Random:
        if self.seed is None:
            return random.Random()
        digest = hashlib.sha256("\x00".join(current_text._text_input.values()).encode("utf-8")).hexdigest()
        return random.Random(f"{self.seed}:{digest}")

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        indices = set(indices_to_modify)
        rng = self._rng(current_text)
        by_level = {"header": self.header, "content": self.content, "question": self.question}
        outputs: list[AttackedText] = []
        for _ in range(4 * self.num_candidates):
            if len(distinct_new_texts(current_text, outputs)) >= self.num_candidates:
                break
            count = rng.choice(self.level_counts)
            chosen = set(rng.sample(LEVELS, count))
            levels = [level for level in LEVELS if level in chosen]
            text: AttackedText | None = current_text
            for level in levels:
                step = self._part(rng.choice(by_level[level]))(text, indices_to_modify=set(indices))
                if not step:
                    text = None
                    break
                text = rng.choice(step)
            if text is not None:
                outputs.append(text)
        return distinct_new_texts(current_text, outputs)[: self.num_candidates]

    @property
    def deterministic(self) -> bool:
        return self.seed is not None and all(
            self._part(name).deterministic for name in (*self.header, *self.content, *self.question)
        )

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_parts"] = {}  # parts may hold models; a worker makes its own
        return state

    def extra_repr_keys(self) -> list[str]:
        return ["header", "content", "question", "level_counts", "num_candidates", "seed"]


def _names(level: str, names: Sequence[str]) -> tuple[str, ...]:
    if isinstance(names, str) or not names or not all(isinstance(name, str) for name in names):
        raise ConfigurationTypeError(
            f"{level} must be a non-empty sequence of registered perturbation names, got {names!r}."
        )
    return tuple(names)
