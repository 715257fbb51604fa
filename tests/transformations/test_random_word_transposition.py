"""RandomWordTransposition (Zhuo et al. 2023, RS) on GeoQuery questions."""

from __future__ import annotations

import inspect
import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest
from textattack.shared import AttackedText

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.linguistics.operator_words import FREE_WORDS
from textattack_semparse.transformations.random_word_transposition import RandomWordTransposition


def changed(before: AttackedText, after: AttackedText) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(before.words, after.words)) if a != b]


def test_changes_exactly_two_positions_and_keeps_the_multiset(geo_questions: list[AttackedText]) -> None:
    for text in geo_questions:
        outputs = RandomWordTransposition(seed=0)(text)
        assert outputs
        for output in outputs:
            i, j = changed(text, output)
            assert output.words[i] == text.words[j] and output.words[j] == text.words[i]
            assert Counter(output.words) == Counter(text.words)


def test_original_index_map_follows_the_swapped_words(geo_questions: list[AttackedText]) -> None:
    for text in geo_questions:
        for output in RandomWordTransposition(seed=1)(text):
            index_map = output.attack_attrs["original_index_map"]
            assert [output.words[index_map[i]] for i in range(text.num_words)] == text.words


def test_repeated_words_are_never_swapped_with_each_other() -> None:
    text = AttackedText("the the the state")
    outputs = RandomWordTransposition(seed=0)(text)
    assert sorted(o.text for o in outputs) == ["state the the the", "the state the the", "the the state the"]


def test_three_words_rotate() -> None:
    text = AttackedText("how big is alaska")
    for output in RandomWordTransposition(num_words=3, seed=0)(text):
        assert len(changed(text, output)) == 3 and Counter(output.words) == Counter(text.words)


def test_both_swapped_words_must_be_modifiable() -> None:
    # "how many" and "in" are protected too: only "people" and "live" can trade places.
    text = AttackedText("how many people live in new york")
    outputs = RandomWordTransposition(seed=0)(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert [o.text for o in outputs] == ["how many live people in new york"]


@pytest.mark.parametrize(
    "question",
    ["which is the highest peak not in alaska", "how many states border the state with the most rivers",
     "what is the population of the largest city in texas"],
)  # fmt: skip
def test_words_the_question_needs_move_only_past_free_words(question: str) -> None:
    """A protected word (question word, quantifier, negation, superlative, preposition ...) only
    trades places with an article or a form of be with no other word between them, so every word
    that is not free keeps its order."""
    text = AttackedText(question)
    protected = {"which", "how", "many", "what", "not", "in", "of", "with", "highest", "most", "largest"}
    outputs = RandomWordTransposition(seed=0)(text)
    assert outputs
    moved_protected = 0
    for output in outputs:
        if any(a != b and (a in protected or b in protected) for a, b in zip(text.words, output.words)):
            moved_protected += 1
            assert not_free(output.words) == not_free(text.words), output.text
    assert moved_protected


def not_free(words: list[str]) -> list[str]:
    return [word for word in words if word not in {"the", "a", "is", "are"}]


def test_a_pair_is_accepted_exactly_when_the_swap_keeps_the_order_of_the_words_that_are_not_free() -> None:
    """The pair rule (decided without building the swap) against the rule as the class states it,
    on every pair of 3,000 random questions over free, protected and repeated words."""
    rng = random.Random(0)
    vocabulary = ["the", "The", "is", "a", "there", "what", "What", "river", "texas", "of", "largest", "in"]
    transposition = RandomWordTransposition()
    meaningful = lambda ws: [w.lower() for w in ws if w.lower() not in FREE_WORDS]  # noqa: E731
    for _ in range(3000):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(2, 8))]
        protected = frozenset(i for i in range(len(words)) if rng.random() < 0.5)
        for first, last in itertools.combinations(range(len(words)), 2):
            swapped = [*words]
            swapped[first], swapped[last] = words[last], words[first]
            expected = words[first].lower() != words[last].lower() and (
                protected.isdisjoint((first, last)) or meaningful(swapped) == meaningful(words)
            )
            assert transposition.accepts(words, (first, last), protected=protected) == expected, (words, first, last)


def test_literals_survive_on_real_geoquery(geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples, RandomWordTransposition(seed=0)) > 50


def test_one_word_cannot_be_swapped() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        RandomWordTransposition(num_words=1)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(RandomWordTransposition())
    for name in inspect.signature(RandomWordTransposition.__init__).parameters:
        if name != "self":
            assert f"({name})" in text
