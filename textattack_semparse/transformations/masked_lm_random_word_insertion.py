"""Masked-LM random word insertion
===================================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868 (CI).
"""

from __future__ import annotations

from textattack.shared import AttackedText

from textattack_semparse.transformations.derived_text import edit_words, question_text, question_word_count
from textattack_semparse.transformations.masked_lm_random_words_transformation import MaskedLMRandomWordsTransformation


class MaskedLMRandomWordInsertion(MaskedLMRandomWordsTransformation):
    """Insert ``num_words`` masked-LM words at random positions of the question (CI).

    A position ``i`` means *before* ``words[i]`` (TextAttack's ``WordInsertion``
    convention) and is available when ``i`` is modifiable; the end of the question is
    available when its last word is. So nothing is inserted right before a protected
    word, and a multi-word database value ("new york") is never split. Distinct positions
    are filled one after the other, right to left: a mask is inserted into the question as
    edited so far, and a word is drawn from the masked LM's ``top_k`` whole-word fillers in
    proportion to their probabilities, excluding the two neighbouring words (no "texas
    texas"). Each round is one batched masked-LM pass over all candidates. A candidate whose
    mask gets no filler is dropped, so every candidate has exactly ``num_words`` more words,
    and the input's words in their order.

    Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based
    Semantic Parsing with Large Pre-trained Language Model: An Empirical Study on Codex",
    EACL 2023, https://arxiv.org/abs/2301.12868 (context-aware insertion with
    RoBERTa, CI).

    Args:
        model_name_or_path (str): Masked LM (Hub name or local directory). Default
            ``"roberta-base"``.
        num_words (int): Words inserted per candidate. Default ``2``.
        num_candidates (int): Candidates per input. Default ``20``.
        top_k (int): Fillers an inserted word is drawn from. Default ``10``.
        batch_size (int): Masked texts per forward pass. Default ``32``.
        max_length (int): Token limit per text. Default ``128``.
        device (str | None): Torch device; ``None`` (default) = CUDA when available.
        seed (int | None): Seed of the owned generator (positions and draws). Default ``None``.
    """

    def _eligible_positions(self, current_text: AttackedText, indices: list[int]) -> list[int]:
        count = question_word_count(current_text)
        return indices + [count] if count - 1 in indices else indices

    @staticmethod
    def _insert(text: AttackedText, position: int, count: int, word: str) -> AttackedText:
        """``word`` inserted before word ``position`` of ``text``, or after its last word at ``count``."""
        if position == count:
            return text.insert_text_after_word_index(count - 1, word)
        return text.insert_text_before_word_index(position, word)

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
                word = self._rng.choices([w for w, _ in candidates], weights=[p for _, p in candidates])[0]
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
