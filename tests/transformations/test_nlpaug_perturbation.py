"""nlpaug's augmenters as perturbations: literals intact, seeded, offline, one-line errors."""

from __future__ import annotations

import pickle
import random
import re

import numpy as np
import pytest
from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.augmentation.literal_protection import keeps_literals
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.errors import ConfigurationError, ResourceError
from textattack_semparse.runs.seeding import component_generators
from textattack_semparse.transformations.nlpaug_perturbation import NlpaugPerturbation

QUESTION = "what is the population of new york city ?"
GOLD = 'SELECT population FROM city WHERE city_name = "new york"'
EVERY_WORD = {"aug_word_p": 1.0, "aug_word_max": 100}
"""Character augmenters' arguments that put typos in every word they may pick."""


def perturb(transformation: NlpaugPerturbation, question: str = QUESTION, gold: str = GOLD) -> list[AttackedText]:
    text = AttackedText(question)
    record_gold_output(text, gold)
    return transformation(text, pre_transformation_constraints=[RepeatModification(), PreserveLiterals()])


@pytest.mark.parametrize(
    ("augmenter", "options"),
    [
        ("KeyboardAug", EVERY_WORD),
        ("OcrAug", {**EVERY_WORD, "min_char": 1}),
        ("RandomCharAug", {**EVERY_WORD, "action": "delete"}),
        ("RandomWordAug", {"action": "swap"}),
        ("RandomWordAug", {"action": "delete", "aug_p": 1.0, "aug_max": 100}),
        ("SplitAug", {"aug_p": 1.0, "aug_max": 100}),
    ],
)
def test_every_rewrite_keeps_the_literal_words_in_place(augmenter, options):
    rewrites = perturb(NlpaugPerturbation(augmenter, num_candidates=30, seed=0, **options))
    assert rewrites, f"{augmenter} gave no rewrite"
    for rewrite in rewrites:
        assert keeps_literals(QUESTION, rewrite.text, ["new york"]), rewrite.text
        index_map = rewrite.attack_attrs["original_index_map"]
        new, york = (rewrite.words.index("new"), rewrite.words.index("york"))
        assert (index_map[5], index_map[6]) == (new, york) and york == new + 1, rewrite.text


def test_a_typo_rewrite_keeps_the_punctuation_and_maps_every_word():
    [rewrite] = perturb(NlpaugPerturbation("KeyboardAug", num_candidates=1, seed=0, aug_word_max=1))
    assert rewrite.text.endswith(" ?") and "new york" in rewrite.text
    assert rewrite.attack_attrs["original_index_map"].tolist() == list(range(8))
    assert sum(a != b for a, b in zip(rewrite.words, AttackedText(QUESTION).words)) == 1


def test_a_split_word_shifts_the_index_map():
    rewrites = perturb(NlpaugPerturbation("SplitAug", num_candidates=10, seed=0, aug_max=1, min_char=5), "which state borders texas", 'SELECT x WHERE y = "texas"')
    split = [rewrite for rewrite in rewrites if "borders" not in rewrite.words]
    assert split, [rewrite.text for rewrite in rewrites]
    for rewrite in split:
        assert rewrite.attack_attrs["original_index_map"].tolist()[-1] == 4  # texas moved one word right
        assert rewrite.words[-1] == "texas"


def test_a_fully_protected_question_gets_no_rewrite():
    assert perturb(NlpaugPerturbation("KeyboardAug", seed=0, **EVERY_WORD), "new york", GOLD) == []


def test_the_same_seed_gives_the_same_rewrites_and_another_seed_others():
    def texts(seed: int) -> list[str]:
        return [rewrite.text for rewrite in perturb(NlpaugPerturbation("KeyboardAug", num_candidates=5, seed=seed))]

    assert texts(0) == texts(0)
    assert texts(0) != texts(1)


def test_reseeding_the_owned_generator_reseeds_nlpaug():
    typos = NlpaugPerturbation("KeyboardAug", num_candidates=5, seed=0)
    [generator] = component_generators(typos)
    generator.seed("0:7")
    first = [rewrite.text for rewrite in perturb(typos)]
    perturb(typos)  # advances the generator
    generator.seed("0:7")
    assert [rewrite.text for rewrite in perturb(typos)] == first


def test_the_global_generators_are_left_as_they_were():
    random.seed(11)
    np.random.seed(11)
    python_state, numpy_draw = random.getstate(), np.random.get_state()[1].copy()
    perturb(NlpaugPerturbation("RandomWordAug", num_candidates=5, seed=0, action="swap"))
    assert random.getstate() == python_state
    assert (np.random.get_state()[1] == numpy_draw).all()


def test_synonyms_come_from_the_offline_wordnet_without_a_download(monkeypatch):
    import nltk

    def no_download(*args, **kwargs):
        raise AssertionError(f"nltk.download{args} called")

    monkeypatch.setattr(nltk, "download", no_download)
    rewrites = perturb(
        NlpaugPerturbation("SynonymAug", num_candidates=10, seed=0, aug_p=1.0),
        "which rivers run through new york",
        GOLD,
    )
    assert rewrites
    assert all(rewrite.text.endswith("new york") for rewrite in rewrites)
    assert any("rivers" not in rewrite.words for rewrite in rewrites)


def test_spelling_mistakes_come_from_nlpaugs_packaged_list():
    rewrites = perturb(NlpaugPerturbation("SpellingAug", num_candidates=10, seed=0, aug_p=1.0), "which state has the largest population", 'SELECT x')
    assert rewrites
    assert all(len(rewrite.words) == 6 for rewrite in rewrites)


def test_repr_lists_the_augmenter_and_its_arguments():
    text = repr(NlpaugPerturbation("KeyboardAug", seed=4, aug_char_max=2))
    for shown in ("(augmenter):  KeyboardAug", "(options):  {'aug_char_max': 2}", "(num_candidates):  20", "(seed):  4"):
        assert shown in text


def test_a_used_perturbation_pickles_without_its_augmenter_and_works_after():
    typos = NlpaugPerturbation("KeyboardAug", num_candidates=3, seed=0)
    before = [rewrite.text for rewrite in perturb(typos)]
    copy = pickle.loads(pickle.dumps(typos))
    assert copy._nlpaug is None
    component_generators(copy)[0].seed(0)
    component_generators(typos)[0].seed(0)
    assert [rewrite.text for rewrite in perturb(copy)] == [rewrite.text for rewrite in perturb(typos)]
    assert before


@pytest.mark.parametrize(
    ("augmenter", "options", "error", "message"),
    [
        ("KeybordAug", {}, ConfigurationError, "Unknown nlpaug augmenter 'KeybordAug'. Did you mean 'KeyboardAug'?"),
        ("Augmenter", {}, ConfigurationError, "Unknown nlpaug augmenter 'Augmenter'."),
        ("KeyboardAug", {"aug_chr_max": 2}, ConfigurationError, "takes no argument 'aug_chr_max'. Did you mean 'aug_char_max'?"),
        ("KeyboardAug", {"tokenizer": "x"}, ConfigurationError, "tokenizer is set by the perturbation"),
        ("WordEmbsAug", {}, ConfigurationError, "nlpaug WordEmbsAug needs model_type: write nlpaug:WordEmbsAug:model_type=..."),
    ],
)
def test_a_bad_augmenter_or_argument_is_one_line_naming_the_fix(augmenter, options, error, message):
    with pytest.raises(error, match=re.escape(message)) as raised:
        NlpaugPerturbation(augmenter, **options)
    assert "\n" not in str(raised.value)


def test_a_value_nlpaug_refuses_is_one_line_on_first_use():
    typos = NlpaugPerturbation("KeyboardAug", lang="xx")
    with pytest.raises(ConfigurationError, match=r"nlpaug KeyboardAug refused its arguments \{'lang': 'xx'\}") as raised:
        perturb(typos)
    assert "\n" not in str(raised.value)


def test_a_missing_model_is_a_resource_error_naming_model_path(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    contextual = NlpaugPerturbation("ContextualWordEmbsAug", model_path=str(tmp_path / "bert-missing"))
    with pytest.raises(ResourceError, match=r"nlpaug ContextualWordEmbsAug cannot load its model .*model_path=<local directory>") as raised:
        perturb(contextual)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("action", ["substitute", "insert"])
def test_a_contextual_augmenter_runs_on_a_local_model_with_the_literals_kept(tmp_path, action):
    from tests.transformations.conftest import build_masked_lm

    model = build_masked_lm(tmp_path / "tiny-bert", "bert")
    contextual = NlpaugPerturbation(
        "ContextualWordEmbsAug", num_candidates=5, seed=0, model_path=model, model_type="bert", action=action, aug_p=0.5
    )
    rewrites = perturb(contextual)
    assert rewrites
    assert all(keeps_literals(QUESTION, rewrite.text, ["new york"]) for rewrite in rewrites)
    again = NlpaugPerturbation(
        "ContextualWordEmbsAug", num_candidates=5, seed=0, model_path=model, model_type="bert", action=action, aug_p=0.5
    )
    assert [rewrite.text for rewrite in perturb(again)] == [rewrite.text for rewrite in rewrites]
