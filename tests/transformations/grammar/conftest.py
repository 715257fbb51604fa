"""Helpers for the grammatical-error tests: which words an output changed."""

from __future__ import annotations

import difflib
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

Change = tuple[list[str], list[str]]


def word_changes(before: AttackedText, after: AttackedText) -> list[Change]:
    """``(removed words, inserted words)`` of each differing stretch, lowercased."""
    old = [word.lower() for word in before.words]
    new = [word.lower() for word in after.words]
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [(old[i1:i2], new[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


@pytest.fixture(scope="session")
def changes() -> Callable[[AttackedText, AttackedText], list[Change]]:
    return word_changes


@pytest.fixture(scope="session")
def texts() -> Callable[[list[AttackedText]], set[str]]:
    return lambda outputs: {output.text for output in outputs}
