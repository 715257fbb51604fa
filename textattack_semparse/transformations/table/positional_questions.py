"""Questions about absolute position in a table, which row and column shuffles would change.

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321)
shuffles rows and columns only for questions whose answer does not depend on where a row or
column sits ("first", "last", "listed", "top/bottom of the table"); such questions are left
out. The word list is conservative: "after" or "next" may refer to time rather than to the
row order, but the question is left out either way.
"""

from __future__ import annotations

import re

POSITIONAL_WORDS: tuple[str, ...] = (
    "first",
    "last",
    "listed",
    "top",
    "bottom",
    "previous",
    "next",
    "above",
    "below",
    "before",
    "after",
    "preceding",
    "following",
    "prior",
    "consecutive",
    "in a row",
    "succeeding",
    "subsequent",
)
"""Words and phrases that make a question depend on the order of rows or columns."""

_POSITIONAL = re.compile(r"\b(" + "|".join(re.escape(word) for word in POSITIONAL_WORDS) + r")s?\b", re.IGNORECASE)


def positional_word(question: str) -> str | None:
    """The first positional word of ``question`` (lower case), or ``None``.

    Example:
        >>> positional_word("Who is listed first?"), positional_word("How many gold medals did Japan win?")
        ('listed', None)
    """
    match = _POSITIONAL.search(question)
    return match.group(1).lower() if match else None
