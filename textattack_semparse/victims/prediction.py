"""A victim's output as the goal functions and evaluations see it."""

from __future__ import annotations


class Prediction(str):
    """A predicted SQL query or logical form, with the victim's loss on the gold or its failure.

    It *is* the predicted string, so TextAttack displays and logs it unchanged. ``loss`` is
    the victim's loss on the gold output for the same input (``None`` when the victim cannot
    compute it). ``error`` says why the victim produced no prediction (the text is then
    ``""``): such a *victim error* is not a wrong answer, and every evaluation leaves it out
    and reports it (:class:`~textattack_semparse.scoring.outcome.Outcome`). Original to
    textattack-semparse.

    Example:
        >>> p = Prediction("SELECT 1", loss=0.25)
        >>> p, p.loss, p.error
        ('SELECT 1', 0.25, None)
        >>> Prediction.failure(ValueError("no template")).error
        'ValueError: no template'
    """

    loss: float | None
    error: str | None

    def __new__(cls, text: str, loss: float | None = None, error: str | None = None) -> Prediction:
        prediction = super().__new__(cls, text)
        prediction.loss = loss
        prediction.error = error
        return prediction

    @classmethod
    def failure(cls, error: BaseException) -> Prediction:
        """The empty prediction of an input the victim raised ``error`` on."""
        return cls("", error=f"{type(error).__name__}: {error}")

    def with_loss(self, loss: float) -> Prediction:
        """The same prediction carrying ``loss``."""
        return Prediction(str(self), loss, self.error)

    def __reduce__(self) -> tuple[type, tuple[str, float | None, str | None]]:
        return (type(self), (str(self), self.loss, self.error))
