"""How one prediction came out: correct, wrong, or not judged (and why)."""

from __future__ import annotations

import enum


class Outcome(enum.Enum):
    """The verdict on one prediction.

    ``GOLD_ERROR`` (the gold output cannot be evaluated, e.g. its query fails) and
    ``VICTIM_ERROR`` (the victim raised instead of predicting) are not answers: every
    evaluation leaves them out of its accuracies, counts them and reports them.
    Original to textattack-semparse.

    Example:
        >>> Outcome.VICTIM_ERROR.left_out, Outcome.WRONG.left_out
        (True, False)
    """

    CORRECT = "correct"
    WRONG = "wrong"
    GOLD_ERROR = "gold error"
    VICTIM_ERROR = "victim error"

    @property
    def left_out(self) -> bool:
        """Whether the example is excluded from accuracies."""
        return self in (Outcome.GOLD_ERROR, Outcome.VICTIM_ERROR)

    @property
    def marker(self) -> str:
        """How a left-out prediction is displayed in TextAttack's logs (``[gold error] ...``)."""
        return f"[{self.value}]"


def left_out_outcome(displayed_output: str) -> Outcome | None:
    """The left-out outcome an output displayed in an attack log stands for, else ``None``.

    Example:
        >>> left_out_outcome("[victim error] ValueError: boom"), left_out_outcome("SELECT 1")
        (<Outcome.VICTIM_ERROR: 'victim error'>, None)
    """
    text = str(displayed_output)
    return next((outcome for outcome in Outcome if outcome.left_out and text.startswith(outcome.marker)), None)
