"""The packaged map of visually similar characters, read by the typo perturbation that writes them
(TextBugger's Sub-C) and by the meaning judge that reads them back (*r1ver* is *river*)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources

VISUAL_CHARACTERS_RESOURCE = "visually_similar_characters.txt"


@functools.cache
def visually_similar_characters() -> Mapping[str, tuple[str, ...]]:
    """The packaged map character -> visually similar characters (TextBugger's Sub-C).

    Example:
        >>> [visually_similar_characters()[c] for c in "ola"]
        [('0',), ('1',), ('@',)]
    """
    text = (resources.files("textattack_semparse") / "resources" / VISUAL_CHARACTERS_RESOURCE).read_text("utf-8")
    table: dict[str, tuple[str, ...]] = {}
    for line in text.splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            table[fields[0]] = tuple(fields[1:])
    return table


def looks_like(written: str, word: str) -> bool:
    """Whether ``written`` is ``word`` with some letters written as their look-alikes (*r1ver*,
    *9round*, *0f*), as the packaged map gives them.

    Example:
        >>> looks_like("r1ver", "river"), looks_like("1ist", "list"), looks_like("9round", "ground")
        (True, True, True)
        >>> looks_like("river", "river"), looks_like("rover", "river")
        (False, False)
    """
    if written == word or len(written) != len(word):
        return False
    table = visually_similar_characters()
    return all(
        mine == theirs or mine in table.get(theirs, ()) or mine in table.get(theirs.upper(), ())
        for mine, theirs in zip(written, word)
    )
