"""What every in-context LLM victim shares: the demonstrations chosen once, and adversarial
in-context learning (Zhuo et al. 2023, §4.2) — each demonstration followed by a perturbed copy
with the same gold."""

from __future__ import annotations

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.sql.literals import literal_words, sql_literals
from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser
from textattack_semparse.victims.llm.few_shot_selection import RandomSelector
from textattack_semparse.victims.llm.prompted_parser import adversarial_demonstrations


@pytest.fixture(scope="module")
def geo():
    return load_benchmark("geo-mini")


@pytest.fixture(scope="module")
def selected(geo):
    return RandomSelector(seed=0).select(geo.split("question", "train"), 4)


def test_each_demonstration_is_followed_by_its_perturbed_copy_with_the_same_gold(selected):
    augmented = adversarial_demonstrations(selected, "random-swap", seed=0)
    originals = [example for example in augmented if example in selected]
    assert originals == selected  # the selected ones, in order
    copies = [example for example in augmented if example not in selected]
    assert copies, "random-swap rewrites questions of several words"
    for copy in copies:
        before = augmented[augmented.index(copy) - 1]
        assert before in selected and copy.gold == before.gold and copy.question != before.question
        # random word swap: the same words in another order
        assert sorted(copy.question.split()) == sorted(before.question.split())


def test_the_perturbation_keeps_the_golds_literals(selected):
    checked = 0
    for copy in adversarial_demonstrations(selected, "typo", seed=0):
        original = next(example for example in selected if example.gold == copy.gold)
        values = [word for literal in sql_literals(original.gold) for word in literal_words(literal)]
        assert all(word in literal_words(copy.question) for word in values), (original.question, copy.question)
        checked += bool(values) and copy.question != original.question
    assert checked, "at least one rewritten demonstration names a database value"


def test_adversarial_demonstrations_are_reproducible_by_seed(selected):
    assert adversarial_demonstrations(selected, "typo", seed=3) == adversarial_demonstrations(selected, "typo", seed=3)


def test_a_victim_shows_the_augmented_demonstrations_in_every_prompt(geo, tmp_path):
    victim = CausalLMParser(
        "unused-model", benchmark=geo, shots=3, adversarial="random-swap", cache_path=tmp_path / "r.sqlite"
    )  # the demonstrations and the prompt need no model
    plain = CausalLMParser("unused-model", benchmark=geo, shots=3, cache_path=tmp_path / "r.sqlite")
    assert [example for example in victim.demonstrations if example in plain.demonstrations] == plain.demonstrations
    assert len(victim.demonstrations) > len(plain.demonstrations)
    prompt = victim.prompt("how many rivers are there", victim.demonstrations)
    assert all(f"-- {example.question}\n" in prompt for example in victim.demonstrations)


def test_an_unknown_adversarial_perturbation_fails_at_construction(geo, tmp_path):
    with pytest.raises(Exception, match="typo"):  # the registry error names the closest perturbation
        CausalLMParser("unused-model", benchmark=geo, adversarial="typos", cache_path=tmp_path / "r.sqlite")
