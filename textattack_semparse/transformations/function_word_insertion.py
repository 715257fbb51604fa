"""Function-word insertion
============================

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate

from textattack.shared import AttackedText
from textattack.transformations import WordInsertion

from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.transformations.derived_text import check_question_length
from textattack_semparse.transformations.function_word_transformation import FunctionWordTransformation
from textattack_semparse.transformations.word_edits import insert_text_after_word_index, insert_text_before_word_index

INSERTION_BARRIERS: frozenset[str] = frozenset({"question word", "quantifier", "negation", "number", "comparison"})
"""Kinds of protected words (:func:`~textattack_semparse.linguistics.operator_words.question_protection`)
no word is inserted next to: "how *the* many", "*the* six smallest", "the *also* largest" blur the
operator they sit by."""


class FunctionWordInsertion(FunctionWordTransformation, WordInsertion):
    """Insert one function word into the question.

    Each candidate inserts exactly one function word, either *before* the word at an index
    in ``indices_to_modify`` (TextAttack's ``WordInsertion`` convention) or, with
    ``insert_at_end``, *after* the last word of an input column whose last index is in
    ``indices_to_modify``. Because every insertion point is tied to a modifiable word, a
    pre-transformation constraint that protects a word span (``PreserveLiterals``,
    ``InputColumnModification``) also protects the gaps inside it. TextAttack marks both the
    inserted word and its neighbour as modified, so ``RepeatModification`` then freezes both.

    The inserted word is never an operator word (a number, quantifier, negation, question word,
    preposition ...: ``FunctionWordTransformation``), and nothing is inserted next to a question
    word, quantifier, negation, number, comparative or superlative (:data:`INSERTION_BARRIERS`):
    "what is the smallest state" may become "what is also the smallest state", never "what is the
    six smallest state" or "what is the very smallest state".

    Sampling keeps greedy search tractable: the packaged list has about 250 words, so a
    question of ``n`` words would yield ``250 * (n + 1)`` candidates per step; by default
    ten words are sampled per position from the transformation's own seeded generator.

    With ``word_list="huang-2021"`` the inserted words are those of the list in the default
    classes (articles, function adverbs) and its punctuation marks but the operator marks ("%",
    ">"); with ``max_candidates_per_position=None`` the candidates are every (insertion point,
    entry) pair.

    Huang et al. (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/ (word-level perturbation by function-word
    insertion).

    Args:
        function_words (Iterable[str] | None): Words to insert; default ``None`` = the
            packaged classes below.
        word_classes (Iterable[str] | None): Classes of the packaged list; default ``None``
            = articles and function adverbs: an inserted form of *be* ("the capital *am* of
            texas") garbles a question more than it keeps it readable.
        word_list (str | None): ``"huang-2021"`` = the list of that name (see above);
            ``None``/``"meaning-preserving"`` = the classes. Default ``None``.
        max_candidates_per_position (int | None): Words sampled per insertion point;
            ``None`` = all (then the transformation is deterministic). Default ``10``.
        insert_at_end (bool): Also insert after the last word of a column. Default ``True``.
        seed (int | None): Seed of the sampler. Default ``None``.

    Example:
        >>> from textattack.shared import AttackedText
        >>> insertion = FunctionWordInsertion(function_words=["just"], insert_at_end=False)
        >>> [t.text for t in insertion(AttackedText("rivers in texas"))]
        ['just rivers in texas', 'rivers just in texas', 'rivers in just texas']
        >>> [t.text for t in insertion(AttackedText("what is the smallest state"))]
        ['what is just the smallest state']
    """

    default_word_classes = ("articles", "function adverbs")

    def __init__(
        self,
        function_words: Iterable[str] | None = None,
        word_classes: Iterable[str] | None = None,
        max_candidates_per_position: int | None = 10,
        insert_at_end: bool = True,
        seed: int | None = None,
        word_list: str | None = None,
    ) -> None:
        super().__init__(
            function_words,
            word_classes=word_classes,
            word_list=word_list,
            max_candidates_per_position=max_candidates_per_position,
            seed=seed,
        )
        if not isinstance(insert_at_end, bool):
            raise ConfigurationTypeError(f"insert_at_end must be a bool, got {insert_at_end!r}.")
        self.insert_at_end = insert_at_end

    def _get_new_words(self, current_text: AttackedText, index: int) -> list[str]:
        return self._candidate_words()

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        check_question_length(current_text, self)
        barriers = {index for index, kind in self.protected_positions(current_text).items() if kind in INSERTION_BARRIERS}
        indices = sorted(indices_to_modify)
        before = [index for index in indices if index not in barriers and index - 1 not in barriers]
        transformed = [
            insert_text_before_word_index(current_text, index, word)
            for index in before
            for word in self._get_new_words(current_text, index)
        ]
        if self.insert_at_end:
            column_ends = {end - 1 for end in accumulate(len(words) for words in current_text.words_per_input)}
            for index in sorted(column_ends.intersection(indices) - barriers):
                transformed.extend(
                    insert_text_after_word_index(current_text, index, word) for word in self._candidate_words()
                )
        return transformed

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["max_candidates_per_position", "insert_at_end", "seed"]
