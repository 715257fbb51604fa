"""How a victim fared on one perturbed utterance and on its original."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class UtteranceOutcome:
    """The scored outcome of one perturbed utterance, the unit every robustness metric counts.

    Utterances whose gold query fails to execute have no outcome (they are excluded and
    counted as gold errors).

    Original to textattack-semparse.

    Args:
        perturbation (str): The perturbation that produced the utterance.
        example_id (int): The original example.
        original_correct (bool): The victim parses the original question correctly.
        perturbed_correct (bool): The victim parses the perturbed utterance correctly.
        loss_increased (bool | None, default None): The victim's loss on the gold output is
            higher for the perturbed utterance than for the original; ``None`` when the
            victim cannot compute that loss.
        weight (Fraction, default 1): What the utterance counts for: ``1 / turns`` for a turn of
            a question sequence (RobuT's SQA, each sequence counted once), else 1.
    """

    perturbation: str
    example_id: int
    original_correct: bool
    perturbed_correct: bool
    loss_increased: bool | None = None
    weight: Fraction = Fraction(1)
