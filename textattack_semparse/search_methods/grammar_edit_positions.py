"""Per-word search over grammatical errors that span several words."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textattack.shared import AttackedText

from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import (
    GRAMMAR_ERRORS_ATTR,
    GrammarErrorTransformation,
)


class GrammarEditPositions:
    """Search-method mixin: ``indices_to_modify=[i]`` asks for the grammatical errors *at* word ``i``.

    TextAttack's per-word searches (``GreedyWordSwapWIR`` and its plugin variant, the Alzantot
    genetic algorithm) ask the attack for the candidates of one word with
    ``indices_to_modify=[i]``. A grammatical-error transformation returns only edits whose word
    indices all lie in ``indices_to_modify``, so an edit spanning two words, a Worder swap
    ("most populous" -> "populous most") or a Vform change of an auxiliary and its verb ("is
    flowing" -> "flowed"), would never be proposed at any single word. With this mixin such a
    request computes every candidate the pre-transformation constraints allow (so *both* words
    of a swap are checked against ``RepeatModification`` and ``PreserveLiterals``) and keeps
    those whose new edit is anchored at a requested word (``GrammarEdit.position``: the adverb
    of a swap, the verb of a Vform edit, the word an insertion goes before, the word replaced
    or deleted). Requests without ``indices_to_modify`` are passed through unchanged.

    It works by receiving the attack's ``get_transformations`` (which ``textattack.Attack``
    assigns to every search method) through a property and answering with the filtered
    version, so the search code itself is TextAttack's. Requires a
    :class:`GrammarErrorTransformation`. Original to textattack-semparse.
    """

    @property
    def get_transformations(self) -> Callable[..., list[AttackedText]]:
        if "_attack_get_transformations" not in self.__dict__:
            raise AttributeError("get_transformations is assigned by textattack.Attack")
        return self._transformations_at_positions

    @get_transformations.setter
    def get_transformations(self, attack_get_transformations: Callable[..., list[AttackedText]]) -> None:
        self.__dict__["_attack_get_transformations"] = attack_get_transformations

    def _transformations_at_positions(
        self,
        current_text: AttackedText,
        original_text: AttackedText | None = None,
        indices_to_modify: Iterable[int] | None = None,
        **kwargs: Any,
    ) -> list[AttackedText]:
        get_all = self.__dict__["_attack_get_transformations"]
        candidates = get_all(current_text, original_text=original_text, **kwargs)
        if indices_to_modify is None:
            return candidates
        wanted = {int(index) for index in indices_to_modify}
        return [
            candidate
            for candidate in candidates
            if any(edit.position in wanted for edit in self.new_edits(candidate, current_text))
        ]

    @staticmethod
    def new_edits(candidate: AttackedText, current_text: AttackedText) -> tuple[GrammarEdit, ...]:
        """The grammatical errors ``candidate`` added to ``current_text``."""
        before = len(current_text.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ()))
        return tuple(candidate.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ()))[before:]

    def check_transformation_compatibility(self, transformation: Any) -> bool:
        return isinstance(transformation, GrammarErrorTransformation)
