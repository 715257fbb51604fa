"""Function-word deletion
===========================

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import WordDeletion

from textattack_semparse.linguistics.function_words import PUNCTUATION
from textattack_semparse.transformations.derived_text import check_question_length
from textattack_semparse.transformations.function_word_transformation import FunctionWordTransformation
from textattack_semparse.transformations.word_edits import delete_word_at_index


class FunctionWordDeletion(FunctionWordTransformation, WordDeletion):
    """Delete exactly one function word from the question.

    One candidate per index in ``indices_to_modify`` whose word is a function word (any
    case) and not one the question needs (``protected_positions``: question words, "many"
    after "how", quantifiers, negation, numbers, comparatives and superlatives, relative words,
    prepositions, conjunctions, modals, the gold's predicates); content words are never
    deleted, and, as in TextAttack's ``WordDeletion``, a one-word text is left alone.
    Deterministic.

    Huang et al. (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/ (word-level perturbation by function-word
    deletion).

    With ``word_list="huang-2021"`` the deletable words are those of the list in the default
    classes (articles, forms of be, function adverbs) and its punctuation marks ("?") but the
    operator marks ("%", "$", ">"). TextAttack's words never contain punctuation, so a
    punctuation mark of the list (or of ``function_words``) between two words, or before the
    first or after the last word of a column, is deleted on its own (one candidate per mark, a
    stand-alone mark takes one adjacent space with it) unless both neighbouring words are
    outside ``indices_to_modify`` (inside a protected span such as a literal) or no word of its
    column is modifiable.

    Args:
        function_words (Iterable[str] | None): Words that may be deleted; default ``None`` =
            the packaged classes below.
        word_classes (Iterable[str] | None): Classes of the packaged list; default ``None``
            = articles, forms of be and function adverbs (see ``FunctionWordTransformation``).
        word_list (str | None): ``"huang-2021"`` = the list of that name (see above);
            ``None``/``"meaning-preserving"`` = the classes. Default ``None``.

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in FunctionWordDeletion()(AttackedText("what is the capital of texas"))]
        ['what the capital of texas', 'what is capital of texas']
        >>> [t.text for t in FunctionWordDeletion(word_list="huang-2021")(AttackedText("where is the most populous city ?"))]
        ['where the most populous city ?', 'where is most populous city ?', 'where is the most populous city']
    """

    def __init__(
        self,
        function_words: Iterable[str] | None = None,
        word_classes: Iterable[str] | None = None,
        word_list: str | None = None,
    ) -> None:
        super().__init__(function_words, word_classes=word_classes, word_list=word_list)
        self._punctuation = frozenset(word for word in self._vocabulary if len(word) == 1 and word in PUNCTUATION)

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        check_question_length(current_text, self)
        indices = sorted(indices_to_modify)
        words = current_text.words
        protected = self.protected_positions(current_text)
        deletable = [i for i in indices if self.is_function_word(words[i]) and i not in protected]
        transformed = [delete_word_at_index(current_text, i) for i in deletable] if current_text.num_words > 1 else []
        if self._punctuation:
            transformed.extend(self._punctuation_deletions(current_text, set(indices)))
        return transformed

    def _punctuation_deletions(self, current_text: AttackedText, modifiable: set[int]) -> list[AttackedText]:
        """One candidate per deletable punctuation mark between (or around) the words."""
        outputs = []
        offset = 0
        for label, column_words in zip(current_text.column_labels, current_text.words_per_input):
            text = current_text._text_input[label]
            word_indices = list(range(offset, offset + len(column_words)))
            offset += len(column_words)
            if not modifiable.intersection(word_indices):
                continue
            spans = []
            position = 0
            for word in column_words:
                start = text.find(word, position)
                if start < 0:  # cannot locate the words: leave this column's punctuation alone
                    break
                spans.append((start, start + len(word)))
                position = start + len(word)
            else:
                bounds = [0] + [end for _, end in spans], [start for start, _ in spans] + [len(text)]
                for gap, (gap_start, gap_end) in enumerate(zip(*bounds)):
                    inside = 0 < gap < len(spans)
                    if inside and not {word_indices[gap - 1], word_indices[gap]} & modifiable:
                        continue
                    for p in range(gap_start, gap_end):
                        if text[p] in self._punctuation:
                            outputs.append(self._without_char(current_text, label, text, p))
        return outputs

    @staticmethod
    def _without_char(current_text: AttackedText, label: str, text: str, p: int) -> AttackedText:
        before, after = text[:p], text[p + 1 :]
        if (not before or before[-1].isspace()) and (not after or after[0].isspace()):
            # A stand-alone mark: drop one adjacent space, too ("texas ?" -> "texas").
            before, after = (before[:-1], after) if before else (before, after[1:])
        columns = OrderedDict(current_text._text_input)
        columns[label] = before + after
        attrs = {
            "newly_modified_indices": set(),
            "previous_attacked_text": current_text,
            "modified_indices": set(current_text.attack_attrs["modified_indices"]),
            "original_index_map": current_text.attack_attrs["original_index_map"].copy(),
        }
        if "label_names" in current_text.attack_attrs:
            attrs["label_names"] = current_text.attack_attrs["label_names"]
        return AttackedText(columns, attack_attrs=attrs)
