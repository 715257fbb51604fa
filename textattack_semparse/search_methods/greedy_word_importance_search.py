"""Greedy search by word importance for any word-level transformation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textattack.constraints import Constraint
from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.search_methods import GreedyWordSwapWIR

from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError


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
    already deleted are skipped. Used for the attacks built from the function-word operations
    of Huang et al. 2021 (https://aclanthology.org/2021.eacl-main.292/; the paper runs no
    search). Original to textattack-semparse.

    Deferred constraints are checked only on the candidates a step could choose (those that
    beat the current score, and every success), after the victim scored the step's
    candidates, all of them in one ``call_many``: the search picks the same texts as with
    those constraints among the attack's own (when there is no query budget), while an
    expensive check such as Sentence-BERT similarity runs on a few candidates instead of
    all. The price: the victim is also queried on candidates a deferred constraint would
    have rejected, so defer only constraints that rarely reject (all 698 function-word edits
    ``semparse-geo`` made on the first 60 GeoQuery test questions kept Sentence-BERT
    similarity above 0.8) or that cost more than a victim query.

    Args:
        wir_method (str, default ``"delete"``): As ``GreedyWordSwapWIR``: ``unk``,
            ``delete``, ``weighted-saliency``, ``gradient`` or ``random``.
        unk_token (str, default ``"[UNK]"``): Used by ``unk`` and ``weighted-saliency``.
        truncate_words_to (int | None, default None): rank only the first N words;
            ``None`` ranks every word (TextAttack 0.3.11 reads -1 as "all but the last").
        deferred_constraints (Sequence[Constraint], default ()): Constraints checked after
            scoring, on the candidates a step could choose only (see above); each compares
            against the original text or the current one as its ``compare_against_original``
            says.
    """

    def __init__(
        self,
        wir_method: str = "delete",
        unk_token: str = "[UNK]",
        truncate_words_to: int | None = None,
        deferred_constraints: Sequence[Constraint] = (),
    ) -> None:
        methods = ("unk", "delete", "weighted-saliency", "gradient", "random")
        if wir_method not in methods:
            raise ConfigurationError(f"wir_method={wir_method!r} is not one of {methods}.")
        for constraint in deferred_constraints:
            if not isinstance(constraint, Constraint):
                raise ConfigurationTypeError(
                    f"deferred_constraints takes textattack Constraint instances (pre-transformation "
                    f"constraints belong in the attack's list), got {constraint!r}."
                )
        super().__init__(wir_method=wir_method, unk_token=unk_token, truncate_words_to=truncate_words_to)
        self.deferred_constraints = tuple(deferred_constraints)

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
            results = self._admissible(results, best, original_text)
            if not results:
                continue
            top = max(results, key=lambda result: result.score)
            if top.score <= best.score:
                continue
            best = top
            if best.goal_status == GoalFunctionResultStatus.SUCCEEDED:
                return self._most_similar_success(results, best)
        return best

    def _admissible(self, results: list[Any], best: Any, original_text: Any) -> list[Any]:
        """The results a step may choose from: all of them without deferred constraints, else
        those that beat ``best`` or succeed and pass every deferred constraint (one
        ``call_many`` per constraint for the whole step)."""
        if not self.deferred_constraints:
            return results
        contenders = [
            result
            for result in results
            if result.score > best.score or result.goal_status == GoalFunctionResultStatus.SUCCEEDED
        ]
        if not any(result.score > best.score for result in contenders):
            return []
        texts = [result.attacked_text for result in contenders]
        for constraint in self.deferred_constraints:
            if not texts:
                break
            reference = original_text if constraint.compare_against_original else best.attacked_text
            texts = constraint.call_many(texts, reference)
        kept = {id(text) for text in texts}
        return [result for result in contenders if id(result.attacked_text) in kept]

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

    def extra_repr_keys(self) -> list[str]:
        return [*super().extra_repr_keys(), "deferred_constraints"]
