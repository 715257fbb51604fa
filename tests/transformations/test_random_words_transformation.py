"""The shared n-random-positions machinery, exercised through RandomWordDeletion."""

from __future__ import annotations

import itertools
from collections import Counter, OrderedDict

import pytest
from textattack.shared import AttackedText

from textattack_semparse.transformations.random_word_deletion import RandomWordDeletion
from textattack_semparse.transformations.random_word_transposition import RandomWordTransposition

QUESTION = AttackedText("which rivers run through the state with the largest population")


def test_position_sets_are_distinct_sorted_and_of_size_n() -> None:
    sets = RandomWordDeletion(num_words=3, num_candidates=25, seed=1).sample_position_sets(QUESTION, range(10))
    assert len(sets) == 25 == len(set(sets))
    assert all(len(s) == 3 and list(s) == sorted(set(s)) for s in sets)


def test_all_sets_when_fewer_than_num_candidates() -> None:
    sets = RandomWordDeletion(num_candidates=20, seed=0).sample_position_sets(QUESTION, [1, 4, 7, 8])
    assert sorted(sets) == list(itertools.combinations([1, 4, 7, 8], 2))


def test_long_inputs_are_sampled_by_rejection() -> None:
    text = AttackedText(" ".join(f"w{i}" for i in range(60)))
    sets = RandomWordDeletion(num_words=4, num_candidates=30, seed=2).sample_position_sets(text, range(60))
    assert len(set(sets)) == 30 and all(len(set(s)) == 4 for s in sets)


def test_same_seed_same_candidates_other_seed_others() -> None:
    def run(seed: int) -> list[str]:
        return [t.text for t in RandomWordDeletion(seed=seed)(QUESTION)]

    assert run(5) == run(5) and run(5) != run(6)


def test_only_indices_to_modify_are_chosen() -> None:
    for output in RandomWordDeletion(seed=0)(QUESTION, indices_to_modify={0, 3, 9}):
        kept = [w for i, w in enumerate(QUESTION.words) if i not in {0, 3, 9}]
        assert all(w in output.words for w in kept)


def test_fewer_eligible_positions_than_num_words_gives_nothing() -> None:
    assert RandomWordDeletion(seed=0)(QUESTION, indices_to_modify={4}) == []


def test_only_the_question_column_is_edited() -> None:
    text = AttackedText(OrderedDict(question="what is the capital of texas", db_id="geo"))
    outputs = RandomWordTransposition(seed=0)(text)
    assert outputs and all(o.words[-1] == "geo" and o.text.endswith("\ngeo") for o in outputs)


def test_is_not_deterministic() -> None:
    assert not RandomWordDeletion().deterministic


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"num_words": 0}, ValueError), ({"num_candidates": -1}, ValueError), ({"num_words": True}, ValueError), ({"seed": 1.5}, TypeError)],
)
def test_bad_arguments_rejected(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        RandomWordDeletion(**kwargs)


def test_random_order_yields_every_accepted_set_once() -> None:
    words = "the the state of texas".split()
    order = list(RandomWordTransposition(seed=3).position_sets_in_random_order(words, range(5)))
    # Two "the" are never swapped, and "of" (a preposition) never passes "state" or "texas".
    accepted = [s for s in itertools.combinations(range(5), 2) if s != (0, 1) and 3 not in s]
    assert sorted(order) == accepted and len(order) == len(set(order))


def test_random_order_first_set_is_uniform() -> None:
    deletion = RandomWordDeletion(seed=0)
    words = QUESTION.words
    first = Counter(next(deletion.position_sets_in_random_order(words, range(8))) for _ in range(2800))
    assert set(first) == set(itertools.combinations(range(8), 2))
    assert all(abs(count - 100) < 40 for count in first.values()), first  # 100 expected each: 4 sigma


def test_random_order_on_long_inputs_is_distinct() -> None:
    words = [f"w{i}" for i in range(60)]
    sets = list(itertools.islice(RandomWordDeletion(num_words=4, seed=2).position_sets_in_random_order(words, range(60)), 500))
    assert len(sets) == 500 == len(set(sets)) and all(len(set(s)) == 4 and list(s) == sorted(s) for s in sets)


def test_fewer_positions_than_num_words_give_no_set() -> None:
    assert list(RandomWordDeletion(num_words=3, seed=0).position_sets_in_random_order(QUESTION.words, [1, 2])) == []


def test_word_edits_need_the_model_for_model_based_subclasses() -> None:
    from textattack_semparse.transformations.masked_lm_random_word_substitution import MaskedLMRandomWordSubstitution

    assert not MaskedLMRandomWordSubstitution.edits_words_only
    with pytest.raises(NotImplementedError, match="without its model"):
        MaskedLMRandomWordSubstitution(seed=0).word_edits(["a"], (0,))


# Found by tests/fuzz: TextAttack splits this mixed-script text into words it cannot always put back
# after an edit ("Cannot assign word at index 12"); such candidates are dropped, the others kept.
MIXED_SCRIPT = (
    "\x00Îî¡$üå\x7f\x9a\u202e🤷🏽\x16_\x11×ãlq\U00095a66À\U000f3081ما هي\U00078805\U000a5a6eG\U00087130_îà"
    "\U000bbf7anone\u202e\u200f 北京"
)


@pytest.mark.parametrize("transformation_class", [RandomWordDeletion, RandomWordTransposition])
def test_candidates_textattack_cannot_place_are_dropped_not_raised(transformation_class) -> None:
    text = AttackedText(MIXED_SCRIPT)
    candidates = transformation_class(seed=0)(text)
    assert 0 < len(candidates) < 20
    assert all(len(candidate.words) <= len(text.words) for candidate in candidates)
