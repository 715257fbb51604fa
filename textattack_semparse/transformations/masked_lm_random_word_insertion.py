"""Masked-LM random word insertion
===================================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (CI).
"""

from __future__ import annotations

from textattack.shared import AttackedText

from textattack_semparse.transformations.derived_text import edit_words, question_text, question_word_count
from textattack_semparse.transformations.masked_lm_random_words_transformation import (
    DEFAULT_MODEL,
    MaskedLMRandomWordsTransformation,
)
from textattack_semparse.transformations.word_edits import insert_text_after_word_index, insert_text_before_word_index


class MaskedLMRandomWordInsertion(MaskedLMRandomWordsTransformation):
    """Insert the masked LM's most probable word at each of ``num_words`` random positions (CI).

    Paper rule (Zhuo et al. 2023, CI, as issue 8 states it): the two inserted words are the
    masked LM's (RoBERTa's) *most probable* predictions, not samples from its top 10. Read
    here as two insertions, like the other word-level perturbations that edit two words
    (TB, RD, RS, CS): two distinct positions are drawn at random, a mask is inserted at each
    in turn, and each mask is filled with its single most probable whole word. The positions
    are random (the paper generates 20 candidates per question, so candidates differ in
    where the words go); the words are not.

    A position ``i`` means *before* ``words[i]`` (TextAttack's ``WordInsertion``
    convention) and is available when ``i`` is modifiable; the end of the question is
    available when its last word is. So nothing is inserted right before a protected
    word, and a multi-word database value ("new york") is never split. The positions are
    filled right to left, each mask inserted into the question as edited so far; a filler
    equal to one of the mask's two neighbouring words is skipped for the next most probable
    one (no "texas texas"). Each round is one batched masked-LM pass over all candidates
    (:class:`MaskedLMCandidates`). A candidate whose mask gets no whole-word filler is
    dropped, so every candidate has exactly ``num_words`` more words, and the input's words
    in their order. The positions are seeded; the words depend on the model only.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868 (context-aware insertion with
    RoBERTa, CI).

    Args:
        model_name_or_path (str): Masked LM (Hub name or local directory). Default
            ``"roberta-base"`` (the paper's RoBERTa).
        num_words (int): Words inserted per candidate. Default ``2``.
        num_candidates (int): Candidates (position sets) per input. Default ``20``.
        batch_size (int): Masked texts per forward pass. Default ``32``.
        max_length (int): Token limit per text. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = CUDA when available.
        seed (int | None): Seed of the owned generator (positions). Default ``None``.
    """

    def __init__(
        self,
        model_name_or_path: str = DEFAULT_MODEL,
        num_words: int = 2,
        num_candidates: int = 20,
        batch_size: int = 32,
        max_length: int = 128,
        device: str | None = None,
        seed: int | None = None,
    ) -> None:
        # top_k=1: each mask gets its most probable whole word.
        super().__init__(
            model_name_or_path,
            num_words=num_words,
            num_candidates=num_candidates,
            top_k=1,
            batch_size=batch_size,
            max_length=max_length,
            device=device,
            seed=seed,
        )

    def _eligible_positions(self, current_text: AttackedText, indices: list[int]) -> list[int]:
        count = question_word_count(current_text)
        return indices + [count] if count - 1 in indices else indices

    @staticmethod
    def _insert(text: AttackedText, position: int, count: int, word: str) -> AttackedText:
        """``word`` inserted before word ``position`` of ``text``, or after its last word at ``count``."""
        if position == count:
            return insert_text_after_word_index(text, count - 1, word)
        return insert_text_before_word_index(text, position, word)

    def _apply(self, current_text: AttackedText, position_sets: list[tuple[int, ...]]) -> list[AttackedText | None]:
        words = current_text.words
        count = question_word_count(current_text)
        question = AttackedText(question_text(current_text))
        states = [question] * len(position_sets)
        inserted: list[list[tuple[int, str]]] = [[] for _ in position_sets]
        failed: set[int] = set()
        mask = self.masked_lm.mask_token
        for round_index in range(self.num_words):
            live = [n for n in range(len(position_sets)) if n not in failed]
            # Right to left: insertions already made never shift a smaller position.
            targets = [position_sets[n][-1 - round_index] for n in live]
            masked = [self._insert(states[n], t, count, mask).text for n, t in zip(live, targets)]
            exclude = [states[n].words[max(t - 1, 0) : t + 1] for n, t in zip(live, targets)]
            fillers = self.masked_lm.top_words(masked, self.top_k, exclude=exclude)
            for n, target, candidates in zip(live, targets, fillers):
                if not candidates:
                    failed.add(n)
                    continue
                word = candidates[0][0]
                states[n] = self._insert(states[n], target, count, word)
                inserted[n].append((target, word))
        return [
            None if n in failed else edit_words(current_text, [self._edit(words, count, p, w) for p, w in edits])
            for n, edits in enumerate(inserted)
        ]

    @staticmethod
    def _edit(words: list[str], count: int, position: int, word: str) -> tuple[int, str]:
        """The ``edit_words`` edit inserting ``word`` at ``position``."""
        if position == count:
            return count - 1, f"{words[count - 1]} {word}"
        return position, f"{word} {words[position]}"
