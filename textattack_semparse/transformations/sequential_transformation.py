"""Sequential composition: one transformation applied to every output of another.

RobuT's mixed perturbations (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA
Robustness Against Human-Annotated Adversarial Perturbations", ACL 2023,
https://arxiv.org/abs/2306.14321) perturb the table and then the question of the same example.
TextAttack's ``CompositeTransformation`` offers the union of its parts' outputs, not their
composition; this class gives the composition as one step of a search.
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.transformations.derived_text import distinct_new_texts


class SequentialTransformation(Transformation):
    """Apply ``then`` to each output of ``first``; the outputs are those of ``then``.

    ``first`` must leave the question's words where they are (a table perturbation does), so
    the word indices the attack allows for the original (after its pre-transformation
    constraints, e.g. ``freeze_table_column``) are the ones ``then`` may modify. Each output
    reaches the original through ``first``'s output (``previous_attacked_text``), so the
    changes of both steps and the gold recorded on the original stay visible.

    Original to textattack-semparse.

    Args:
        first (Transformation): Applied to the input (e.g. ``HeaderSynonymReplacement``).
        then (Transformation): Applied to each output of ``first`` (e.g. ``FunctionWordDeletion``).

    Example:
        >>> from textattack.transformations import WordSwapRandomCharacterDeletion
        >>> step = SequentialTransformation(WordSwapRandomCharacterDeletion(), WordSwapRandomCharacterDeletion())
        >>> step.deterministic
        False
    """

    def __init__(self, first: Transformation, then: Transformation) -> None:
        for name, value in (("first", first), ("then", then)):
            if not isinstance(value, Transformation):
                raise ConfigurationTypeError(f"{name} must be a TextAttack Transformation, got {value!r}.")
        self.first = first
        self.then = then

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        indices = set(indices_to_modify)
        outputs: list[AttackedText] = []
        for intermediate in self.first(current_text, indices_to_modify=set(indices)):
            outputs.extend(self.then(intermediate, indices_to_modify=set(indices)))
        return distinct_new_texts(current_text, outputs)

    @property
    def deterministic(self) -> bool:
        return self.first.deterministic and self.then.deterministic

    def extra_repr_keys(self) -> list[str]:
        return ["first", "then"]
