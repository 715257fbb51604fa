"""Shared machinery of the semantic-parsing goal functions."""

from __future__ import annotations

import logging
from abc import abstractmethod
from typing import Any

from textattack.goal_functions.text import TextToTextGoalFunction
from textattack.shared import validators

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.errors import DatasetError
from textattack_semparse.goal_functions.prediction import Prediction

logger = logging.getLogger(__name__)

# Compatibility is declared, not guessed: these goal functions attack text-to-meaning-representation
# victims, i.e. the plugin's SemanticParser wrappers and Hugging Face encoder-decoders.
COMPATIBLE_MODELS = (r"^textattack_semparse\.", r"^transformers\.models\..*ForConditionalGeneration$")

MATCH_SCORE_CEILING = 0.999
"""Scores of outputs that still match stay below this; every mismatch scores at least 1."""


class SemanticParsingGoalFunction(TextToTextGoalFunction):
    """Untargeted attack on a semantic parser: succeed when the output stops matching the gold.

    Examples the victim already gets wrong are skipped, which is how robust accuracy is
    defined (Huang et al. 2021, https://aclanthology.org/2021.eacl-main.292/); so are
    examples whose gold output cannot be evaluated (a gold SQL query that fails), with a
    warning naming it, so one faulty gold query never stops an attack run. The search is
    guided by a graded score: every mismatch scores ``1 + distance``; a matching output scores
    ``loss / (1 + loss)`` from the victim's loss on the gold output when the victim provides
    it (``supports_loss``), otherwise its normalised token distance to the gold, below
    ``MATCH_SCORE_CEILING``. Subclasses define :meth:`_match` and :meth:`_distance`.

    Args:
        model_wrapper: The victim (a ``SemanticParser`` or any wrapper returning strings).
        use_gold_loss (bool, default True): Guide search with the victim's loss on the gold.
        Other arguments: as :class:`textattack.goal_functions.GoalFunction`.
    """

    def __init__(self, *args: Any, use_gold_loss: bool = True, **kwargs: Any) -> None:
        self.use_gold_loss = use_gold_loss
        super().__init__(*args, **kwargs)

    @property
    def _uses_loss(self) -> bool:
        return self.use_gold_loss and bool(getattr(self.model, "supports_loss", False))

    def init_attack_example(self, attacked_text: Any, ground_truth_output: str) -> Any:
        record_gold_output(attacked_text, ground_truth_output)
        self.ground_truth_output = ground_truth_output
        self._gold_error: str | None = None
        try:
            self._match(ground_truth_output, attacked_text)
        except DatasetError as error:
            self._gold_error = str(error)
            logger.warning("Skipping example %r: %s", attacked_text.text, error)
        if self._uses_loss and self.use_cache:
            # Cached outputs carry the loss on the previous example's gold.
            self._call_model_cache.clear()
        return super().init_attack_example(attacked_text, ground_truth_output)

    def _should_skip(self, model_output: Prediction, attacked_text: Any) -> bool:
        return self._gold_error is not None or super()._should_skip(model_output, attacked_text)

    def _process_model_outputs(self, attacked_texts: list[Any], outputs: list[Any]) -> list[Prediction]:
        predictions = [str(output) for output in outputs]
        if not self._uses_loss:
            return [Prediction(prediction) for prediction in predictions]
        inputs = [text.tokenizer_input for text in attacked_texts]
        losses = self.model.gold_loss(inputs, [self.ground_truth_output] * len(inputs))
        return [Prediction(prediction, float(loss)) for prediction, loss in zip(predictions, losses)]

    def _is_goal_complete(self, model_output: Prediction, attacked_text: Any) -> bool:
        return self._gold_error is None and not self._match(model_output, attacked_text)

    def _get_score(self, model_output: Prediction, attacked_text: Any) -> float:
        if self._gold_error is not None:
            return 0.0
        distance = self._distance(model_output)
        if not self._match(model_output, attacked_text):
            return 1.0 + distance
        loss = getattr(model_output, "loss", None)
        graded = loss / (1.0 + loss) if loss is not None else distance
        return min(graded, MATCH_SCORE_CEILING)

    def _get_displayed_output(self, raw_output: Prediction) -> str:
        return str(raw_output)

    @abstractmethod
    def _match(self, prediction: str, attacked_text: Any) -> bool:
        """Whether ``prediction`` means the same as the gold output."""

    @abstractmethod
    def _distance(self, prediction: str) -> float:
        """Normalised token distance of ``prediction`` to the gold output, in [0, 1]."""

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["use_gold_loss"]


def declare_compatibility(goal_function_class: type) -> None:
    """Tell TextAttack's model/goal-function validator which victims this goal function attacks."""
    validators.MODELS_BY_GOAL_FUNCTION.setdefault(goal_function_class, list(COMPATIBLE_MODELS))
