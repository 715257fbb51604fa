"""Function-word deletion
===========================

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/.
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import WordDeletion

from textattack_semparse.transformations.function_word_transformation import FunctionWordTransformation


class FunctionWordDeletion(FunctionWordTransformation, WordDeletion):
    """Delete exactly one function word from the question.

    One candidate per index in ``indices_to_modify`` whose word is a function word (any
    case); content words are never deleted, and, as in TextAttack's ``WordDeletion``, a
    one-word text is left alone. Deterministic.

    Huang et al. (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/ (word-level perturbation by function-word
    deletion).

    Args:
        function_words (Iterable[str] | None): Words that may be deleted; default ``None`` =
            the packaged classes below.
        word_classes (Iterable[str] | None): Classes of the packaged list; default ``None``
            = articles, forms of be and function adverbs (see ``FunctionWordTransformation``).

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in FunctionWordDeletion()(AttackedText("what is the capital of texas"))]
        ['what the capital of texas', 'what is capital of texas']
    """

    def __init__(
        self, function_words: Iterable[str] | None = None, word_classes: Iterable[str] | None = None
    ) -> None:
        super().__init__(function_words, word_classes=word_classes)

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        words = current_text.words
        indices = [i for i in sorted(indices_to_modify) if self.is_function_word(words[i])]
        return super()._get_transformations(current_text, indices)
