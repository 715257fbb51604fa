"""The rewrite base: protected words survive any rewrite, or the rewrite is dropped.

The model boundary is replaced by fixed rewrites (a subclass), so the literal handling is
tested on known outputs; the model-backed subclasses are tested in their own modules.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.sentence_rewrite_transformation import (
    SentenceRewriteTransformation,
    locate_runs,
    protected_runs,
)


class FixedRewrites(SentenceRewriteTransformation):
    def __init__(self, *rewrites: str) -> None:
        self.rewrites = rewrites

    def rewrite(self, questions: Sequence[str]) -> list[list[str]]:
        return [list(self.rewrites) for _ in questions]


NEW_YORK = [PreserveLiterals(literals=("new york",))]


def test_protected_runs_are_maximal() -> None:
    assert protected_runs(7, {0, 1, 2, 3, 4}) == [[5, 6]]
    assert protected_runs(5, {1, 3}) == [[0], [2], [4]]
    assert protected_runs(3, {0, 1, 2}) == []


def test_locate_runs_ignores_case_and_does_not_overlap() -> None:
    assert locate_runs(["In", "New", "York", "how"], [["new", "york"]]) == [1]
    assert locate_runs(["texas", "and", "texas"], [["texas"], ["texas"]]) == [0, 2]
    assert locate_runs(["new", "jersey"], [["new", "york"]]) is None


def test_rewrite_keeping_the_literal_is_kept_with_its_spelling() -> None:
    text = AttackedText("how many people live in new york")
    (output,) = FixedRewrites("How many people reside in New York?")(text, pre_transformation_constraints=NEW_YORK)
    assert output.text == "How many people reside in new york?"
    assert output.attack_attrs["original_index_map"].tolist() == [-1, -1, -1, -1, -1, 5, 6]


def test_rewrite_losing_or_splitting_the_literal_is_dropped() -> None:
    text = AttackedText("how many people live in new york")
    rewrites = FixedRewrites("how many people live in york", "how many new people live in york", "what is the population of new york")
    assert [o.text for o in rewrites(text, pre_transformation_constraints=NEW_YORK)] == ["what is the population of new york"]


def test_copies_and_duplicates_are_dropped() -> None:
    text = AttackedText("what is the capital of texas")
    rewrites = FixedRewrites("What is the capital of Texas?", "which city is the capital of texas", "Which city is the capital of Texas")
    assert [o.text for o in rewrites(text)] == ["which city is the capital of texas"]


def test_nothing_modifiable_gives_nothing() -> None:
    assert FixedRewrites("how big is alaska")(AttackedText("what is the size of alaska"), indices_to_modify=set()) == []


def test_empty_rewrite_is_dropped() -> None:
    assert FixedRewrites("", "?")(AttackedText("how big is alaska")) == []


def test_only_the_question_column_is_rewritten() -> None:
    text = AttackedText(OrderedDict(question="how big is alaska", db_id="geo"))
    (output,) = FixedRewrites("what is the size of alaska")(text)
    assert output.text == "what is the size of alaska\ngeo" and output.words[-1] == "geo"
