"""Distraction suffix
=======================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (DB).
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text
from textattack.transformations import Transformation

from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError
from textattack_semparse.transformations.derived_text import question_text, question_word_count, rebuild_question

DEFAULT_STATEMENTS: tuple[str, ...] = (
    "who is who",
    "what is what",
    "when is when",
    "which is which",
    "where is where",
)
"""Zhuo et al.'s five distraction statements, in the order of the issue's quotation of their Table 8."""

SEPARATOR = "; "
"""Between two statements of the suffix ("who is who; what is what; ...")."""


class DistractionSuffix(Transformation):
    """Append all of Zhuo et al.'s distraction statements to the question, as one suffix (DB).

    Paper rule (Zhuo et al. 2023, DB, statements of their Table 8): the question is followed
    by the five distraction statements "who is who; what is what; when is when; which is
    which; where is where". The suffix is ``"; ".join(statements)``, appended after the
    whole first input column (the question) with one space, *after* any trailing
    punctuation: "how many rivers are in texas ?" becomes "how many rivers are in texas ?
    who is who; what is what; when is when; which is which; where is where". The question
    mark belongs to the question, and the statements stay statements. The list, its order
    and the ``"; "`` separator follow issue 8's quotation of the paper's Table 8 ("who is
    who; what is what; ..."); the table itself could not be read offline.

    One candidate per input. A question that already ends with the suffix gets none, so a
    search appends it once. Appending changes no existing word, so the *identity* of the
    modifiable indices is irrelevant; their *presence* is the gate: nothing is proposed when
    no question word is modifiable, which keeps budgets such as ``MaxModificationRate`` and
    ``RepeatModification`` meaningful while a protected last word (a database value guarded
    by ``PreserveLiterals``) does not block it. ``original_index_map`` is unchanged and the
    appended words are recorded as modified. Other input columns are kept. Deterministic.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868.

    Args:
        statements (Iterable[str] | None): Statements of the suffix, in order; default
            ``None`` = the paper's five (:data:`DEFAULT_STATEMENTS`).

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in DistractionSuffix()(AttackedText("which rivers run through texas ?"))]
        ['which rivers run through texas ? who is who; what is what; when is when; which is which; where is where']
    """

    def __init__(self, statements: Iterable[str] | None = None) -> None:
        if isinstance(statements, str):
            raise ConfigurationTypeError(f"statements must be an iterable of strings, not the string {statements!r}.")
        if statements is not None:
            statements = tuple(" ".join(str(s).split()) for s in statements)
            if not statements or not all(words_from_text(s) for s in statements):
                raise ConfigurationError(
                    f"statements must be non-empty strings containing words, got {statements!r}; "
                    "pass None for the paper's five statements."
                )
        self.statements = statements
        self.suffix = SEPARATOR.join(statements or DEFAULT_STATEMENTS)
        self._suffix_words = words_from_text(self.suffix)

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        count = question_word_count(current_text)
        if not count or not set(indices_to_modify).intersection(range(count)):
            return []
        words = current_text.words[:count]
        if [w.lower() for w in words[-len(self._suffix_words) :]] == [w.lower() for w in self._suffix_words]:
            return []
        question = f"{question_text(current_text).rstrip()} {self.suffix}"
        return [rebuild_question(current_text, question, [*range(count), *[None] * len(self._suffix_words)])]

    def extra_repr_keys(self) -> list[str]:
        return ["statements"] + super().extra_repr_keys()
