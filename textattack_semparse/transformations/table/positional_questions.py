"""Questions about position in a table, which row and column shuffles would change.

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321)
shuffles rows and columns for all questions except a small number that ask about absolute
position in the table. The rule here: a question is about position in the table when it names
the table's layout (``LAYOUT_WORDS``: "listed", "list", "table", "chart", "row", "column",
"entry", ...) *and* an order word (``ORDER_WORDS``: "first", "last", "top", "bottom", "above",
"below", "before", "after", "next", "previous", ...): "who is the first player listed?", "what
team is listed above diamond racing?", "what is the last party on this chart?". An order word
alone is not enough: "who came in first?", "which engines were used after 1999?" and "the last
team to win the west" ask about ranks and dates the cells carry, which a shuffle keeps. On the
2,831 WikiTableQuestions dev questions (random-split-1) the rule leaves out 141 (5.0%).

Kept, and worth knowing: relative-order questions that do not name the layout ("what is next
after ardelinda?", "which team won previous to crettyard?") stay in; their gold answer relies
on the row order when no column orders the rows.
"""

from __future__ import annotations

import re

ORDER_WORDS: tuple[str, ...] = (
    "first",
    "last",
    "top",
    "bottom",
    "above",
    "below",
    "before",
    "after",
    "next",
    "previous",
    "preceding",
    "following",
    "prior",
    "second",
    "third",
    "penultimate",
    "earlier",
    "later",
    "order",
)
"""Words that place something in an order (combined with a layout word, the table's order)."""

LAYOUT_WORDS: tuple[str, ...] = (
    "listed",
    "listing",
    "list",
    "lists",
    "table",
    "tables",
    "chart",
    "charts",
    "row",
    "rows",
    "column",
    "columns",
    "entry",
    "entries",
    "page",
)
"""Words that name the table's layout (a question naming it asks about where things sit)."""


def _words(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(re.escape(word) for word in words) + r")\b", re.IGNORECASE)


_ORDER = _words(ORDER_WORDS)
_LAYOUT = _words(LAYOUT_WORDS)
_LIST_VERB = re.compile(r"^\s*list\b", re.IGNORECASE)  # "list the schools that ..." is an instruction


def table_position_words(question: str) -> tuple[str, str] | None:
    """``(order word, layout word)`` when ``question`` asks about position in the table, else ``None``.

    Example:
        >>> table_position_words("Who is the first player listed?")
        ('first', 'listed')
        >>> table_position_words("Who came in first?") is None, table_position_words("List the last winners.") is None
        (True, True)
    """
    layout = _LAYOUT.search(_LIST_VERB.sub("", question))
    order = _ORDER.search(question)
    if layout is None or order is None:
        return None
    return order.group(1).lower(), layout.group(1).lower()
