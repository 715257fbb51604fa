"""All eight grammatical error types in one transformation (Yin et al. 2020).

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationError, closest_match_hint
from textattack_semparse.transformations.grammar.error_model import ERROR_TYPES
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_art_or_det import GrammarErrorArtOrDet
from textattack_semparse.transformations.grammar.grammar_error_nn import GrammarErrorNn
from textattack_semparse.transformations.grammar.grammar_error_prep import GrammarErrorPrep
from textattack_semparse.transformations.grammar.grammar_error_sva import GrammarErrorSVA
from textattack_semparse.transformations.grammar.grammar_error_trans import GrammarErrorTrans
from textattack_semparse.transformations.grammar.grammar_error_transformation import GrammarErrorTransformation
from textattack_semparse.transformations.grammar.grammar_error_vform import GrammarErrorVform
from textattack_semparse.transformations.grammar.grammar_error_wchoice import GrammarErrorWchoice
from textattack_semparse.transformations.grammar.grammar_error_worder import GrammarErrorWorder

if TYPE_CHECKING:
    from spacy.tokens import Doc

TRANSFORMATION_OF_TYPE: dict[str, type[GrammarErrorTransformation]] = {
    "ArtOrDet": GrammarErrorArtOrDet,
    "Prep": GrammarErrorPrep,
    "Trans": GrammarErrorTrans,
    "Nn": GrammarErrorNn,
    "SVA": GrammarErrorSVA,
    "Vform": GrammarErrorVform,
    "Wchoice": GrammarErrorWchoice,
    "Worder": GrammarErrorWorder,
}


class GrammarErrorCombined(GrammarErrorTransformation):
    """The union of the grammatical error types, sampled by the model's type distribution.

    Worst case: every edit of every type in ``error_types`` (one text each; a text reached by
    two types is kept once, with the first type in ``error_types`` order). Probabilistic: each
    error draws a type from the error model's type distribution (restricted to the types
    that still apply), then a position and a replacement as in the single-type
    transformations, up to ``max(1, floor(rate * words))`` errors. See
    :class:`GrammarErrorTransformation` for the other arguments.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", https://aclanthology.org/2020.acl-main.310/.

    Args:
        error_types (tuple[str, ...], default all eight): types to use, from ``ERROR_TYPES``.
        max_synonyms (int, default 10): synonyms per word for Wchoice (paper: ten).

    Example:
        >>> from textattack.shared import AttackedText
        >>> text = AttackedText("what is the capital of texas")
        >>> sampler = GrammarErrorCombined(mode="probabilistic", seed=0, num_samples=2)
        >>> [t.text for t in sampler(text)] == [t.text for t in GrammarErrorCombined(
        ...     mode="probabilistic", seed=0, num_samples=2)(text)]
        True
        >>> len(GrammarErrorCombined(error_types=("ArtOrDet", "SVA"))(text))
        4
    """

    uses_type_distribution = True

    def __init__(
        self, *, error_types: tuple[str, ...] = ERROR_TYPES, max_synonyms: int = 10, **kwargs: Any
    ) -> None:
        if isinstance(error_types, str) or not error_types:
            raise ConfigurationError(f"error_types must be a non-empty tuple of names from {ERROR_TYPES}, got {error_types!r}.")
        for name in error_types:
            if name not in ERROR_TYPES:
                raise ConfigurationError(
                    f"Unknown error type {name!r}; expected names from {ERROR_TYPES}."
                    + closest_match_hint(str(name), ERROR_TYPES)
                )
        check_count("max_synonyms", max_synonyms)
        super().__init__(**kwargs)
        self.error_types = tuple(error_types)
        self.max_synonyms = max_synonyms
        self._components = [
            GrammarErrorWchoice(error_model=self._model, max_synonyms=max_synonyms)
            if name == "Wchoice"
            else TRANSFORMATION_OF_TYPE[name](error_model=self._model)
            for name in self.error_types
        ]

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["error_types", "max_synonyms"]

    def _edits(self, doc: Doc) -> list[GrammarEdit]:
        return [edit for component in self._components for edit in component._edits(doc)]
