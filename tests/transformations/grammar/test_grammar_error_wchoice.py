"""Wchoice: one content word becomes one of its first ten WordNet synonyms."""

from __future__ import annotations

from collections import Counter

import pytest
from textattack.shared import AttackedText

from textattack_semparse.linguistics.inflection import lemmatize
from textattack_semparse.linguistics.spacy_pipeline import parse_attacked_text
from textattack_semparse.linguistics.wordnet import load_wordnet
from textattack_semparse.transformations.grammar.grammar_error_wchoice import GrammarErrorWchoice

SENTENCES = [
    "what is the capital of texas",
    "which states border the state with the largest population",
    "The results are clearly presented, and the cat can easily jump over fences.",
]
_UPOS_OF_WORDNET = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}
_WORDNET_OF_UPOS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


@pytest.fixture(scope="module")
def transformation() -> GrammarErrorWchoice:
    return GrammarErrorWchoice()


@pytest.mark.parametrize("sentence", SENTENCES)
def test_candidates_are_wordnet_synonyms(transformation, sentence: str) -> None:
    wordnet = load_wordnet()
    text = AttackedText(sentence)
    doc = parse_attacked_text(text)
    outputs = transformation(text)
    assert outputs
    for output in outputs:
        (i,) = [i for i, (a, b) in enumerate(zip(text.words, output.words)) if a != b]
        pos = _WORDNET_OF_UPOS[doc[i].pos_]
        synonyms = {name for synset in wordnet.synsets(doc[i].lemma_, pos=pos) for name in synset.lemma_names()}
        assert lemmatize(output.words[i], doc[i].pos_) in synonyms or output.words[i].lower() in synonyms


def test_at_most_ten_synonyms_per_word(transformation) -> None:
    text = AttackedText(SENTENCES[2])
    per_position = Counter(edit.position for edit in transformation.candidate_edits(text))
    assert max(per_position.values()) == 10


def test_max_synonyms_bounds_the_candidates() -> None:
    text = AttackedText(SENTENCES[2])
    per_position = Counter(edit.position for edit in GrammarErrorWchoice(max_synonyms=2).candidate_edits(text))
    assert set(per_position.values()) <= {1, 2} and 2 in per_position.values()


def test_function_words_and_names_are_kept(transformation) -> None:
    text = AttackedText(SENTENCES[0])
    assert {edit.position for edit in transformation.candidate_edits(text)} == {3}  # "capital" only
    assert "washington" not in {edit.target for edit in transformation.candidate_edits(text)}


def test_plural_noun_gets_plural_synonyms(transformation, texts) -> None:
    outputs = texts(transformation(AttackedText(SENTENCES[2]), indices_to_modify={1}))
    assert "The consequences are clearly presented, and the cat can easily jump over fences." in outputs
    assert "The outcomes are clearly presented, and the cat can easily jump over fences." in outputs


def test_invalid_max_synonyms() -> None:
    with pytest.raises(ValueError, match="max_synonyms must be a positive int"):
        GrammarErrorWchoice(max_synonyms=0)
