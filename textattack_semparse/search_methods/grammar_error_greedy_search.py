"""Greedy word-importance search over grammatical errors (Yin et al. 2020)."""

from __future__ import annotations

from textattack_semparse.search_methods.grammar_edit_positions import GrammarEditPositions
from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch


class GrammarErrorGreedySearch(GrammarEditPositions, GreedyWordImportanceSearch):
    """Rank words by the effect of deleting them, then apply the most damaging error at each.

    The greedy worst-case attack of Yin et al. (2020): words are visited in order of
    importance (by default the goal-score change when the word is deleted); at each word
    every grammatical error anchored there is tried, the best is kept if it raises the goal
    score (TextAttack's ``GreedyWordSwapWIR`` rule; the released code's ``greedy_attack_agent``
    keeps it regardless), and the search stops at the first success. This is
    :class:`GreedyWordImportanceSearch` (which follows words across insertions and
    deletions) with :class:`GrammarEditPositions`, so errors spanning two words (word-order
    swaps, auxiliary + verb) are tried at their anchor word. Requires a
    :class:`~textattack_semparse.transformations.grammar.grammar_error_transformation.GrammarErrorTransformation`.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.

    Args:
        wir_method (str, default ``"delete"``): word-importance ranking, as ``GreedyWordSwapWIR``.
        unk_token (str, default ``"[UNK]"``): used by ``unk`` and ``weighted-saliency``.
        truncate_words_to (int | None, default None): rank only the first N words;
            ``None`` ranks every word (TextAttack 0.3.11 reads -1 as "all but the last").
    """
