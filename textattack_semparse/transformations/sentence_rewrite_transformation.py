"""Sentence rewrite transformation base
========================================

Shared part of the perturbations that rewrite the whole question with a model (back
translation, paraphrase rewriting): batching, deduplication and the protection of words
outside ``indices_to_modify``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence

from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text
from textattack.transformations import Transformation

from textattack_semparse.transformations.derived_text import question_text, question_word_count, rebuild_question
from textattack_semparse.transformations.word_edits import replace_words_at_indices


def protected_runs(count: int, modifiable: set[int]) -> list[list[int]]:
    """Maximal runs of consecutive positions in ``range(count)`` outside ``modifiable``."""
    runs: list[list[int]] = []
    for i in range(count):
        if i in modifiable:
            continue
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def locate_runs(words: Sequence[str], runs: Sequence[Sequence[str]]) -> list[int] | None:
    """Start of a non-overlapping occurrence of each run in ``words`` (case-insensitive).

    Runs are placed longest first at their leftmost free occurrence; ``None`` when one is
    missing.
    """
    lowered = [w.lower() for w in words]
    taken: set[int] = set()
    starts: list[int | None] = [None] * len(runs)
    for r in sorted(range(len(runs)), key=lambda r: -len(runs[r])):
        run = [w.lower() for w in runs[r]]
        for start in range(len(lowered) - len(run) + 1):
            span = set(range(start, start + len(run)))
            if lowered[start : start + len(run)] == run and not span & taken:
                starts[r] = start
                taken |= span
                break
        else:
            return None
    return [s for s in starts if s is not None]


def _key(words: Sequence[str]) -> str:
    return " ".join(word.lower() for word in words)


class SentenceRewriteTransformation(Transformation):
    """Rewrite the question with a model; keep rewrites that preserve the protected words.

    Subclasses implement :meth:`rewrite` (a batch of questions to their rewrites). For one
    input, the question (first input column) is rewritten and each distinct rewrite that
    differs from it (ignoring case and spacing) becomes a candidate. A rewrite touches
    every word, so ``indices_to_modify`` is honoured as follows: with no modifiable question
    word there is no candidate, and each maximal run of words outside it (a database value
    protected by ``PreserveLiterals``, e.g. "new york") must reappear in the rewrite as the
    same consecutive words, ignoring case; the run's original spelling is then restored
    ("New York" -> "new york") and ``original_index_map`` points to it. Rewrites that lose
    or split a protected run are dropped. Deterministic when :meth:`rewrite` is.

    Original to textattack-semparse.
    """

    @abstractmethod
    def rewrite(self, questions: Sequence[str]) -> list[list[str]]:
        """Per question, its rewrites (batched over ``questions``)."""

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        count = question_word_count(current_text)
        modifiable = {i for i in indices_to_modify if 0 <= i < count}
        if not modifiable:
            return []
        words = current_text.words[:count]
        runs = protected_runs(count, modifiable)
        seen = {_key(words)}
        results = []
        for rewrite in self.rewrite([question_text(current_text)])[0]:
            key = _key(words_from_text(rewrite))
            if key in seen:
                continue
            seen.add(key)
            candidate = self._candidate(current_text, words, runs, rewrite)
            if candidate is not None:
                results.append(candidate)
        return results

    @staticmethod
    def _candidate(current_text: AttackedText, words: list[str], runs: list[list[int]], rewrite: str) -> AttackedText | None:
        new_words = words_from_text(rewrite)
        if not new_words:
            return None
        starts = locate_runs(new_words, [[words[i] for i in run] for run in runs])
        if starts is None:
            return None
        origin: list[int | None] = [None] * len(new_words)
        positions, spellings = [], []
        for run, start in zip(runs, starts):
            for offset, index in enumerate(run):
                origin[start + offset] = index
                positions.append(start + offset)
                spellings.append(words[index])
        if positions:
            rewrite = replace_words_at_indices(AttackedText(rewrite), positions, spellings).text
        return rebuild_question(current_text, rewrite, origin)
