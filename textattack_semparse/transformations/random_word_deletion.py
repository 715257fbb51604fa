"""Random word deletion
=========================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (RD).
"""

from __future__ import annotations

from collections.abc import Sequence

from textattack.shared import AttackedText

from textattack_semparse.transformations.derived_text import edit_words_if_placeable
from textattack_semparse.transformations.random_words_transformation import RandomWordsTransformation


class RandomWordDeletion(RandomWordsTransformation):
    """Delete ``num_words`` randomly chosen modifiable words of the question (RD).

    Every candidate has exactly ``num_words`` words fewer; the remaining words keep their
    order, and ``original_index_map`` marks the deleted ones ``-1``. A question is never
    emptied: it needs more words than ``num_words``. A word the question needs is never
    deleted (``keeps_protected_words``: question words, quantifiers, negation, numbers,
    comparatives and superlatives, relative words, prepositions, conjunctions, modals, the gold's
    predicates): people judged "where is portland" -> "portland" and "which is the highest peak
    not in alaska" -> "which the highest peak in alaska" to ask something else. The other words
    are drawn at random, as in the paper.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868 (random deletion, RD).

    Deviation: the paper deletes any two words; here the words the offline meaning judge
    protects stay, so fewer deletions change what the question asks.

    Args:
        num_words (int): Words deleted per candidate. Default ``2``.
        num_candidates (int): Candidates per input. Default ``20``.
        seed (int | None): Seed of the owned generator. Default ``None``.

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in RandomWordDeletion(num_candidates=2, seed=7)(AttackedText("what is the capital of texas"))]
        ['what the capital of', 'what the of texas']
        >>> RandomWordDeletion().word_edits("what is the capital of texas".split(), (1, 2))
        [(1, ''), (2, '')]
    """

    edits_words_only = True
    keeps_protected_words = True

    def eligible_positions(self, words: Sequence[str], indices: list[int], *, gold: str | None = None) -> list[int]:
        if len(words) <= self.num_words:
            return []
        protected = self.protected_in(words, gold)
        return [index for index in indices if index not in protected]

    def word_edits(self, words: Sequence[str], positions: tuple[int, ...]) -> list[tuple[int, str]]:
        return [(i, "") for i in positions]

    def _apply(self, current_text: AttackedText, position_sets: list[tuple[int, ...]]) -> list[AttackedText | None]:
        words = current_text.words
        return [edit_words_if_placeable(current_text, self.word_edits(words, positions)) for positions in position_sets]
