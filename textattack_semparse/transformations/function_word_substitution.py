"""Function-word substitution
===============================

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/.
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import WordSwap

from textattack_semparse.transformations.derived_text import check_question_length
from textattack_semparse.transformations.function_word_transformation import FunctionWordTransformation
from textattack_semparse.transformations.word_edits import replace_word_at_index


class FunctionWordSubstitution(FunctionWordTransformation, WordSwap):
    """Replace one function word by a different function word of its class.

    A ``WordSwap``, so TextAttack's word-swap constraints (``StopwordModification``,
    ``WordEmbeddingDistance`` ...) judge it as a one-word substitution. Only words in the
    function-word list are replaced, and only by words of their own class (an article by an
    article, a form of *be* by a form of *be*); neither side is ever an operator word, a
    contraction stem or a content word, and a word the question needs (``protected_positions``)
    is never replaced. Candidates never include the original word (compared case-insensitively)
    and take its capitalisation ("The" -> "A").

    With ``word_list="huang-2021"`` the words are those of the list in the default classes
    (articles, forms of be, function adverbs), each replaced within its class; punctuation marks
    are not words in TextAttack's sense, so they neither replace nor are replaced.

    Huang et al. (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/ (word-level perturbation by function-word
    substitution).

    Args:
        function_words (Iterable[str] | None): Words that may be replaced and used as
            replacements; default ``None`` = the packaged classes below.
        word_classes (Iterable[str] | None): Classes of the packaged list; a word is replaced
            only by words of its own class. Default ``None`` = articles, forms of be
            and function adverbs (see ``FunctionWordTransformation``).
        max_candidates_per_position (int | None): Replacements sampled per word; ``None`` =
            all (then the transformation is deterministic). Default ``10``.
        seed (int | None): Seed of the sampler. Default ``None``.
        word_list (str | None): ``"huang-2021"`` = the list of that name (see above);
            ``None``/``"meaning-preserving"`` = the classes. Default ``None``.

    Example:
        >>> from textattack.shared import AttackedText
        >>> swap = FunctionWordSubstitution(function_words=["the", "a", "in"])
        >>> [t.text for t in swap(AttackedText("rivers in the south"))]
        ['rivers in a south']
        >>> [t.text for t in FunctionWordSubstitution(word_list="huang-2021")(AttackedText("how many people live in the usa"))]
        ['how many people live in a usa', 'how many people live in an usa']
    """

    def __init__(
        self,
        function_words: Iterable[str] | None = None,
        word_classes: Iterable[str] | None = None,
        max_candidates_per_position: int | None = 10,
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

    def _get_replacement_words(self, word: str) -> list[str]:
        if not self.is_function_word(word):
            return []
        candidates = self._candidate_words(exclude=word.lower(), words_only=True)
        if word[:1].isupper():
            return [candidate[:1].upper() + candidate[1:] for candidate in candidates]
        return candidates

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        check_question_length(current_text, self)
        protected = self.protected_positions(current_text)
        words = current_text.words
        return [
            replace_word_at_index(current_text, i, replacement)
            for i in sorted(set(indices_to_modify) - protected.keys())
            for replacement in self._get_replacement_words(words[i])
            if replacement != words[i]
        ]

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["max_candidates_per_position", "seed"]
