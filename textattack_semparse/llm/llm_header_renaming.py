"""LLM-prompted header renaming: a table perturbation whose new header names an LLM victim writes.

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321)
trains robust Table QA models on adversarial examples an LLM writes when prompted few-shot
(LeTA, with GPT-3): among them header synonyms and abbreviations. Here any LLM victim
(``hf-causal:PATH``, ``openai:MODEL@URL``, or a third-party backend) writes the new names;
the rules of the rule-based header perturbations then apply unchanged (cells untouched, no
name collisions, a header equal to a gold answer value kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from textattack_semparse.arguments import check_choice, check_count
from textattack_semparse.llm.perturbation_llm import perturbation_llm_name
from textattack_semparse.transformations.table.answer_cells import normalize_value
from textattack_semparse.transformations.table.header_renaming import HeaderRenaming
from textattack_semparse.victims.llm.completer import llm_completer

SEPARATOR = " | "
"""Between the names of one completion line (``;`` would stop OpenAI-style completions)."""

MAX_NAME_CHARS = 60
"""Longest new header accepted from a completion."""

# Our own demonstrations, written on WikiTableQuestions-like headers: (columns, column, new names).
DEMONSTRATIONS: dict[str, tuple[tuple[tuple[str, ...], str, tuple[str, ...]], ...]] = {
    "synonym": (
        (("Year", "Competition", "Venue", "Position"), "Venue", ("Location", "Place", "Host city")),
        (("Rank", "Nation", "Gold", "Silver", "Bronze", "Total"), "Nation", ("Country", "Team", "National team")),
        (("Name", "Date of birth", "Club", "Goals"), "Goals", ("Goals scored", "Scores", "Number of goals")),
    ),
    "abbreviation": (
        (("Year", "Competition", "Venue", "Position"), "Position", ("Pos.", "Pos", "Posn")),
        (("Rank", "Nation", "Gold", "Silver", "Bronze", "Total"), "Nation", ("Nat.", "Ntn", "Nat")),
        (("Name", "Date of birth", "Club", "Goals"), "Date of birth", ("DOB", "Birth dt.", "D.o.b.")),
    ),
}
"""Few-shot demonstrations per kind of new name (original to textattack-semparse)."""

INSTRUCTIONS = {
    "synonym": "Give other names for a table column that mean exactly the same as its name.",
    "abbreviation": "Give abbreviations of a table column's name that a reader would still understand.",
}
LABELS = {"synonym": "Synonyms", "abbreviation": "Abbreviations"}
KINDS = tuple(DEMONSTRATIONS)


class LLMHeaderRenaming(HeaderRenaming):
    """Rename columns to the synonyms or abbreviations an LLM writes for them (RobuT's LeTA).

    For each header the LLM completes a few-shot prompt (:meth:`prompt`: an instruction, three
    demonstrations, then the table's columns and the column to rename); the first line of the
    completion, names separated by ``" | "``, gives up to ``alternatives_per_header`` new names
    (:meth:`parse`). Names equal to the old one, empty, longer than 60 characters, and for
    abbreviations not shorter than the old name, are dropped. Each table's prompts go to the
    LLM in one batch, through its persistent response cache (a repeated header costs nothing).
    The rest is :class:`HeaderRenaming`: the cells are not touched, a new name never equals
    another header, a header equal to a gold answer value keeps its name.

    RobuT prompted GPT-3 (text-davinci-003, since retired by OpenAI); there is no default
    model: pass ``llm`` or set ``SEMPARSE_PERTURBATION_LLM``. The prompt text and its
    demonstrations are original to textattack-semparse (RobuT's are not reproduced).

    Args:
        kind (str, default "synonym"): ``"synonym"`` or ``"abbreviation"``.
        llm (str | None, default None): An LLM victim name (``hf-causal:/models/x.gguf``,
            ``openai:gpt-4o-mini@https://api.openai.com/v1``); ``None``: the environment
            variable ``SEMPARSE_PERTURBATION_LLM``.
        alternatives_per_header (int, default 3): New names read from each completion, at most.
        columns_to_change (int | None, default None): Columns renamed per candidate; ``None``
            = every column that has a new name.
        num_candidates (int, default 1): Perturbed tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.
    """

    def __init__(
        self,
        *,
        kind: str = "synonym",
        llm: str | None = None,
        alternatives_per_header: int = 3,
        columns_to_change: int | None = None,
        num_candidates: int = 1,
        seed: int | None = 0,
    ) -> None:
        super().__init__(columns_to_change=columns_to_change, num_candidates=num_candidates, seed=seed)
        check_choice("kind", kind, KINDS)
        check_count("alternatives_per_header", alternatives_per_header)
        self.name_kind = kind
        self.llm = llm
        self.alternatives_per_header = alternatives_per_header
        self.perturbation = f"llm-header-{kind}"  # type: ignore[misc]
        self.kind = f"an LLM-written {kind}"

    @cached_property
    def llm_name(self) -> str:
        """The LLM victim name used: ``llm``, else ``SEMPARSE_PERTURBATION_LLM``.

        Raises:
            ResourceError: Neither is set.
        """
        return perturbation_llm_name(self.llm, self.perturbation, "the new header names")

    @cached_property
    def completer(self) -> Any:
        """The LLM victim whose :meth:`complete` writes the names (zero-shot as a parser: the
        demonstrations are in :meth:`prompt`)."""
        return llm_completer(self.llm_name)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("completer", None)  # a worker loads its own model
        return state

    def prompt(self, header: Sequence[str], column: str) -> str:
        """The few-shot prompt asking for new names of ``column`` in a table with ``header``."""
        label = LABELS[self.name_kind]
        blocks = [INSTRUCTIONS[self.name_kind] + f' Write them on one line, separated by "{SEPARATOR.strip()}".']
        for columns, name, alternatives in DEMONSTRATIONS[self.name_kind]:
            blocks.append(_block(columns, name, label) + " " + SEPARATOR.join(alternatives))
        blocks.append(_block(header, column, label))
        return "\n\n".join(blocks)

    def parse(self, completion: str, column: str) -> list[str]:
        """The new names of ``column`` in ``completion``'s first line, in order, filtered."""
        line = completion.strip().split("\n", 1)[0] if completion.strip() else ""
        names: list[str] = []
        seen = {normalize_value(column)}
        for raw in line.split(SEPARATOR.strip()):
            name = raw.strip().strip("\"'`").strip()
            key = normalize_value(name)
            if not name or key in seen or len(name) > MAX_NAME_CHARS:
                continue
            if self.name_kind == "abbreviation" and len(name) >= len(column):
                continue
            seen.add(key)
            names.append(name)
        return names[: self.alternatives_per_header]

    def header_alternatives(self, header: Sequence[str]) -> list[list[str]]:
        prompts = [self.prompt(header, column) for column in header]
        completions = self.completer.complete(prompts)
        return [self.parse(completion, column) for completion, column in zip(completions, header)]

    def alternatives(self, name: str) -> list[str]:
        return self.header_alternatives([name])[0]

    def extra_repr_keys(self) -> list[str]:
        return ["name_kind", "llm", "alternatives_per_header"] + super().extra_repr_keys()


def _block(header: Sequence[str], column: str, label: str) -> str:
    return f"Columns: {SEPARATOR.join(header)}\nColumn: {column}\n{label}:"

