"""Which table cells and headers a Table QA question or its gold answer depends on.

Content perturbations of RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA
Robustness Against Human-Annotated Adversarial Perturbations", ACL 2023,
https://arxiv.org/abs/2306.14321) must keep the gold answer valid. The tests here are
deliberately broad: a cell *holds* an answer value when the value occurs in it as whole
words after case and space folding (so "Germany (GER)" holds "Germany" and "3–1" holds "3"),
and a header is *named in the question* when one of its content words occurs there, or a
word that starts with it or that it starts with ("rank" and "ranked").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from textattack_semparse.linguistics.function_words import FUNCTION_WORDS

_TOKEN = re.compile(r"[^\W_]+")


def normalize_value(text: str) -> str:
    """Case-folded ``text`` with runs of white space made one space."""
    return " ".join(text.casefold().split())


def holds_answer(cell: str, answers: Iterable[str]) -> bool:
    """Whether some answer value occurs in ``cell`` as whole words (folded).

    Example:
        >>> holds_answer("Germany (GER)", ["germany"]), holds_answer("3–1", ["3"]), holds_answer("13", ["3"])
        (True, True, False)
    """
    text = normalize_value(cell)
    for answer in answers:
        value = normalize_value(answer)
        if value and re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", text):
            return True
    return False


def column_holds_answer(cells: Iterable[str], answers: Iterable[str]) -> bool:
    """Whether any cell of a column holds an answer value (:func:`holds_answer`)."""
    values = list(answers)
    return any(holds_answer(cell, values) for cell in cells)


_MIN_PREFIX = 4


def content_words(text: str) -> set[str]:
    """Case-folded words of ``text`` that are not function words."""
    return {word for word in _TOKEN.findall(text.casefold()) if word not in FUNCTION_WORDS}


def _related(first: str, second: str) -> bool:
    """Equal, or one a prefix of the other of at least four letters ("rank" and "ranked")."""
    shorter, longer = sorted((first, second), key=len)
    return shorter == longer or (len(shorter) >= _MIN_PREFIX and longer.startswith(shorter))


def shares_content_word(first: str, second: str) -> bool:
    """Whether a content word of ``first`` and one of ``second`` are related (:func:`_related`).

    Example:
        >>> shares_content_word("Rank", "who ranked third?"), shares_content_word("Nation", "who won?")
        (True, False)
    """
    return any(_related(a, b) for a in content_words(first) for b in content_words(second))


def header_in_question(header: str, question: str) -> bool:
    """Whether the question names the header: they share a content word, inflection aside.

    Example:
        >>> header_in_question("Gold medals", "how many gold did japan win"), header_in_question("Years", "which year?")
        (True, True)
    """
    return shares_content_word(header, question)
