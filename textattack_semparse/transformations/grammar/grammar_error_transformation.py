"""Grammatical-error transformation: worst-case and probabilistic modes.

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

import math
import os
import random
from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from textattack.shared import AttackedText
from textattack.transformations import WordSwap

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, closest_match_hint
from textattack_semparse.linguistics.spacy_pipeline import parse_words
from textattack_semparse.transformations.derived_text import check_question_length, distinct_new_texts
from textattack_semparse.transformations.grammar.error_model import CONFUSION_TYPES, NULL, ErrorModel
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.word_edits import replace_words_at_indices

if TYPE_CHECKING:
    from spacy.tokens import Doc

MODES = ("worst-case", "probabilistic")
"""``worst-case``: every applicable edit, one text each. ``probabilistic``: sampled errors."""

GRAMMAR_ERRORS_ATTR = "semparse_grammar_errors"
"""``attack_attrs`` key: tuple of the :class:`GrammarEdit` s applied so far (word indices of
the text each was applied to), for per-type analyses of successful attacks."""


def attacked_word_count(text: AttackedText, indices_to_modify: Iterable[int]) -> int:
    """Words of the input columns that hold a modifiable word: the attacked sentence of a pair
    (Yin et al.'s budget is a share of its length), every word of a one-column text.

    Example:
        >>> from collections import OrderedDict
        >>> pair = AttackedText(OrderedDict(premise="A man sleeps.", hypothesis="Nobody sleeps."))
        >>> attacked_word_count(pair, [3, 4]), attacked_word_count(AttackedText("a b c"), [])
        (2, 3)
    """
    allowed = set(indices_to_modify)
    counted = start = 0
    for words in text.words_per_input:
        if not allowed.isdisjoint(range(start, start + len(words))):
            counted += len(words)
        start += len(words)
    return counted or text.num_words


def error_budget(num_words: int, rate: float, minimum: int = 1) -> int:
    """Errors allowed in a sentence of ``num_words`` words: ``max(minimum, floor(rate * words))``.

    Rounding down keeps a sentence of ``1 / rate`` words or more within the rate (Yin et al.
    2020: "15% of tokens"); ``minimum`` gives a shorter sentence one error all the same, more
    than the rate (one of six words is 16.7%), so that short questions can be attacked at all.

    Example:
        >>> error_budget(6, 0.15), error_budget(7, 0.15), error_budget(20, 0.15), error_budget(30, 0.1)
        (1, 1, 3, 3)
    """
    # Rounded first: 0.1 * 30 is 3.0000000000000004 in floating point.
    return max(minimum, math.floor(round(num_words * rate, 9)))


def match_case(original: str, new: str) -> str:
    """Give ``new`` the capitalisation pattern of ``original`` (upper, title or as is)."""
    if len(original) > 1 and original.isupper():
        return new.upper()
    if original[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


class GrammarErrorTransformation(WordSwap):
    """Base class of the grammatical-error transformations of Yin et al. (2020).

    A subclass lists the candidate :class:`GrammarEdit` s of a parsed sentence
    (``_edits``); this class keeps those whose word indices all lie in
    ``indices_to_modify`` and then

    * ``mode="worst-case"`` (deterministic, for TextAttack's search methods) returns one text
      per candidate edit: the exhaustive set of applicable errors at each allowed position;
    * ``mode="probabilistic"`` (the paper's average case, for augmentation and the "dist."
      attack) returns ``num_samples`` texts, each with up to ``max(1, floor(rate * words))``
      errors sampled as in the paper: an error type from the model's type distribution
      (combined transformation only), a position where that type applies (uniformly), a
      replacement by the confusion weights ``w_ij``; errors never overlap.

    It subclasses ``WordSwap`` so that TextAttack's greedy-WIR and genetic searches accept
    it; insertions and deletions change the word count, which TextAttack's own
    ``AlzantotGeneticAlgorithm`` (index-wise crossover) cannot follow, so use
    ``length_preserving=True`` there (the plugin's ``GrammarErrorGeneticAlgorithm`` crosses
    over errors at original positions and takes every edit).
    The number of errors is :func:`error_budget` (``floor(rate * words)``, at least 1), as in
    ``MaxGrammarErrorRate``, so the sampled and the searched attacks share one budget.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.

    Args:
        error_model (ErrorModel | str | PathLike | None, default None): confusion sets and
            weights, or the path of their JSON; ``None`` is ``ErrorModel.default()``.
        mode (str, default "worst-case"): ``"worst-case"`` or ``"probabilistic"``.
        rate (float, default 0.15): probabilistic mode: errors per word (paper: 15% for attacks).
        num_samples (int, default 1): probabilistic mode: texts returned per call.
        seed (int | None, default None): seed of the transformation's own random generator.
        length_preserving (bool, default False): drop edits that insert or delete words.
    """

    uses_type_distribution = False

    def __init__(
        self,
        *,
        error_model: ErrorModel | str | os.PathLike[str] | None = None,
        mode: str = "worst-case",
        rate: float = 0.15,
        num_samples: int = 1,
        seed: int | None = None,
        length_preserving: bool = False,
    ) -> None:
        super().__init__()
        if mode not in MODES:
            raise ConfigurationError(f"Unknown mode {mode!r}; expected one of {MODES}.{closest_match_hint(str(mode), MODES)}")
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 < rate <= 1:
            raise ConfigurationError(f"rate must be a number in (0, 1] (errors per word), got {rate!r}.")
        check_count("num_samples", num_samples)
        check_seed(seed)
        if error_model is not None and not isinstance(error_model, (ErrorModel, str, os.PathLike)):
            raise ConfigurationTypeError(
                "error_model must be an ErrorModel, the path of its JSON file or None, "
                f"got {type(error_model).__name__}."
            )
        self.error_model = error_model
        self.mode = mode
        self.rate = rate
        self.num_samples = num_samples
        self.seed = seed
        self.length_preserving = length_preserving
        if error_model is None:
            self._model = ErrorModel.default()
        elif isinstance(error_model, ErrorModel):
            self._model = error_model
        else:
            self._model = ErrorModel.from_json(error_model)
        self._rng = random.Random(seed)

    @property
    def deterministic(self) -> bool:
        return self.mode == "worst-case"

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + [
            "error_model",
            "mode",
            "rate",
            "num_samples",
            "seed",
            "length_preserving",
        ]

    @abstractmethod
    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        """Every edit of this transformation's type(s) applicable to the parsed sentence."""

    def candidate_edits(
        self, attacked_text: AttackedText, indices_to_modify: Iterable[int] | None = None
    ) -> list[GrammarEdit]:
        """The edits applicable to ``attacked_text`` that touch only ``indices_to_modify``."""
        words = attacked_text.words
        if not words:
            return []
        allowed = set(range(len(words))) if indices_to_modify is None else set(indices_to_modify)
        return [
            edit
            for edit in self._edits(parse_words(words))
            if allowed.issuperset(edit.indices) and not (self.length_preserving and edit.changes_length)
        ]

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        check_question_length(current_text, self)
        edits = self.candidate_edits(current_text, indices_to_modify)
        if self.mode == "worst-case":
            groups = [[edit] for edit in edits]
        else:
            num_words = attacked_word_count(current_text, indices_to_modify)
            groups = [self.sample_edits(edits, num_words) for _ in range(self.num_samples)]
        return distinct_new_texts(current_text, (_apply(current_text, group) for group in groups if group))

    def _edit_weight(self, edit: GrammarEdit) -> float:
        if edit.error_type in CONFUSION_TYPES:
            return self._model.weight(edit.error_type, edit.source, edit.target)
        return 1.0

    def sample_edits(self, edits: Sequence[GrammarEdit], num_words: int) -> list[GrammarEdit]:
        """Sample non-overlapping errors from ``edits`` (probabilistic mode), using own RNG."""
        budget = error_budget(num_words, self.rate)
        weighted = [(edit, self._edit_weight(edit)) for edit in edits]
        weighted = [(edit, weight) for edit, weight in weighted if weight > 0]
        chosen: list[GrammarEdit] = []
        used: set[int] = set()
        while len(chosen) < budget:
            free = [(edit, weight) for edit, weight in weighted if used.isdisjoint(edit.indices)]
            types = sorted({edit.error_type for edit, _ in free})
            type_weights = [
                self._model.type_distribution.get(name, 0.0) if self.uses_type_distribution else 1.0
                for name in types
            ]
            if not types or sum(type_weights) <= 0:
                break
            error_type = self._rng.choices(types, weights=type_weights)[0]
            of_type = [(edit, weight) for edit, weight in free if edit.error_type == error_type]
            position = self._rng.choice(sorted({edit.position for edit, _ in of_type}))
            at_position = [(edit, weight) for edit, weight in of_type if edit.position == position]
            edit = self._rng.choices([e for e, _ in at_position], weights=[w for _, w in at_position])[0]
            chosen.append(edit)
            used.update(edit.indices)
        return chosen

    def _closed_class_edits(
        self, doc: Doc, error_type: str, sources: Iterable[int], anchors: Iterable[int]
    ) -> list[GrammarEdit]:
        """Substitute or delete the set members at ``sources``; insert members before ``anchors``."""
        members = self._model.sets[error_type]
        edits = []
        for i in sources:
            source = doc[i].lower_
            if source not in members:
                continue
            for target in self._model.targets(error_type, source):
                replacement = "" if target == NULL else match_case(doc[i].text, target)
                edits.append(GrammarEdit(error_type, (i,), (replacement,), source, target, i))
        if NULL in members:
            for i in anchors:
                word = doc[i].text
                capitalise = bool(doc[i].is_sent_start) and word[:1].isupper()
                if capitalise and doc[i].pos_ != "PROPN" and not word.isupper():
                    word = word[:1].lower() + word[1:]
                for target in self._model.targets(error_type, NULL):
                    inserted = target.capitalize() if capitalise else target
                    edits.append(GrammarEdit(error_type, (i,), (f"{inserted} {word}",), NULL, target, i))
        return edits


def _apply(current_text: AttackedText, edits: Sequence[GrammarEdit]) -> AttackedText:
    indices = [index for edit in edits for index in edit.indices]
    replacements = [text for edit in edits for text in edit.replacement]
    new_text = replace_words_at_indices(current_text, indices, replacements)
    previous = tuple(current_text.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ()))
    new_text.attack_attrs[GRAMMAR_ERRORS_ATTR] = previous + tuple(sorted(edits, key=lambda edit: edit.indices))
    return new_text
