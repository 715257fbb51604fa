"""Function-word transformation base
======================================

Shared part of the function-word perturbations (insertion, deletion, substitution) of Huang et
al. (2021), "On Robustness of Neural Semantic Parsers"
(https://aclanthology.org/2021.eacl-main.292/). Huang et al. did not have these rewrites checked
by people ("perturbation operations related to function words rarely alter meanings"); a
perturbation here proposes only rewrites
that leave the words deciding the question alone
(:func:`~textattack_semparse.linguistics.operator_words.question_protection`, the words the
offline meaning judge also protects).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.arguments import check_seed
from textattack_semparse.attack_attrs import gold_output
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, closest_match_hint
from textattack_semparse.linguistics.function_words import (
    MEANING_PRESERVING_CLASSES,
    PUNCTUATION,
    WORD_LISTS,
    load_function_word_classes,
    load_word_list,
)
from textattack_semparse.linguistics.operator_words import OPERATOR_MARKS, is_operator_word, question_protection
from textattack_semparse.transformations.derived_text import question_word_count


class FunctionWordTransformation(Transformation):
    """Base of the function-word transformations: the word list, the words they keep, and the
    owned sampler.

    Subclasses combine it with a TextAttack base (``WordInsertion``, ``WordDeletion``,
    ``WordSwap``) placed after it in the bases, so ``isinstance`` checks in TextAttack's
    validators still see a word swap, insertion or deletion.

    Whatever the word list, a function-word transformation never inserts, deletes or replaces a
    word of an operator class (question words, quantifiers, negation, numbers, relative words,
    prepositions, conjunctions, modals: :func:`~textattack_semparse.linguistics.operator_words.is_operator_word`),
    never deletes or replaces a word the question needs (those words, "many"/"much" after "how",
    comparatives and superlatives, and the words naming the gold output's predicates:
    :meth:`protected_positions`), and never puts a punctuation mark that reads as an operator
    (:data:`~textattack_semparse.linguistics.operator_words.OPERATOR_MARKS`) in or out. A
    substitute always comes from the replaced word's own class: "how *many* states" never becomes
    "how *mightn't* states", nor "a state *that* borders" "a state *formerly* borders".

    The default draws on the classes in :data:`MEANING_PRESERVING_CLASSES` (articles, forms of be,
    function adverbs), or the subclass's narrower ``default_word_classes``. ``word_list="huang-2021"``
    takes the words of the stop-word list of that name (NLTK's English stop words, scikit-learn's
    ``ENGLISH_STOP_WORDS``, contraction stems and the ASCII punctuation marks; see
    :func:`~textattack_semparse.linguistics.function_words.load_word_list`) that belong to those
    classes, grouped by class, plus its punctuation marks: the list's content words ("show",
    "last", "whole", "fire"), numbers ("six"), quantifiers and contraction stems change a question
    when they come or go. TextAttack's words never contain punctuation, so a punctuation mark is
    never put in, or replaced in, a word's slot (insertion puts it between words, deletion removes
    it from between words).

    Args:
        function_words (Iterable[str] | None): An explicit word list (one class), instead of
            ``word_classes``; its operator words are left out. Default ``None``.
        word_classes (Iterable[str] | None): Classes of the packaged list to use (their operator
            words left out); default ``None`` = the subclass's ``default_word_classes``
            (:data:`MEANING_PRESERVING_CLASSES` unless it narrows them).
        word_list (str | None): A named list of
            :data:`~textattack_semparse.linguistics.function_words.WORD_LISTS`:
            ``"meaning-preserving"`` (the classes above) or ``"huang-2021"`` (see above).
            Default ``None`` = ``"meaning-preserving"``. Not with ``function_words`` or a
            ``word_classes`` for ``"huang-2021"``.
        max_candidates_per_position (int | None): For subclasses that propose new words: how
            many words to sample at each position; ``None`` = every function word. Default
            ``None``.
        seed (int | None): Seed of the transformation's own ``random.Random``. Default ``None``.
    """

    default_word_classes: tuple[str, ...] = MEANING_PRESERVING_CLASSES

    def __init__(
        self,
        function_words: Iterable[str] | None = None,
        *,
        word_classes: Iterable[str] | None = None,
        word_list: str | None = None,
        max_candidates_per_position: int | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        if function_words is not None and word_classes is not None:
            raise ConfigurationError("Pass function_words or word_classes, not both.")
        requested_list = word_list
        if word_list is not None:
            if not isinstance(word_list, str):
                raise ConfigurationTypeError(f"word_list must be a list name (str) or None, got {word_list!r}.")
            if word_list not in WORD_LISTS:
                raise ConfigurationError(
                    f"Unknown word_list {word_list!r}.{closest_match_hint(word_list, WORD_LISTS)} "
                    f"Lists: {', '.join(WORD_LISTS)}."
                )
            if word_list == "meaning-preserving":
                word_list = None
            elif function_words is not None or word_classes is not None:
                raise ConfigurationError(f"Pass word_list={word_list!r} or function_words/word_classes, not both.")
        if isinstance(function_words, str):
            raise ConfigurationTypeError(
                f"function_words must be an iterable of words, not the string {function_words!r}; "
                "wrap a single word in a list."
            )
        if function_words is not None:
            function_words = tuple(sorted({str(word).strip().lower() for word in function_words} - {""}))
            if not function_words:
                raise ConfigurationError("function_words is empty; pass at least one word or None for the packaged list.")
        if max_candidates_per_position is not None and (
            isinstance(max_candidates_per_position, bool)
            or not isinstance(max_candidates_per_position, int)
            or max_candidates_per_position < 1
        ):
            raise ConfigurationError(
                f"max_candidates_per_position must be a positive int or None (all words), "
                f"got {max_candidates_per_position!r}."
            )
        check_seed(seed)
        self.function_words = function_words
        self.word_classes = None if word_classes is None else tuple(word_classes)
        self.word_list = requested_list
        self.max_candidates_per_position = max_candidates_per_position
        self.seed = seed
        # Sorted, so a seeded sample does not depend on the process's string hashing.
        if word_list is not None:
            groups = self._list_groups(word_list, self.default_word_classes)
        elif function_words:
            groups = (function_words,)
        else:
            groups = self._class_groups(self.word_classes or self.default_word_classes)
        self._groups: tuple[tuple[str, ...], ...] = tuple(
            kept for group in groups if (kept := tuple(word for word in group if _may_change(word)))
        )
        if not self._groups:
            raise ConfigurationError(
                f"No word of {list(function_words or self.word_classes or ())} may be inserted, deleted or "
                "substituted: question words, quantifiers, negation, numbers, relative words, prepositions, "
                "conjunctions and modals decide what a question asks."
            )
        self._vocabulary: tuple[str, ...] = tuple(sorted({word for group in self._groups for word in group}))
        self._vocabulary_set = frozenset(self._vocabulary)
        self._rng = random.Random(seed)

    @staticmethod
    def _class_groups(word_classes: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        classes = load_function_word_classes()
        for name in word_classes:
            if name not in classes:
                raise ConfigurationError(
                    f"Unknown function-word class {name!r}.{closest_match_hint(name, classes)} "
                    f"Classes: {', '.join(classes)}."
                )
        return tuple(tuple(sorted(classes[name])) for name in word_classes)

    @classmethod
    def _list_groups(cls, word_list: str, word_classes: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        """The words of the flat list ``word_list`` in each of ``word_classes``, then its
        punctuation marks (one group each)."""
        listed = frozenset(load_word_list(word_list))
        by_class = tuple(tuple(word for word in group if word in listed) for group in cls._class_groups(word_classes))
        return (*by_class, tuple(sorted(listed & PUNCTUATION)))

    def is_function_word(self, word: str) -> bool:
        """Whether ``word`` (any case) is one of this transformation's function words."""
        return word.lower() in self._vocabulary_set

    def protected_positions(self, current_text: AttackedText) -> dict[int, str]:
        """Position -> why the question's word there must stay as it is
        (:func:`~textattack_semparse.linguistics.operator_words.question_protection`, with the
        gold output recorded on the text naming its predicates)."""
        words = current_text.words[: question_word_count(current_text)]
        return question_protection(words, gold=gold_output(current_text))

    def _candidate_words(self, exclude: str | None = None, *, words_only: bool = False) -> list[str]:
        """Function words to propose at one position, sampled when a limit is set.

        With ``exclude`` (the word being replaced), only words of its own class(es).
        ``words_only`` leaves out punctuation marks (which cannot fill a word's slot).

        A sample keeps the generator's order, not the alphabet's: search methods break score
        ties by candidate order, and sorting would favour words starting with "a".
        """
        groups = [group for group in self._groups if exclude in group] if exclude else [self._vocabulary]
        pool = sorted({word for group in groups for word in group} - {exclude})
        if words_only:
            pool = [word for word in pool if word not in PUNCTUATION]
        limit = self.max_candidates_per_position
        if limit is None or limit >= len(pool):
            return pool
        return self._rng.sample(pool, limit)

    @property
    def deterministic(self) -> bool:
        limit = self.max_candidates_per_position
        return limit is None or limit >= len(self._vocabulary)

    def extra_repr_keys(self) -> list[str]:
        return ["function_words", "word_classes", "word_list"] + super().extra_repr_keys()


def _may_change(word: str) -> bool:
    """Whether a function-word transformation may insert, delete or substitute ``word``: not an
    operator word, nor a punctuation mark that reads as an operator."""
    return not is_operator_word(word) and word not in OPERATOR_MARKS
