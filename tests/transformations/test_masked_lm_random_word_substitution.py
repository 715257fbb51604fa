"""MaskedLMRandomWordSubstitution (Zhuo et al. 2023, CS) with tiny random masked LMs."""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.masked_lm_random_word_substitution import MaskedLMRandomWordSubstitution


def changed(before: AttackedText, after: AttackedText) -> list[int]:
    assert after.num_words == before.num_words
    return [i for i, (a, b) in enumerate(zip(before.words, after.words)) if a.lower() != b.lower()]


@pytest.fixture(scope="module", params=("roberta", "bert"))
def model_path(request: pytest.FixtureRequest, tiny_masked_lm: Callable[[str], str]) -> str:
    return tiny_masked_lm(request.param)


def test_changes_exactly_two_words(model_path: str, geo_questions: list[AttackedText]) -> None:
    substitution = MaskedLMRandomWordSubstitution(model_path, synonyms_only=False, device="cpu", seed=0)
    for text in geo_questions:
        outputs = substitution(text)
        assert outputs
        assert all(len(changed(text, o)) == 2 for o in outputs)


def test_replacements_come_from_the_masked_lm_top_k(model_path: str) -> None:
    substitution = MaskedLMRandomWordSubstitution(
        model_path, synonyms_only=False, num_words=1, top_k=3, device="cpu", seed=0
    )
    text = AttackedText("what is the capital of texas")
    lm = substitution.masked_lm
    for output in substitution(text):
        (i,) = changed(text, output)
        masked = text.replace_word_at_index(i, lm.mask_token).text
        assert output.words[i] in {w for w, _ in lm.top_words([masked], 3, exclude=[[text.words[i]]])[0]}


def test_up_to_num_candidates_distinct_outputs(model_path: str) -> None:
    text = AttackedText("which rivers run through the state with the largest population")
    substitution = MaskedLMRandomWordSubstitution(model_path, synonyms_only=False, num_candidates=7, device="cpu", seed=0)
    outputs = substitution(text)
    assert 1 <= len(outputs) <= 7 and len({o.text for o in outputs}) == len(outputs)


def test_seeded_runs_repeat(model_path: str) -> None:
    text = AttackedText("what is the largest city in texas")

    def run() -> list[str]:
        substitution = MaskedLMRandomWordSubstitution(model_path, synonyms_only=False, device="cpu", seed=3)
        return [o.text for o in substitution(text)]

    assert run() == run()


def test_new_york_is_never_altered(model_path: str) -> None:
    text = AttackedText("how many people live in new york")
    substitution = MaskedLMRandomWordSubstitution(model_path, synonyms_only=False, device="cpu", seed=0)
    outputs = substitution(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert outputs and all(o.text.endswith("new york") and max(changed(text, o)) < 5 for o in outputs)


def test_literals_survive_on_real_geoquery(model_path: str, geo_examples: list[AttackedText], check_literals: Callable) -> None:
    substitution = MaskedLMRandomWordSubstitution(model_path, synonyms_only=False, num_candidates=4, device="cpu", seed=0)
    assert check_literals(geo_examples[:10], substitution) > 15


def test_only_wordnet_synonyms_replace_words_by_default(model_path: str) -> None:
    """Zhuo et al.'s CS (as issue 25 quotes it): "substitute two random words with their synonyms"."""
    from nltk.corpus import wordnet

    from textattack_semparse.linguistics.wordnet import load_wordnet

    load_wordnet()
    text = AttackedText("what is the biggest city in the largest state")
    substitution = MaskedLMRandomWordSubstitution(
        model_path, num_words=1, top_k=2000, num_candidates=40, device="cpu", seed=0
    )
    assert substitution.synonyms_only
    outputs = substitution(text)
    assert outputs  # "biggest" and "largest" are in the tiny vocabulary, and are WordNet synonyms
    for output in outputs:
        (i,) = changed(text, output)
        old, new = text.words[i].lower(), output.words[i].lower()
        assert set(wordnet.synsets(old)) & set(wordnet.synsets(new)), (old, new)
    anything = MaskedLMRandomWordSubstitution(model_path, num_words=1, top_k=2000, num_candidates=40, device="cpu",
                                              seed=0, synonyms_only=False)(text)
    assert len(anything) > len(outputs)


def test_default_model_is_roberta_and_loads_lazily() -> None:
    substitution = MaskedLMRandomWordSubstitution()
    assert substitution.model_name_or_path == "roberta-base" and substitution.masked_lm._model is None
    assert not substitution.deterministic
    assert pickle.loads(pickle.dumps(substitution)).masked_lm._model is None


def test_bad_top_k_rejected() -> None:
    with pytest.raises(ValueError, match="top_k"):
        MaskedLMRandomWordSubstitution(top_k=0)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(MaskedLMRandomWordSubstitution())
    for name in inspect.signature(MaskedLMRandomWordSubstitution.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
