"""MaskedLMContentWordSubstitution (Huang et al. 2021, Substitution (nf)) with tiny random masked LMs."""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText
from textattack.transformations import WordSwap

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.transformations.masked_lm_content_word_substitution import MaskedLMContentWordSubstitution


def changed(before: AttackedText, after: AttackedText) -> list[int]:
    assert len(after.words) == len(before.words)
    return [i for i, (a, b) in enumerate(zip(before.words, after.words)) if a != b]


@pytest.fixture(scope="module", params=("electra", "bert", "roberta"))
def substitution(request: pytest.FixtureRequest, tiny_masked_lm: Callable[[str], str]) -> MaskedLMContentWordSubstitution:
    return MaskedLMContentWordSubstitution(tiny_masked_lm(request.param), top_k=4, device="cpu")


def test_one_utterance_per_candidate_per_content_word(substitution: MaskedLMContentWordSubstitution) -> None:
    text = AttackedText("which rivers run through the state with the largest population")
    outputs = substitution(text)
    content = [i for i, w in enumerate(text.words) if w not in FUNCTION_WORDS]
    assert len(outputs) == 4 * len(content)
    for i in content:
        assert sum(changed(text, o) == [i] for o in outputs) == 4


def test_each_candidate_changes_one_content_word_and_excludes_the_original(substitution: MaskedLMContentWordSubstitution) -> None:
    text = AttackedText("what is the largest city in texas")
    for output in substitution(text):
        (position,) = changed(text, output)
        assert text.words[position] not in FUNCTION_WORDS
        assert output.words[position].lower() != text.words[position].lower()


def test_candidates_are_the_masked_lm_top_k(substitution: MaskedLMContentWordSubstitution) -> None:
    text = AttackedText("how long is the mississippi river")
    lm = substitution.masked_lm
    expected = lm.top_words([f"how long is the {lm.mask_token} river"], top_k=4, exclude=[["mississippi"]])[0]
    outputs = substitution(text, indices_to_modify={4})
    assert [o.words[4] for o in outputs] == [w for w, _ in expected]


def test_capitalisation_of_the_original_is_kept(tiny_masked_lm: Callable[[str], str]) -> None:
    substitution = MaskedLMContentWordSubstitution(tiny_masked_lm("bert"), top_k=3, device="cpu")
    outputs = substitution(AttackedText("Rivers in Texas"), indices_to_modify={0})
    assert outputs and all(o.words[0][0].isupper() for o in outputs)


def test_new_york_is_never_altered(substitution: MaskedLMContentWordSubstitution) -> None:
    text = AttackedText("how many people live in new york")
    outputs = substitution(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert outputs and all(o.text.endswith("new york") and changed(text, o)[0] < 5 for o in outputs)


def test_literals_survive_on_real_geoquery(substitution: MaskedLMContentWordSubstitution, geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples[:10], substitution) > 20


def test_function_words_only_gives_nothing(substitution: MaskedLMContentWordSubstitution) -> None:
    assert substitution(AttackedText("what is the")) == []


def test_is_a_deterministic_word_swap(substitution: MaskedLMContentWordSubstitution) -> None:
    text = AttackedText("what is the capital of texas")
    assert isinstance(substitution, WordSwap) and substitution.deterministic
    assert [o.text for o in substitution(text)] == [o.text for o in substitution(text)]


def test_default_model_is_the_electra_generator_and_loads_lazily() -> None:
    substitution = MaskedLMContentWordSubstitution()
    assert substitution.model_name_or_path == "google/electra-base-generator"
    assert substitution.masked_lm._model is None
    assert pickle.loads(pickle.dumps(substitution)).masked_lm._model is None


def test_bad_arguments_rejected() -> None:
    with pytest.raises(ValueError, match="top_k"):
        MaskedLMContentWordSubstitution(top_k=0)
    with pytest.raises(TypeError, match="function_words"):
        MaskedLMContentWordSubstitution(function_words="the")


def test_repr_lists_every_init_parameter() -> None:
    text = repr(MaskedLMContentWordSubstitution())
    for name in inspect.signature(MaskedLMContentWordSubstitution.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_question_over_the_word_limit_is_refused_with_its_length(substitution: MaskedLMContentWordSubstitution) -> None:
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"MaskedLMContentWordSubstitution builds candidates for every word.*300 words"):
        substitution(text)
