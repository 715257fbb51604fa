"""A victim's output as the goal functions see it."""

from __future__ import annotations


class Prediction(str):
    """A predicted SQL query or logical form that may carry the victim's loss on the gold.

    It *is* the predicted string, so TextAttack displays and logs it unchanged; ``loss``
    is the victim's loss on the gold output for the same input (``None`` when the victim
    cannot compute it). Original to textattack-semparse.

    Example:
        >>> p = Prediction("SELECT 1", loss=0.25)
        >>> p, p.loss
        ('SELECT 1', 0.25)
    """

    loss: float | None

    def __new__(cls, text: str, loss: float | None = None) -> Prediction:
        prediction = super().__new__(cls, text)
        prediction.loss = loss
        return prediction

    def __reduce__(self) -> tuple[type, tuple[str, float | None]]:
        return (type(self), (str(self), self.loss))
