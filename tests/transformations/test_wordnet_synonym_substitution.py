"""WordNetSynonymSubstitution: offline WordNet 3.0 synonyms, inflected, on GeoQuery questions."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import lemminflect
import pytest
from textattack.shared import AttackedText
from textattack.transformations import WordSwap

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.linguistics.wordnet import load_wordnet
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.transformations.wordnet_synonym_substitution import WordNetSynonymSubstitution

POS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "s": "ADJ", "r": "ADV"}


@pytest.fixture(scope="module")
def substitution() -> WordNetSynonymSubstitution:
    return WordNetSynonymSubstitution()


def share_a_synset(word: str, other: str) -> bool:
    """Whether some lemma of ``other`` is a WordNet synonym of some lemma of ``word``."""
    wordnet = load_wordnet()
    for synset in wordnet.synsets(word):
        upos = POS[synset.pos()]
        lemmas = {lemma.lower() for lemma in lemminflect.getAllLemmas(other, upos=upos).get(upos, ())} | {other.lower()}
        if lemmas & {name.lower() for name in synset.lemma_names()}:
            return True
    return False


def test_candidates_are_synonyms_and_exclude_the_original(substitution: WordNetSynonymSubstitution, geo_questions: list[AttackedText]) -> None:
    total = 0
    for text in geo_questions:
        for output in substitution(text):
            (i,) = [p for p, (a, b) in enumerate(zip(text.words, output.words)) if a != b]
            assert output.words[i].lower() != text.words[i].lower()
            assert text.words[i] not in FUNCTION_WORDS
            assert share_a_synset(text.words[i], output.words[i]), (text.words[i], output.words[i])
            total += 1
    assert total > 50


def test_inflection_follows_the_original(substitution: WordNetSynonymSubstitution) -> None:
    text = AttackedText("what are the largest cities in texas")
    swapped = {o.words[3] for o in substitution(text, indices_to_modify={3})}
    assert {"biggest", "greatest"} <= swapped and "big" not in swapped
    assert "metropolises" in {o.words[4] for o in substitution(text, indices_to_modify={4})}


def test_capitalisation_follows_the_original(substitution: WordNetSynonymSubstitution) -> None:
    outputs = substitution(AttackedText("Cities in Texas"), indices_to_modify={0})
    assert "Metropolises" in {o.words[0] for o in outputs}


def test_proper_nouns_multiword_and_capitalised_lemmas_are_skipped(substitution: WordNetSynonymSubstitution) -> None:
    text = AttackedText("what is the capital of texas")
    outputs = substitution(text)
    assert all(o.words[5] == "texas" for o in outputs)
    swapped = {o.words[3] for o in outputs}
    assert swapped and not swapped & {"washington", "Washington", "capital_letter"}


def test_max_candidates_keeps_the_first_senses() -> None:
    text = AttackedText("which rivers run through texas")
    every = [o.words[2] for o in WordNetSynonymSubstitution()(text, indices_to_modify={2})]
    assert [o.words[2] for o in WordNetSynonymSubstitution(max_candidates=3)(text, indices_to_modify={2})] == every[:3]


def test_new_york_is_never_altered(substitution: WordNetSynonymSubstitution) -> None:
    text = AttackedText("how many people live in new york")
    outputs = substitution(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert outputs and all(o.text.endswith("new york") for o in outputs)


def test_literals_survive_on_real_geoquery(substitution: WordNetSynonymSubstitution, geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples, substitution) > 100


def test_is_a_deterministic_word_swap(substitution: WordNetSynonymSubstitution) -> None:
    text = AttackedText("what is the longest river")
    assert isinstance(substitution, WordSwap) and substitution.deterministic
    assert [o.text for o in substitution(text)] == [o.text for o in substitution(text)]


@pytest.mark.parametrize(("kwargs", "error"), [({"function_words": "the"}, TypeError), ({"max_candidates": 0}, ValueError), ({"spacy_pipeline": ""}, TypeError)])
def test_bad_arguments_rejected(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        WordNetSynonymSubstitution(**kwargs)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(WordNetSynonymSubstitution())
    for name in inspect.signature(WordNetSynonymSubstitution.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"WordNetSynonymSubstitution builds candidates for every word.*300 words.*256"):
        WordNetSynonymSubstitution()(text)
