"""Context-free inflection classes used by the Nn, SVA and Vform errors and M2 fitting."""

from __future__ import annotations

import pytest

from textattack_semparse.linguistics.inflection import inflect, noun_number, verb_agreement, verb_group_form


@pytest.mark.parametrize(
    ("lemma", "tag", "expected"),
    [
        ("river", "NNS", "rivers"),
        ("city", "NNS", "cities"),
        ("go", "VBD", "went"),
        ("flow", "VBZ", "flows"),
        ("run", "VBN", "run"),
    ],
)
def test_inflect(lemma: str, tag: str, expected: str) -> None:
    assert inflect(lemma, tag) == expected


@pytest.mark.parametrize(
    ("word", "number"),
    [
        ("river", "singular"),
        ("rivers", "plural"),
        ("cities", "plural"),
        ("population", "singular"),
        ("children", "plural"),
        ("3", None),
    ],
)
def test_noun_number(word: str, number: str | None) -> None:
    assert noun_number(word) == number


@pytest.mark.parametrize(
    ("word", "agreement"),
    [
        ("is", "3sg"),
        ("are", "non-3sg"),
        ("has", "3sg"),
        ("flows", "3sg"),
        ("flow", "non-3sg"),
        ("was", "3sg"),
        ("flowed", None),
    ],
)
def test_verb_agreement(word: str, agreement: str | None) -> None:
    assert verb_agreement(word) == agreement


@pytest.mark.parametrize(
    ("group", "form"),
    [
        ("flows", "present"),
        ("walk", "present"),
        ("went", "past"),
        ("walked", "past"),
        ("is walking", "progressive"),
        ("walking", "progressive"),
        ("has walked", "perfect"),
        ("have gone", "perfect"),
        ("has been walking", "perfect"),
        ("gone", "perfect"),
        ("will go", None),
        ("to go", None),
        ("", None),
    ],
)
def test_verb_group_form(group: str, form: str | None) -> None:
    assert verb_group_form(group.split()) == form
