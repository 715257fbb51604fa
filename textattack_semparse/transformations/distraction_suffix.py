"""Distraction suffix
=======================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868.
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.sql.literals import literal_words

DEFAULT_STATEMENTS: tuple[str, ...] = (
    "who is who",
    "what is what",
    "when is when",
    "which is which",
    "where is where",
)


class DistractionSuffix(Transformation):
    """Append an interrogative distraction statement ("what is what") to the question.

    Zhuo et al.'s distraction perturbation (DB) appends such statements to the question.
    Here each candidate appends exactly one statement after the last word of the first input
    column (the question; trailing punctuation stays last, so "... have?" becomes
    "... have who is who?"), giving one candidate per applicable statement, in the order of
    ``statements``. With ``prefer_matching`` the applicable statements are those whose
    interrogative word (their first word) occurs in the question, and all statements when
    none does. A question that already ends with a statement gets none, so greedy search
    appends at most one.

    Appending changes no existing word, so the *identity* of the modifiable indices is
    irrelevant; their *presence* is the gate: the transformation proposes nothing when no
    word of the question is modifiable, which keeps budgets such as ``MaxModificationRate``
    and ``RepeatModification`` meaningful while a protected last word (a database value
    guarded by ``PreserveLiterals``) does not block it. TextAttack's
    ``insert_text_after_word_index`` records the appended words and the question's last
    word as modified and leaves ``original_index_map`` unchanged. Deterministic.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868.

    Args:
        statements (Iterable[str] | None): Distraction statements; default ``None`` = "who
            is who", "what is what", "when is when", "which is which", "where is where".
        prefer_matching (bool): Keep only statements whose first word occurs in the question
            when there is one. Default ``True``.

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in DistractionSuffix()(AttackedText("which rivers run through texas"))]
        ['which rivers run through texas which is which']
    """

    def __init__(self, statements: Iterable[str] | None = None, prefer_matching: bool = True) -> None:
        if isinstance(statements, str):
            raise TypeError(f"statements must be an iterable of strings, not the string {statements!r}.")
        if statements is not None:
            statements = tuple(dict.fromkeys(" ".join(str(s).split()) for s in statements))
            if not statements or not all(literal_words(s) for s in statements):
                raise ValueError(
                    f"statements must be non-empty strings containing words, got {statements!r}; "
                    "pass None for the default interrogative statements."
                )
        if not isinstance(prefer_matching, bool):
            raise TypeError(f"prefer_matching must be a bool, got {prefer_matching!r}.")
        self.statements = statements
        self.prefer_matching = prefer_matching
        self._statements: tuple[str, ...] = statements or DEFAULT_STATEMENTS
        self._statement_words = {s: literal_words(s) for s in self._statements}

    def applicable_statements(self, question_words: list[str]) -> list[str]:
        """Statements to append to a question with these words (see the class docstring)."""
        lowered = [word.lower() for word in question_words]
        if any(lowered[-len(words) :] == words for words in self._statement_words.values()):
            return []
        if self.prefer_matching:
            present = set(lowered)
            matching = [s for s, words in self._statement_words.items() if words[0] in present]
            if matching:
                return matching
        return list(self._statements)

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        question_words = current_text.words_per_input[0]
        if not question_words or not set(indices_to_modify).intersection(range(len(question_words))):
            return []
        last = len(question_words) - 1
        return [
            current_text.insert_text_after_word_index(last, statement)
            for statement in self.applicable_statements(question_words)
        ]

    def extra_repr_keys(self) -> list[str]:
        return ["statements", "prefer_matching"] + super().extra_repr_keys()
