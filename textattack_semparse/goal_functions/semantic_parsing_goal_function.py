"""Untargeted goal for semantic parsers: the output stops meaning the gold output."""

from __future__ import annotations

import logging
from typing import Any

from textattack.goal_functions.text import TextToTextGoalFunction
from textattack.shared import validators

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.outcome import Outcome
from textattack_semparse.scoring.scoring import Judgement, Scoring, scoring_for
from textattack_semparse.victims.prediction import Prediction

logger = logging.getLogger(__name__)

# Compatibility is declared, not guessed: these goal functions attack text-to-meaning-representation
# victims, i.e. the plugin's SemanticParser wrappers and Hugging Face encoder-decoders.
COMPATIBLE_MODELS = (r"^textattack_semparse\.", r"^transformers\.models\..*ForConditionalGeneration$")

MATCH_SCORE_CEILING = 0.999
"""Scores of outputs that still match stay below this; every mismatch scores at least 1."""

DB_ID_COLUMN = "db_id"

GOLD_ERROR_STOP_RATE = 0.9
"""Share of gold errors among the first examples that stops a run: the scoring cannot judge this
dataset's gold outputs (e.g. SQL scoring of logical forms), so every figure would be empty."""
EXAMPLES_BEFORE_STOP = 20
"""Examples begun before the share of gold errors is checked."""


class SemanticParsingGoalFunction(TextToTextGoalFunction):
    """Untargeted attack on a semantic parser: succeed when the output stops matching the gold.

    Outputs are judged as the benchmark says (:class:`~textattack_semparse.scoring.scoring.Scoring`:
    execution match on its databases, or exact match). Examples the victim already gets wrong
    are skipped, which is how robust accuracy is defined (Huang et al. 2021, "On Robustness of
    Neural Semantic Parsers", https://aclanthology.org/2021.eacl-main.292/). So are examples
    that cannot be judged, each shown in TextAttack's logs with its reason in place of the
    output and counted apart in the summary: a *gold error* (the gold output cannot be
    evaluated, e.g. its query fails) or a *victim error* (the victim raised on the original).
    A perturbed input the victim raises on is never a success. Once ``EXAMPLES_BEFORE_STOP``
    examples have begun, more than ``GOLD_ERROR_STOP_RATE`` of them being gold errors stops the
    run with a :class:`~textattack_semparse.errors.DatasetError`, as too many victim errors stop
    it: the scoring does not fit the dataset. The search is guided by a graded
    score: every mismatch scores ``1 + distance``; a matching output scores ``loss / (1 + loss)``
    from the victim's loss on the gold output when the victim provides it (``supports_loss``),
    otherwise its distance to the gold, below ``MATCH_SCORE_CEILING``.

    Args:
        model_wrapper: The victim (a ``SemanticParser`` or any wrapper returning strings).
        benchmark (Benchmark | None, default None): Judge as this benchmark does; default the
            benchmark the victim is bound to, else execution match on the victim's
            ``database``, else exact match (:func:`~textattack_semparse.scoring.scoring.scoring_for`).
        execution_mode (str | None, default None): Override the execution scorer's mode
            (``"classical"`` or ``"test-suite"``, ``docs/sql.md``); ``None`` keeps the benchmark's.
        gold_timeout (float | None, default None): Override the seconds a gold query may run
            (the benchmark's default is 60).
        use_gold_loss (bool, default True): Guide search with the victim's loss on the gold.
        Other arguments: as :class:`textattack.goal_functions.GoalFunction`.

    Example:
        >>> from textattack_semparse.datasets.benchmark import load_benchmark
        >>> from textattack_semparse.victims.knn_template_parser import KNNTemplateParser
        >>> geo = load_benchmark("geo-mini")
        >>> goal = SemanticParsingGoalFunction(KNNTemplateParser(geo.split("question", "train"), benchmark=geo))
        >>> goal.scoring.describe().startswith("execution match (classical) on ")
        True
    """

    def __init__(
        self,
        model_wrapper: Any,
        *args: Any,
        benchmark: Any = None,
        execution_mode: str | None = None,
        gold_timeout: float | None = None,
        use_gold_loss: bool = True,
        **kwargs: Any,
    ) -> None:
        self.benchmark = benchmark
        self.execution_mode = execution_mode
        self.gold_timeout = gold_timeout
        self.scoring = self._scoring(model_wrapper)
        self.use_gold_loss = use_gold_loss
        self.examples_begun = 0
        self.gold_errors = 0
        super().__init__(model_wrapper, *args, **kwargs)

    def _scoring(self, model_wrapper: Any) -> Scoring:
        """How outputs are judged; subclasses fix the scorer."""
        return scoring_for(
            model_wrapper, benchmark=self.benchmark, mode=self.execution_mode, gold_timeout=self.gold_timeout
        )

    @property
    def _uses_loss(self) -> bool:
        return self.use_gold_loss and bool(getattr(self.model, "supports_loss", False))

    def init_attack_example(self, attacked_text: Any, ground_truth_output: str) -> Any:
        record_gold_output(attacked_text, ground_truth_output)
        self.ground_truth_output = ground_truth_output
        self._gold_error = self.scoring.gold_error(ground_truth_output, self._db_id(attacked_text))
        self._count_gold_error()
        if self._gold_error is not None:
            logger.warning("Skipping example %r: %s", attacked_text.text, self._gold_error)
        if self._uses_loss and self.use_cache:
            # Cached outputs carry the loss on the previous example's gold.
            self._call_model_cache.clear()
        return super().init_attack_example(attacked_text, ground_truth_output)

    def _count_gold_error(self) -> None:
        """Count the example begun; stop when nearly all of the first ones are gold errors."""
        self.examples_begun += 1
        self.gold_errors += self._gold_error is not None
        if self.examples_begun >= EXAMPLES_BEFORE_STOP and self.gold_errors > GOLD_ERROR_STOP_RATE * self.examples_begun:
            raise DatasetError(
                f"{self.gold_errors} of the first {self.examples_begun} examples are gold errors (the gold output "
                f"cannot be evaluated by {self.scoring.describe()}; last: {self._gold_error}). The scoring does not "
                "fit this dataset: attack with a recipe bound to the dataset's benchmark (or none), or fix the "
                "database the gold outputs run on."
            )

    def _process_model_outputs(self, attacked_texts: list[Any], outputs: list[Any]) -> list[Prediction]:
        predictions = [output if isinstance(output, Prediction) else Prediction(str(output)) for output in outputs]
        if not self._uses_loss:
            return predictions
        inputs = [text.tokenizer_input for text in attacked_texts]
        losses = self.model.gold_loss(inputs, [self.ground_truth_output] * len(inputs))
        return [prediction.with_loss(float(loss)) for prediction, loss in zip(predictions, losses)]

    def _judge(self, model_output: Prediction, attacked_text: Any) -> Judgement:
        return self.scoring.judge(model_output, self.ground_truth_output, self._db_id(attacked_text))

    def _should_skip(self, model_output: Prediction, attacked_text: Any) -> bool:
        if self._gold_error is not None:
            return True
        return self._judge(model_output, attacked_text).outcome is not Outcome.CORRECT

    def _is_goal_complete(self, model_output: Prediction, attacked_text: Any) -> bool:
        return self._gold_error is None and self._judge(model_output, attacked_text).outcome is Outcome.WRONG

    def _get_score(self, model_output: Prediction, attacked_text: Any) -> float:
        if self._gold_error is not None:
            return 0.0
        judgement = self._judge(model_output, attacked_text)
        if judgement.outcome is Outcome.WRONG:
            return 1.0 + judgement.distance
        if judgement.outcome is not Outcome.CORRECT:
            return 0.0
        loss = model_output.loss
        if loss is None:
            return min(self.scoring.scorer.distance(model_output, self.ground_truth_output), MATCH_SCORE_CEILING)
        return min(loss / (1.0 + loss), MATCH_SCORE_CEILING)

    def _get_displayed_output(self, raw_output: Prediction) -> str:
        if self._gold_error is not None:
            return f"{Outcome.GOLD_ERROR.marker} {self._gold_error}"
        if raw_output.error is not None:
            return f"{Outcome.VICTIM_ERROR.marker} {raw_output.error}"
        return str(raw_output)

    @staticmethod
    def _db_id(attacked_text: Any) -> str | None:
        return attacked_text._text_input.get(DB_ID_COLUMN)

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["scoring", "use_gold_loss"]


def declare_compatibility(goal_function_class: type) -> None:
    """Tell TextAttack's model/goal-function validator which victims this goal function attacks."""
    validators.MODELS_BY_GOAL_FUNCTION.setdefault(goal_function_class, list(COMPATIBLE_MODELS))


declare_compatibility(SemanticParsingGoalFunction)
