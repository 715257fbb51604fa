"""What the default judge asks WordNet: common senses, classes of names, places."""

from __future__ import annotations

import pytest

from textattack_semparse.judges.word_senses import common_senses, is_instance_of, is_place, shared_common_sense


@pytest.mark.parametrize(
    ("word", "other", "pos", "shared"),
    [
        ("flow", "run", "v", True),  # flow's second sense is tagged nearly as often as its first
        ("large", "big", "a", True),
        ("city", "metropolis", "n", True),
        ("state", "country", "n", False),  # "state, nation, country" is a fifth as frequent
        ("elevation", "height", "n", False),  # too few tags to call a second sense common
        ("capital", "money", "n", False),
    ],
)
def test_a_synonym_counts_in_the_words_common_senses_only(word: str, other: str, pos: str, shared: bool) -> None:
    assert (shared_common_sense(word, other, pos) is not None) is shared


def test_the_first_sense_is_common_even_when_untagged() -> None:
    assert common_senses("tiptop", "n")[:1] == common_senses("tiptop", "n")


@pytest.mark.parametrize(
    ("name", "noun", "instance"),
    [("boston", "city", True), ("new_york", "state", True), ("mississippi", "river", True),
     ("boston", "area", False), ("texas", "city", False)],
)  # fmt: skip
def test_a_name_is_an_instance_of_its_class_and_the_class_above(name: str, noun: str, instance: bool) -> None:
    assert is_instance_of(name, noun) is instance


@pytest.mark.parametrize(
    ("name", "place"),
    [("usa", True), ("cities", True), ("mount_whitney", True), ("river", False), ("population", False)],
)
def test_places_are_names_of_places_and_nouns_for_kinds_of_places(name: str, place: bool) -> None:
    assert is_place(name) is place
