"""LLM-written question rewrites: RobuT's question-level perturbations written by an LLM victim.

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321) has its
annotators perturb questions at the word level and at the sentence level, and its LeTA
augmentation prompts an LLM (GPT-3) to write such perturbations: per-level demonstrations, each
with its reasoning written before the answer (chain of thought). Here any LLM victim
(``hf-causal:PATH``, ``openai:MODEL@URL``, a third-party backend) writes the rewrite; the rules
of the other whole-question rewrites then apply (words outside the modifiable ones must survive,
copies of the question are dropped).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from textattack_semparse.arguments import check_choice, check_count
from textattack_semparse.llm.perturbation_llm import perturbation_llm_name
from textattack_semparse.transformations.sentence_rewrite_transformation import SentenceRewriteTransformation
from textattack_semparse.victims.llm.completer import llm_completer

REWRITE_LABEL = "Rewrite:"
"""Opens the line of the completion that holds the rewrite (after the reasoning)."""

MAX_LENGTH_RATIO = 3
"""A rewrite longer than this many times the question is not a rewrite of it."""

INSTRUCTIONS = {
    "word": "Rewrite the question by replacing one or two words with words of the same meaning (synonyms or "
    "abbreviations). Keep the names, numbers and the words the answer depends on. First reason about which "
    "words can change, then write the rewrite.",
    "sentence": "Paraphrase the question: ask exactly the same thing with another sentence structure and other "
    "wording. Keep the names and numbers. First reason about what the question asks, then write the rewrite.",
}

# Our own demonstrations on WikiTableQuestions-like questions: (question, reasoning, rewrite).
DEMONSTRATIONS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "word": (
        (
            "how many gold medals did norway win?",
            "'gold medals' names what is counted and 'norway' is a name: both stay. 'win' can become 'earn'.",
            "how many gold medals did norway earn?",
        ),
        (
            "what was the total number of votes for the liberal party?",
            "'votes' and 'the liberal party' say what is summed: they stay. 'total' means the same as 'overall'.",
            "what was the overall number of votes for the liberal party?",
        ),
        (
            "which film had the largest budget?",
            "'largest' is the superlative the answer depends on and stays. 'film' and 'movie' are the same thing.",
            "which movie had the largest budget?",
        ),
        (
            "in what year did the team first reach the playoffs?",
            "'first' and 'playoffs' decide the answer. 'reach' can become 'make', 'what' can become 'which'.",
            "in which year did the team first make the playoffs?",
        ),
        (
            "who scored more goals, smith or jones?",
            "'more goals' and both names decide the answer. 'scored' can become 'netted'.",
            "who netted more goals, smith or jones?",
        ),
    ),
    "sentence": (
        (
            "how many gold medals did norway win?",
            "It asks for the count of gold medals Norway won. The same count can be asked with 'the number of'.",
            "what is the number of gold medals won by norway?",
        ),
        (
            "which film had the largest budget?",
            "It asks for the film whose budget is the largest. Putting the budget first asks the same.",
            "the largest budget belonged to which film?",
        ),
        (
            "what is the difference in population between oslo and bergen?",
            "It asks how much the populations of Oslo and Bergen differ. 'by how much' asks the same.",
            "by how much does the population of oslo differ from that of bergen?",
        ),
        (
            "did the team win more games at home or away?",
            "It asks whether home wins or away wins are more. Asking where most wins came from is the same.",
            "were more of the team's wins at home or away?",
        ),
        (
            "who was the coach before john smith?",
            "It asks for the coach who came just before John Smith. Moving 'before john smith' first asks the same.",
            "before john smith, who was the coach?",
        ),
    ),
}
"""Per-level few-shot demonstrations with reasoning (original to textattack-semparse)."""

LEVELS = tuple(DEMONSTRATIONS)


class LLMQuestionRewriting(SentenceRewriteTransformation):
    """Rewrite the question at RobuT's word or sentence level with an LLM, reasoning first.

    The LLM completes a few-shot prompt (:meth:`prompt`: the level's instruction, its five
    demonstrations -- question, reasoning, rewrite -- then the question and ``Reasoning:``); the
    rewrite is the rest of the first completion line that opens with ``Rewrite:``
    (:meth:`parse`). Completions go through the LLM victim's persistent response cache and are
    greedy, so the transformation is deterministic: one rewrite per question at most. Rewrites
    equal to the question, empty, or more than three times its length are dropped, and words
    outside the modifiable ones must survive (:class:`SentenceRewriteTransformation`); the
    meaning judge of ``robustness build`` and ``augment`` then judges the rest.

    RobuT prompted GPT-3 (text-davinci-003, since retired); there is no default model: pass
    ``llm`` or set ``SEMPARSE_PERTURBATION_LLM``. The instructions and demonstrations are
    original to textattack-semparse (RobuT's are not reproduced; it used 5 to 8 per
    question-level perturbation type).

    Args:
        level (str, default "sentence"): ``"word"`` (a word or two replaced) or ``"sentence"``
            (a paraphrase of the whole question).
        llm (str | None, default None): An LLM victim name; ``None``: ``SEMPARSE_PERTURBATION_LLM``.
        num_demonstrations (int, default 5): Demonstrations of the level shown, at most 5.
    """

    def __init__(self, *, level: str = "sentence", llm: str | None = None, num_demonstrations: int = 5) -> None:
        check_choice("level", level, LEVELS)
        check_count("num_demonstrations", num_demonstrations)
        if num_demonstrations > len(DEMONSTRATIONS[level]):
            raise ValueError(
                f"num_demonstrations must be at most {len(DEMONSTRATIONS[level])} (the {level}-level "
                f"demonstrations written), got {num_demonstrations}."
            )
        self.level = level
        self.llm = llm
        self.num_demonstrations = num_demonstrations
        self.perturbation = f"robut-{level}-llm"

    @cached_property
    def llm_name(self) -> str:
        """The LLM victim name used: ``llm``, else ``SEMPARSE_PERTURBATION_LLM``.

        Raises:
            ResourceError: Neither is set.
        """
        return perturbation_llm_name(self.llm, self.perturbation, f"the {self.level}-level question rewrites")

    @cached_property
    def completer(self) -> Any:
        """The LLM victim whose :meth:`complete` writes the rewrites."""
        return llm_completer(self.llm_name)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("completer", None)  # a worker loads its own model
        return state

    def prompt(self, question: str) -> str:
        """The few-shot prompt asking for a rewrite of ``question``, reasoning first."""
        blocks = [INSTRUCTIONS[self.level]]
        for original, reasoning, rewrite in DEMONSTRATIONS[self.level][: self.num_demonstrations]:
            blocks.append(f"Question: {original}\nReasoning: {reasoning}\n{REWRITE_LABEL} {rewrite}")
        blocks.append(f"Question: {question}\nReasoning:")
        return "\n\n".join(blocks)

    @staticmethod
    def parse(completion: str, question: str) -> list[str]:
        """The rewrite in ``completion`` (the text after ``Reasoning:``), or nothing."""
        for line in completion.split("\n"):
            line = line.strip()
            if line.startswith("Question:"):
                break  # the model went on to a question of its own
            if line.startswith(REWRITE_LABEL):
                rewrite = line[len(REWRITE_LABEL) :].strip().strip("\"'`").strip()
                if rewrite and len(rewrite) <= MAX_LENGTH_RATIO * max(len(question), 1):
                    return [rewrite]
                return []
        return []

    def rewrite(self, questions: Sequence[str]) -> list[list[str]]:
        completions = self.completer.complete([self.prompt(question) for question in questions])
        return [self.parse(completion, question) for completion, question in zip(completions, questions)]

    def extra_repr_keys(self) -> list[str]:
        return ["level", "llm", "num_demonstrations"] + super().extra_repr_keys()
