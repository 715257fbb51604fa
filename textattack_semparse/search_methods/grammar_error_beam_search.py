"""Beam search over grammatical errors, one word per step in order of importance (Yin et al. 2020)."""

from __future__ import annotations

from typing import Any

from textattack.goal_function_results import GoalFunctionResultStatus

from textattack_semparse.arguments import check_count
from textattack_semparse.search_methods.grammar_edit_positions import GrammarEditPositions
from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch


class GrammarErrorBeamSearch(GrammarEditPositions, GreedyWordImportanceSearch):
    """Beam search that walks the words in order of importance, one word per step.

    Yin et al. (2020) extend their greedy attack to a beam search (beam width 5): words are
    ranked once by importance, as in the greedy attack (by default the goal-score change when
    the word is deleted, TextAttack's ``GreedyWordSwapWIR`` ranking), and step ``t`` expands
    only the ``t``-th most important word. Every text in the beam gets each grammatical error
    anchored at that word (:class:`GrammarEditPositions`; the word is followed across earlier
    insertions and deletions through ``original_index_map`` and skipped where it was
    deleted), and the ``beam_width`` best-scoring distinct expansions form the next beam, as
    in their released code (``beam_search_attack_agent`` in ``attack_agent.py`` of
    https://github.com/uclanlp/ProbeGrammarRobustness): every step adds an error to every
    text, so after ``t`` steps each text carries ``t`` errors. A word where no text of the beam
    has an error is skipped (the code's empty operation pool). The search stops at the first
    step that yields a success (returning the best-scoring success), when the query budget is
    spent, when the error budget leaves no candidate, or after the last word.

    ``keep_unchanged=True`` is this plugin's variant (recipe ``nucle-beam-skip``): the
    expansions compete with the unchanged beam, so leaving a word correct is a choice too and
    a text reaches its error budget only with errors that raised its score. With
    ``beam_width=1`` the variant is the greedy attack (:class:`GrammarErrorGreedySearch`);
    Yin et al.'s beam search with width 1 instead keeps the best error at every word even
    when it lowers the score.

    TextAttack's ``BeamSearch`` instead expands every word of every beam text at every step,
    which is not the paper's ordered walk and costs about one query per applicable error per
    beam text per step. Requires a
    :class:`~textattack_semparse.transformations.grammar.grammar_error_transformation.GrammarErrorTransformation`.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.

    Args:
        beam_width (int, default 5): texts kept after each step (paper: 5).
        keep_unchanged (bool, default False): let the unchanged beam compete with its
            expansions (the plugin's variant); ``False`` is the released code's beam search.
        wir_method (str, default ``"delete"``): word-importance ranking, as ``GreedyWordSwapWIR``.
        unk_token (str, default ``"[UNK]"``): used by ``unk`` and ``weighted-saliency``.
        truncate_words_to (int | None, default None): rank only the first N words;
            ``None`` ranks every word (TextAttack 0.3.11 reads -1 as "all but the last").
    """

    def __init__(
        self,
        beam_width: int = 5,
        keep_unchanged: bool = False,
        wir_method: str = "delete",
        unk_token: str = "[UNK]",
        truncate_words_to: int | None = None,
    ) -> None:
        check_count("beam_width", beam_width)
        super().__init__(wir_method=wir_method, unk_token=unk_token, truncate_words_to=truncate_words_to)
        self.beam_width = beam_width
        self.keep_unchanged = bool(keep_unchanged)

    def perform_search(self, initial_result: Any) -> Any:
        original_text = initial_result.attacked_text
        index_order, search_over = self._get_index_order(original_text)
        beam = [initial_result]
        for original_index in index_order:
            if search_over:
                break
            candidates = []
            for result in beam:
                text = result.attacked_text
                current_index = int(text.attack_attrs["original_index_map"][original_index])
                if current_index < 0:
                    continue
                candidates += self.get_transformations(
                    text, original_text=original_text, indices_to_modify=[current_index]
                )
            if not candidates:
                continue
            results, search_over = self.get_goal_results(candidates)
            successes = [result for result in results if result.goal_status == GoalFunctionResultStatus.SUCCEEDED]
            if successes:
                return max(successes, key=lambda result: result.score)
            beam = self._best([*beam, *results] if self.keep_unchanged else list(results))
        return max(beam, key=lambda result: result.score)

    def _best(self, pool: list[Any]) -> list[Any]:
        """The ``beam_width`` best-scoring distinct texts of ``pool`` (earlier entries win ties)."""
        seen: set[str] = set()
        distinct = []
        for result in pool:
            if result.attacked_text.text not in seen:
                seen.add(result.attacked_text.text)
                distinct.append(result)
        return sorted(distinct, key=lambda result: -result.score)[: self.beam_width]

    @property
    def is_black_box(self) -> bool:
        return self.wir_method != "gradient"

    def extra_repr_keys(self) -> list[str]:
        return ["beam_width", "keep_unchanged", *super().extra_repr_keys()]
