"""ParaphraseRewriting (Zhuo et al. 2023, RB) with a tiny random seq2seq model built in the test."""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.transformations.paraphrase_rewriting import ParaphraseRewriting
from textattack_semparse.transformations.seq2seq_generator import Seq2SeqGenerator


@pytest.fixture(scope="module")
def paraphraser(tiny_marian: Callable[[int], str]) -> ParaphraseRewriting:
    return ParaphraseRewriting(tiny_marian(7), num_candidates=6, max_new_tokens=5, device="cpu")


def test_num_candidates_beams_per_question(paraphraser: ParaphraseRewriting) -> None:
    rewrites = paraphraser.rewrite(["what is the capital of texas", "how big is alaska"])
    assert [len(row) for row in rewrites] == [6, 6]


def test_candidates_are_distinct_and_differ_from_the_question(paraphraser: ParaphraseRewriting) -> None:
    text = AttackedText("what is the capital of texas")
    outputs = paraphraser(text)
    assert 1 <= len(outputs) <= 6 and len({o.text.lower() for o in outputs}) == len(outputs)
    assert all(o.text.lower() != text.text for o in outputs)


def test_prefix_is_put_before_the_question(tiny_marian: Callable[[int], str]) -> None:
    prefixed = ParaphraseRewriting(tiny_marian(7), num_candidates=2, prefix="paraphrase: ", max_new_tokens=5, device="cpu")
    expected = Seq2SeqGenerator(tiny_marian(7), max_new_tokens=5).generate(["paraphrase: how big is alaska"], num_return_sequences=2, num_beams=2)
    assert prefixed.rewrite(["how big is alaska"]) == expected


def test_paraphrases_losing_a_literal_are_dropped(paraphraser: ParaphraseRewriting) -> None:
    text = AttackedText("how many people live in new york")
    outputs = paraphraser(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert all("new york" in o.text for o in outputs)


def test_default_model_loads_lazily_and_is_deterministic() -> None:
    paraphraser = ParaphraseRewriting()
    assert paraphraser.model_name_or_path == "tuner007/pegasus_paraphrase" and paraphraser.generator._model is None
    assert paraphraser.deterministic
    assert pickle.loads(pickle.dumps(paraphraser)).generator._model is None


@pytest.mark.parametrize(("kwargs", "error"), [({"num_candidates": 0}, ValueError), ({"prefix": None}, TypeError)])
def test_bad_arguments_rejected(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        ParaphraseRewriting(**kwargs)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(ParaphraseRewriting())
    for name in inspect.signature(ParaphraseRewriting.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
