"""Average-case ("dist.") attack with sampled grammatical errors (Yin et al. 2020)."""

from __future__ import annotations

from typing import Any

from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.search_methods import SearchMethod

from textattack_semparse.transformations.grammar.grammar_error_transformation import GrammarErrorTransformation


class GrammarErrorSamplingSearch(SearchMethod):
    """Query a few randomly corrupted copies of the sentence; succeed if one fools the victim.

    Yin et al. (2020) measure the average case by corrupting each test sentence with errors
    sampled from the learner-error distribution (the probabilistic transformation), not by
    searching. This search asks the transformation, which must be a
    :class:`GrammarErrorTransformation` in ``mode="probabilistic"``, for its ``num_samples``
    corrupted copies of the original sentence (each with up to ``rate`` x words errors,
    drawn by the error model; duplicates are dropped), queries them one at a time and stops
    at the first that reaches the goal; otherwise it returns the best-scoring copy. There is
    no further search: with ``num_samples=1`` the attack success rate is the share of
    correctly handled sentences that one random corruption breaks, i.e. the paper's
    corrupted-test-set evaluation; with ``k`` samples it is "any of ``k`` corruptions".
    Candidates come from TextAttack sorted by text, so "first" is in that order.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
    Original to textattack-semparse as a search method.
    """

    def perform_search(self, initial_result: Any) -> Any:
        original = initial_result.attacked_text
        best = initial_result
        for candidate in self.get_transformations(original, original_text=original):
            results, search_over = self.get_goal_results([candidate])
            if not results:
                break
            if results[0].goal_status == GoalFunctionResultStatus.SUCCEEDED:
                return results[0]
            if best is initial_result or results[0].score > best.score:
                best = results[0]
            if search_over:
                break
        return best

    def check_transformation_compatibility(self, transformation: Any) -> bool:
        return isinstance(transformation, GrammarErrorTransformation) and transformation.mode == "probabilistic"

    @property
    def is_black_box(self) -> bool:
        return True
