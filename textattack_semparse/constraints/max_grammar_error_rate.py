"""Max grammar error rate
==========================

Bound the number of simulated grammatical errors by a share of the sentence's words.
"""

from __future__ import annotations

from textattack.constraints import Constraint
from textattack.shared import AttackedText

from textattack_semparse.arguments import check_count
from textattack_semparse.constraints.attacked_sentence import COLUMN_LAYOUTS, AttackedSentence
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR, error_budget


class MaxGrammarErrorRate(Constraint):
    """At most ``max(min_threshold, floor(max_rate * words))`` grammatical errors per sentence.

    Yin et al. (2020) bound their attacks by the number of *errors* (15% of the tokens). The
    errors are the :class:`~textattack_semparse.transformations.grammar.grammar_edit.GrammarEdit`
    s a grammatical-error transformation recorded in ``attack_attrs["semparse_grammar_errors"]``,
    counted against the word count of the original sentence. TextAttack's
    ``MaxModificationRate`` counts modified *word indices* instead, which does not fit these
    edits: a deletion leaves no modified index (so deletions would be unlimited), an inserted
    article counts as two modified words (the article and the word it precedes) and a
    word-order swap as two. The budget is :func:`error_budget` (rounded down, at least
    ``min_threshold``), so no sentence that can take one error gets more than 15%. Checked after the transformation, so it also bounds the
    children of a genetic crossover, which are built without the transformation. Texts
    that record no errors (other transformations) count zero.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.

    Only the words of the attacked sentence count (:class:`AttackedSentence` with ``sentence``:
    the whole text of a one-column input, one sentence of a pair; every word of a pair layout
    that names no sentence), as Yin et al.'s released code sets the budget from the length of
    the attacked sentence.

    Args:
        max_rate (float, default 0.15): errors per word of the original sentence (paper: 15%).
        min_threshold (int, default 1): errors always allowed, however short the sentence.
        sentence (str | None, default None): the attacked sentence of a pair, ``"first"``,
            ``"second"`` or ``None`` (read from the input columns, see :class:`AttackedSentence`).

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined
        >>> original = AttackedText("what is the capital of texas")
        >>> one_error = GrammarErrorCombined(error_types=("Nn",))(original)[0]
        >>> MaxGrammarErrorRate(max_rate=0.15)._check_constraint(one_error, original)
        True
    """

    def __init__(
        self, max_rate: float = 0.15, min_threshold: int = 1, sentence: str | None = None
    ) -> None:
        if isinstance(max_rate, bool) or not isinstance(max_rate, (int, float)) or not 0 <= max_rate <= 1:
            raise ConfigurationError(f"max_rate must be a number in [0, 1] (errors per word), got {max_rate!r}.")
        check_count("min_threshold", min_threshold, minimum=0)
        super().__init__(compare_against_original=True)
        self.max_rate = float(max_rate)
        self.min_threshold = min_threshold
        self.sentence = sentence
        self._attacked_sentence = AttackedSentence(sentence)

    def budget(self, num_words: int) -> int:
        """Errors allowed in an original sentence of ``num_words`` words.

        Example:
            >>> rate = MaxGrammarErrorRate(max_rate=0.15)
            >>> rate.budget(6), rate.budget(7), rate.budget(20), rate.budget(0)
            (1, 1, 3, 1)
        """
        return error_budget(num_words, self.max_rate, self.min_threshold)

    def counted_words(self, original: AttackedText) -> int:
        """Words of ``original`` the budget is a share of: those of the attacked sentence (all
        words of a column layout that names no sentence when ``sentence`` is ``None``)."""
        labels = tuple(original.column_labels)
        if self.sentence is None and len(labels) > 1 and labels not in COLUMN_LAYOUTS:
            return original.num_words
        return len(self._attacked_sentence._get_modifiable_indices(original))

    def text_budget(self, original: AttackedText) -> int:
        """Errors allowed in the original text ``original``."""
        return self.budget(self.counted_words(original))

    def _check_constraint(self, transformed_text: AttackedText, reference_text: AttackedText) -> bool:
        errors = transformed_text.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ())
        return len(errors) <= self.text_budget(reference_text)

    def extra_repr_keys(self) -> list[str]:
        return ["max_rate", "min_threshold", "sentence"] + super().extra_repr_keys()
