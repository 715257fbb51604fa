"""Greedy search by word importance for any word-level transformation."""

from __future__ import annotations

from typing import Any

from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.search_methods import GreedyWordSwapWIR


class GreedyWordImportanceSearch(GreedyWordSwapWIR):
    """Greedy word-importance search that also drives insertions, deletions and suffixes.

    Words are ranked as in :class:`textattack.search_methods.GreedyWordSwapWIR` (by default
    by the score change when the word is deleted); then, most important first, the search
    applies the transformation at that word and keeps the best candidate if it raises the
    goal score, stopping at the first success (the most similar successful candidate, when a
    similarity constraint recorded ``similarity_score``). TextAttack's version accepts only
    swaps and deletions and keeps addressing words by their index in the original text,
    which is wrong once an earlier step inserted or deleted a word; here every step
    addresses the word at its *current* position (``original_index_map``), and words
    already deleted are skipped. Used for the function-word attacks of Huang et al. 2021
    (https://aclanthology.org/2021.eacl-main.292/). Original to textattack-semparse.

    Args:
        wir_method (str, default ``"delete"``): As ``GreedyWordSwapWIR``: ``unk``,
            ``delete``, ``weighted-saliency``, ``gradient`` or ``random``.
        unk_token (str, default ``"[UNK]"``): Used by ``unk`` and ``weighted-saliency``.
        truncate_words_to (int | None, default None): rank only the first N words;
            ``None`` ranks every word (TextAttack 0.3.11 reads -1 as "all but the last").
    """

    def __init__(self, wir_method: str = "delete", unk_token: str = "[UNK]", truncate_words_to: int | None = None) -> None:
        methods = ("unk", "delete", "weighted-saliency", "gradient", "random")
        if wir_method not in methods:
            raise ValueError(f"wir_method={wir_method!r} is not one of {methods}.")
        super().__init__(wir_method=wir_method, unk_token=unk_token, truncate_words_to=truncate_words_to)

    def perform_search(self, initial_result: Any) -> Any:
        original_text = initial_result.attacked_text
        index_order, search_over = self._get_index_order(original_text)
        best = initial_result
        for original_index in index_order:
            if search_over:
                break
            current_index = int(best.attacked_text.attack_attrs["original_index_map"][original_index])
            if current_index < 0:
                continue
            candidates = self.get_transformations(
                best.attacked_text, original_text=original_text, indices_to_modify=[current_index]
            )
            if not candidates:
                continue
            results, search_over = self.get_goal_results(candidates)
            if not results:
                continue
            top = max(results, key=lambda result: result.score)
            if top.score <= best.score:
                continue
            best = top
            if best.goal_status == GoalFunctionResultStatus.SUCCEEDED:
                return self._most_similar_success(results, best)
        return best

    @staticmethod
    def _most_similar_success(results: list[Any], fallback: Any) -> Any:
        successes = [
            result
            for result in results
            if result.goal_status == GoalFunctionResultStatus.SUCCEEDED
            and "similarity_score" in result.attacked_text.attack_attrs
        ]
        if not successes:
            return fallback
        return max(successes, key=lambda result: result.attacked_text.attack_attrs["similarity_score"])

    def check_transformation_compatibility(self, transformation: Any) -> bool:
        return True
