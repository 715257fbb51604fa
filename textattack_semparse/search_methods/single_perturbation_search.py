"""One application of the transformation: the perturbation protocol of the robustness studies."""

from __future__ import annotations

from typing import Any

from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.search_methods import SearchMethod


class SinglePerturbationSearch(SearchMethod):
    """Try every candidate of one application of the transformation; keep the best.

    Huang et al. (2021, "On Robustness of Neural Semantic Parsers",
    https://aclanthology.org/2021.eacl-main.292/) and Zhuo et al. (2023,
    https://arxiv.org/abs/2301.12868) perturb each utterance once per operation; a
    perturbed utterance parsed wrongly is an adversarial example (Huang et al.'s Eq. 2).
    This search does that for one example: no perturbation is stacked on another. Among successful
    candidates it returns the most similar to the original when a similarity constraint
    recorded ``similarity_score``, else the first; otherwise the highest-scoring candidate.
    Original to textattack-semparse.
    """

    def perform_search(self, initial_result: Any) -> Any:
        candidates = self.get_transformations(initial_result.attacked_text, original_text=initial_result.attacked_text)
        if not candidates:
            return initial_result
        results, _ = self.get_goal_results(candidates)
        successes = [result for result in results if result.goal_status == GoalFunctionResultStatus.SUCCEEDED]
        if successes:
            return max(
                successes,
                key=lambda result: result.attacked_text.attack_attrs.get("similarity_score", float("-inf")),
            )
        best = max(results, key=lambda result: result.score, default=initial_result)
        return best if best.score > initial_result.score else initial_result

    @property
    def is_black_box(self) -> bool:
        return True
