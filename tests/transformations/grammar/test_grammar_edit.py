"""GrammarEdit: one replacement per index, an anchor among the indices."""

from __future__ import annotations

import pytest

from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit


def test_insertion_and_deletion_change_the_length() -> None:
    assert GrammarEdit("ArtOrDet", (3,), ("the school",), "∅", "the", 3).changes_length
    assert GrammarEdit("ArtOrDet", (2,), ("",), "the", "∅", 2).changes_length
    assert not GrammarEdit("Worder", (4, 5), ("presented", "clearly"), "clearly", "presented", 4).changes_length


def test_one_replacement_per_index() -> None:
    with pytest.raises(ValueError, match="one replacement per index"):
        GrammarEdit("Worder", (4, 5), ("presented",), "clearly", "presented", 4)


def test_position_must_be_one_of_the_indices() -> None:
    with pytest.raises(ValueError, match="position 7 is not one of its indices"):
        GrammarEdit("Nn", (3,), ("rivers",), "singular", "plural", 7)
