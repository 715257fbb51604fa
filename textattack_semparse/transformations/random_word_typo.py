"""Random word typos
=====================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (TB).
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import (
    WordSwap,
    WordSwapNeighboringCharacterSwap,
    WordSwapQWERTY,
    WordSwapRandomCharacterDeletion,
)

from textattack_semparse.transformations.derived_text import edit_words, is_single_word
from textattack_semparse.transformations.random_words_transformation import RandomWordsTransformation


def default_character_transformations() -> tuple[WordSwap, ...]:
    """TextBugger-style character bugs as TextAttack transformations enumerating their edits.

    Deletion, neighbouring swap and adjacent-key substitution, each sparing the first and
    last character of the word.
    """
    return (
        WordSwapRandomCharacterDeletion(random_one=False, skip_first_char=True, skip_last_char=True),
        WordSwapNeighboringCharacterSwap(random_one=False, skip_first_char=True, skip_last_char=True),
        WordSwapQWERTY(random_one=False, skip_first_char=True, skip_last_char=True),
    )


class RandomWordTypo(RandomWordsTransformation):
    """Put one character-level typo into each of ``num_words`` random words (TB).

    The typos come from TextAttack's character-level word swaps, asked for *all* their
    edits of a word (``random_one=False``); the owned generator then picks one kind of
    typo among those that apply to the word and one edit of that kind. Edits that TextAttack
    would not read as one word (the homoglyph ``×`` splits a word) are discarded, so
    every candidate has the same number of words and differs in exactly ``num_words`` of
    them, each by character edits. Words without any applicable typo (e.g. "a") are never
    chosen.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868 (typos in two words,
    TextBugger-style). TextBugger: Li, Ji, Du, Li and Wang (2019), "TextBugger: Generating
    Adversarial Text Against Real-world Applications", NDSS,
    https://arxiv.org/abs/1812.05271. Deviations: TextBugger inserts a *space*, which splits
    a word; the default set has an adjacent-key substitution instead, so a typo stays inside
    its word. TextBugger's visually similar characters (Sub-C, ``WordSwapHomoglyphSwap``)
    are not in the default set because TextAttack 0.3.11 cannot construct that class (its
    wheel lacks ``shared/intentional_homoglyphs.txt``); pass it in
    ``character_transformations`` where it works.

    Args:
        num_words (int): Words given a typo per candidate. Default ``2``.
        num_candidates (int): Candidates per input. Default ``20``.
        character_transformations (Iterable[WordSwap] | None): TextAttack character-level
            word swaps proposing the typos; ``None`` (default) = deletion, neighbouring swap
            and QWERTY substitution (see :func:`default_character_transformations`).
            Pass them with ``random_one=False``: with ``random_one=True`` (and for
            ``WordSwapRandomCharacterInsertion``/``Substitution``, whose letters are always
            random) TextAttack draws from the global random generator.
        seed (int | None): Seed of the owned generator. Default ``None``.
    """

    def __init__(
        self,
        num_words: int = 2,
        num_candidates: int = 20,
        character_transformations: Iterable[WordSwap] | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(num_words=num_words, num_candidates=num_candidates, seed=seed)
        if character_transformations is not None:
            character_transformations = tuple(character_transformations)
            if not character_transformations or not all(isinstance(t, WordSwap) for t in character_transformations):
                raise TypeError(
                    "character_transformations must be a non-empty iterable of TextAttack WordSwap "
                    f"transformations (e.g. WordSwapRandomCharacterDeletion(random_one=False)), got {character_transformations!r}; "
                    "pass None for the default TextBugger-style set."
                )
        self.character_transformations = character_transformations
        self._transformations = character_transformations or default_character_transformations()

    def typos(self, word: str) -> list[list[str]]:
        """Per kind of typo that applies to ``word``, its distinct one-word edits."""
        kinds = []
        for transformation in self._transformations:
            edits = dict.fromkeys(
                edit for edit in transformation._get_replacement_words(word) if edit != word and is_single_word(edit)
            )
            if edits:
                kinds.append(list(edits))
        return kinds

    def _eligible_positions(self, current_text: AttackedText, indices: list[int]) -> list[int]:
        words = current_text.words
        return [i for i in indices if self.typos(words[i])]

    def _apply(self, current_text: AttackedText, position_sets: list[tuple[int, ...]]) -> list[AttackedText | None]:
        words = current_text.words
        results: list[AttackedText | None] = []
        for positions in position_sets:
            edits = [(i, self._rng.choice(self._rng.choice(self.typos(words[i])))) for i in positions]
            results.append(edit_words(current_text, edits))
        return results

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["character_transformations"]
