"""Random n-word transformation base
=====================================

Shared part of Zhuo et al.'s (2023) word-level perturbations, which each edit a fixed
number of randomly chosen words: typos (TB), deletion (RD), swap (RS), masked-LM
substitution (CS) and insertion (CI).
"""

from __future__ import annotations

import itertools
import math
import random
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Sequence, Set

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.attack_attrs import gold_output
from textattack_semparse.linguistics.operator_words import protected_word_positions, read_protection_ahead
from textattack_semparse.transformations.derived_text import distinct_new_texts, question_word_count

# Up to this many position sets are enumerated and sampled without replacement; beyond it
# (long questions, large ``num_words``) distinct sets are drawn by rejection.
_ENUMERATION_LIMIT = 20_000
# position_sets_in_random_order: refused or repeated draws in a row before the pool is enumerated.
_QUICK_DRAWS = 8


class RandomWordsTransformation(Transformation):
    """Pick ``num_words`` distinct positions of the question at random, edit them all.

    Each candidate comes from a different set of positions, drawn from the owned
    ``random.Random(seed)``: all sets are enumerated and ``num_candidates`` sampled without
    replacement when that is cheap, distinct sets are drawn by rejection otherwise. Only
    positions allowed by ``indices_to_modify`` within the question (first input column) are
    eligible, so a multi-word edit touches modifiable words only and pre-transformation
    constraints such as ``PreserveLiterals`` hold; fewer eligible positions than
    ``num_words`` give no candidate. Candidates identical to the input or to each other are
    dropped. Sampling, so not deterministic.

    Subclasses implement :meth:`_apply` and may narrow :meth:`eligible_positions` and
    :meth:`accepts`. Those that set ``keeps_protected_words`` are given the positions of the
    words the question needs (:meth:`protected_in`:
    :func:`~textattack_semparse.linguistics.operator_words.question_protection`, the words the
    offline meaning judge protects: question words, quantifiers, negation, numbers, comparatives
    and superlatives, relative words, prepositions, conjunctions, modals, and the words naming
    the gold output's predicates when the text carries the gold) to leave alone. Those whose
    edit depends on the words alone (no model) also give it as :meth:`word_edits` and set
    ``edits_words_only``: TextAttack-shaped augmenters can then draw positions one set at a time
    with :meth:`position_sets_in_random_order` and edit only the set they keep
    (:class:`~textattack_semparse.augmentation.word_list_augmenter.WordListAugmenter`).

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868.

    Args:
        num_words (int): Words edited per candidate. Default ``2`` (the paper's setting).
        num_candidates (int): Candidates (position sets) per input. Default ``20`` (the
            paper generates 20 and keeps the 10 most similar; see ``TopKBySimilarity``).
        seed (int | None): Seed of the owned generator. Default ``None``.
    """

    edits_words_only: bool = False
    """Whether :meth:`word_edits` gives the candidates (the edit needs the words alone)."""

    keeps_protected_words: bool = False
    """Whether the subclass leaves alone the words the question needs (:meth:`protected_in`)."""

    def __init__(self, num_words: int = 2, num_candidates: int = 20, seed: int | None = None) -> None:
        for name, value in (("num_words", num_words), ("num_candidates", num_candidates)):
            check_count(name, value)
        check_seed(seed)
        self.num_words = num_words
        self.num_candidates = num_candidates
        self.seed = seed
        self._rng = random.Random(seed)

    def protected_in(self, words: Sequence[str], gold: str | None = None) -> frozenset[int]:
        """Positions of the words the question ``words`` needs (with the predicates of ``gold``
        when known), for a subclass that ``keeps_protected_words``; none otherwise."""
        if not self.keeps_protected_words or not words:
            return frozenset()
        return protected_word_positions(words, gold=gold)

    def read_ahead(self, word_lists: Sequence[Sequence[str]]) -> None:
        """Prepare, in batches, what editing these questions (their words) reads first: the parses
        :meth:`protected_in` reads, for a subclass that ``keeps_protected_words``. The edits are
        the same; an augmentation of a file calls this on the questions it is about to edit."""
        if self.keeps_protected_words:
            read_protection_ahead(word_lists)

    def eligible_positions(self, words: Sequence[str], indices: list[int], *, gold: str | None = None) -> list[int]:
        """Positions that may be chosen in the question ``words``, given its modifiable indices
        (sorted) and, when known, its gold output."""
        return indices

    def _eligible_positions(self, current_text: AttackedText, indices: list[int]) -> list[int]:
        return self.eligible_positions(_question_words(current_text), indices, gold=gold_output(current_text))

    def accepts(self, words: Sequence[str], positions: tuple[int, ...], *, protected: Set[int] = frozenset()) -> bool:
        """Whether a set of positions (ascending) of the question ``words`` can be edited, given
        the positions of the words it needs (``protected``, :meth:`protected_in`)."""
        return True

    @abstractmethod
    def _apply(self, current_text: AttackedText, position_sets: list[tuple[int, ...]]) -> list[AttackedText | None]:
        """One edited text (or ``None`` when the edit fails) per set of positions."""

    def sample_position_sets(self, current_text: AttackedText, positions: Sequence[int]) -> list[tuple[int, ...]]:
        """Up to ``num_candidates`` distinct accepted sets of ``num_words`` positions, ascending."""
        positions = sorted(positions)
        total = math.comb(len(positions), self.num_words)
        if total == 0:
            return []
        words = current_text.words
        protected = self.protected_in(_question_words(current_text), gold_output(current_text))
        if total <= _ENUMERATION_LIMIT:
            pool = [
                s for s in itertools.combinations(positions, self.num_words) if self.accepts(words, s, protected=protected)
            ]
            return self._rng.sample(pool, min(self.num_candidates, len(pool)))
        chosen: dict[tuple[int, ...], None] = {}
        for _ in range(self.num_candidates * 50):
            if len(chosen) == self.num_candidates:
                break
            candidate = tuple(sorted(self._rng.sample(positions, self.num_words)))
            if candidate not in chosen and self.accepts(words, candidate, protected=protected):
                chosen[candidate] = None
        return list(chosen)

    def position_sets_in_random_order(
        self, words: Sequence[str], positions: Sequence[int], *, gold: str | None = None
    ) -> Iterator[tuple[int, ...]]:
        """The accepted sets of ``num_words`` of ``positions`` (ascending), without repeats, in a
        uniformly random order drawn lazily from the owned generator.

        Each set yielded is uniform among the accepted sets not yet yielded, which is the
        distribution of one candidate drawn at random from :meth:`sample_position_sets` (what
        TextAttack's ``Augmenter`` keeps), so an augmenter that needs one candidate takes the
        first set and edits only that. Sets are drawn by rejection while that is cheap; after
        ``_QUICK_DRAWS`` refused or repeated draws in a row the rest of the pool is enumerated
        (when it has at most ``_ENUMERATION_LIMIT`` sets) and shuffled, or else the
        rejection goes on for ``num_candidates × 50`` draws as :meth:`sample_position_sets` does.
        ``gold`` (when known) names the predicates :meth:`protected_in` adds.
        """
        count, size = len(positions), self.num_words
        if count < size:
            return
        # The base class accepts every set: a subclass that keeps it needs no protected positions to be checked.
        checked = type(self).accepts is not RandomWordsTransformation.accepts
        protected = self.protected_in(words, gold) if checked else frozenset()
        yielded: set[tuple[int, ...]] = set()
        misses = 0
        while misses < _QUICK_DRAWS:
            if size == 2:
                first = self._rng.randrange(count)
                second = self._rng.randrange(count - 1)
                second += second >= first
                pair = (positions[first], positions[second])
                candidate: tuple[int, ...] = pair if pair[0] < pair[1] else (pair[1], pair[0])
            else:
                candidate = tuple(sorted(self._rng.sample(positions, size)))
            if candidate in yielded or (checked and not self.accepts(words, candidate, protected=protected)):
                misses += 1
                continue
            misses = 0
            yielded.add(candidate)
            yield candidate
        if math.comb(count, size) <= _ENUMERATION_LIMIT:
            rest = [
                s
                for s in itertools.combinations(sorted(positions), size)
                if s not in yielded and self.accepts(words, s, protected=protected)
            ]
            self._rng.shuffle(rest)
            yield from rest
            return
        for _ in range(self.num_candidates * 50):
            candidate = tuple(sorted(self._rng.sample(positions, size)))
            if candidate not in yielded and self.accepts(words, candidate, protected=protected):
                yielded.add(candidate)
                yield candidate

    def word_edits(self, words: Sequence[str], positions: tuple[int, ...]) -> list[tuple[int, str]]:
        """The candidate for ``positions`` as ``(index, replacement)`` edits of the question
        ``words`` in TextAttack's convention (``""`` deletes), for subclasses that set
        ``edits_words_only``.

        Raises:
            NotImplementedError: The edit needs more than the words (e.g. a masked LM).
        """
        raise NotImplementedError(f"{type(self).__name__} does not edit words without its model; use its _apply.")

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        count = question_word_count(current_text)
        indices = sorted(i for i in set(indices_to_modify) if 0 <= i < count)
        position_sets = self.sample_position_sets(current_text, self._eligible_positions(current_text, indices))
        if not position_sets:
            return []
        return distinct_new_texts(current_text, self._apply(current_text, position_sets))

    @property
    def deterministic(self) -> bool:
        return False

    def extra_repr_keys(self) -> list[str]:
        return ["num_words", "num_candidates", "seed"] + super().extra_repr_keys()


def _question_words(current_text: AttackedText) -> list[str]:
    """The words of the question (the first input column)."""
    return current_text.words[: question_word_count(current_text)]
