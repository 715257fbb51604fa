"""The shared n-random-positions machinery, exercised through RandomWordDeletion."""

from __future__ import annotations

import itertools
from collections import OrderedDict

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
