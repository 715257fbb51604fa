"""Random word transposition
==============================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (RS).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set

import numpy as np
from textattack.shared import AttackedText

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.linguistics.operator_words import FREE_WORDS
from textattack_semparse.transformations.derived_text import edit_words_if_placeable
from textattack_semparse.transformations.random_words_transformation import RandomWordsTransformation


class RandomWordTransposition(RandomWordsTransformation):
    """Swap the places of randomly chosen modifiable words of the question (RS).

    With ``num_words=2`` (default) two words trade places; with more, the chosen words
    rotate one place to the left. Only sets of pairwise different words (ignoring case)
    are chosen, so exactly ``num_words`` positions change while the multiset of words stays
    the same. Both words of a swap must be modifiable: a protected database value is never
    moved. A word the question needs (``keeps_protected_words``: question words, quantifiers,
    negation, numbers, comparatives and superlatives, relative words, prepositions,
    conjunctions, modals, the gold's predicates) moves only when the words that are not free
    (articles, forms of *be*, existential *there* ...) keep their order, that is when it trades
    places with a free word with no other such word between them ("what is the area" -> "what
    the is area"): what it applies to stays the same. The other words are drawn at random, as
    in the paper.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868 (random swap, RS).

    Deviation: the paper swaps any two words; here the words the offline meaning judge
    protects move only past free words.

    Args:
        num_words (int): Words moved per candidate, at least 2. Default ``2``.
        num_candidates (int): Candidates per input. Default ``20``.
        seed (int | None): Seed of the owned generator. Default ``None``.

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in RandomWordTransposition(num_candidates=1, seed=5)(AttackedText("what is the capital of texas"))]
        ['what texas the capital of is']
        >>> RandomWordTransposition().word_edits("what is the capital of texas".split(), (2, 5))
        [(2, 'texas'), (5, 'the')]
    """

    def __init__(self, num_words: int = 2, num_candidates: int = 20, seed: int | None = None) -> None:
        super().__init__(num_words=num_words, num_candidates=num_candidates, seed=seed)
        if num_words < 2:
            raise ConfigurationError(f"num_words must be at least 2 to swap words, got {num_words!r}.")

    edits_words_only = True
    keeps_protected_words = True

    def accepts(self, words: Sequence[str], positions: tuple[int, ...], *, protected: Set[int] = frozenset()) -> bool:
        if len(positions) == 2:
            return _accepts_pair(words, *positions, protected=protected)
        if len({words[i].lower() for i in positions}) != len(positions):
            return False
        if protected.isdisjoint(positions):
            return True
        # Only the words from the first position to the last change places: the rest is the same in both.
        moved = dict(self.word_edits(words, positions))
        span = range(min(positions), max(positions) + 1)
        return _meaningful(words[i] for i in span) == _meaningful(moved.get(i, words[i]) for i in span)

    def word_edits(self, words: Sequence[str], positions: tuple[int, ...]) -> list[tuple[int, str]]:
        sources = positions[1:] + positions[:1]
        return [(i, words[j]) for i, j in zip(positions, sources)]

    def _apply(self, current_text: AttackedText, position_sets: list[tuple[int, ...]]) -> list[AttackedText | None]:
        return [self._rotate(current_text, positions) for positions in position_sets]

    def _rotate(self, current_text: AttackedText, positions: tuple[int, ...]) -> AttackedText | None:
        rotated = edit_words_if_placeable(current_text, self.word_edits(current_text.words, positions))
        if rotated is None:
            return None
        # TextAttack sees substitutions; the original words moved, so their index entries move too.
        destination = dict(zip(positions[1:] + positions[:1], positions))
        index_map = rotated.attack_attrs["original_index_map"]
        rotated.attack_attrs["original_index_map"] = np.array(
            [destination.get(int(i), int(i)) for i in index_map], dtype=index_map.dtype
        )
        return rotated


def _accepts_pair(words: Sequence[str], first: int, last: int, *, protected: Set[int]) -> bool:
    """:meth:`RandomWordTransposition.accepts` for two positions, decided without building the
    swapped span (most candidates of an augmentation are pairs): swapping ``a ... b`` keeps the
    order of the words that are not free when both are free, never when neither is (they differ),
    and when one is not free only if every such word between them is that word."""
    if first > last:
        first, last = last, first
    left, right = words[first].lower(), words[last].lower()
    if left == right:
        return False
    if first not in protected and last not in protected:
        return True
    left_free, right_free = left in FREE_WORDS, right in FREE_WORDS
    if left_free == right_free:
        return left_free
    mover = right if left_free else left
    return all(word == mover for word in _meaningful(words[first + 1 : last]))


def _meaningful(words: Iterable[str]) -> list[str]:
    """The words of ``words`` that are not free (articles, forms of *be*, ...), lower-cased, in order:
    their order decides what the question asks."""
    return [word for word in map(str.lower, words) if word not in FREE_WORDS]
