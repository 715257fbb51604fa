"""Semantic parser victims: the TextAttack ``ModelWrapper`` every victim of the plugin is.

The base does not import TextAttack (a victim evaluated by ``textattack-semparse evaluate`` or on
a Ray worker loads a few seconds sooner): it is registered as a virtual subclass of
``ModelWrapper`` once ``textattack.models.wrappers`` is imported, so TextAttack's checks
(``isinstance(model, ModelWrapper)``) accept every victim."""

from __future__ import annotations

import logging
import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import _textattack_semparse_autoload
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, SchemaError, VictimError
from textattack_semparse.victims.prediction import Prediction

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark

logger = logging.getLogger(__name__)

DEFAULT_MAX_FAILURE_RATE = 0.1
"""Share of inputs a victim may fail on before it stops the run (see :class:`SemanticParser`)."""
MIN_INPUTS_BEFORE_STOP = 20
"""Inputs parsed before the failure share is checked, so one early failure does not stop a run."""

ParserInput = str | Sequence[str | None]
"""One victim input: a question, or a tuple ``(question, db_id, ...)`` when the dataset has
several input columns (TextAttack passes ``AttackedText.tokenizer_input``)."""


class SemanticParser(ABC):
    """A TextAttack ``ModelWrapper`` that maps questions to SQL queries or logical forms.

    ``__call__`` takes a list of inputs (a question string each, or a tuple
    ``(question, db_id, ...)``; columns after ``db_id`` are ignored) and returns one
    prediction string per input, in order. Subclasses implement :meth:`_parse_batch`
    and, when they can score a gold output, :meth:`_gold_loss` and :attr:`supports_loss`.

    Failure policy: an exception raised while parsing must not end an attack, nor pass for a
    wrong answer. When a batch fails, its inputs are parsed one at a time; an input that still
    fails gets a :class:`~textattack_semparse.victims.prediction.Prediction` whose ``error``
    says what was raised (its text is ``""``), and a logged warning. Evaluations report such
    *victim errors* apart and leave them out of accuracies; goal functions never count one as
    a successful attack. Once at least ``MIN_INPUTS_BEFORE_STOP`` inputs have been parsed, a
    victim that has failed on more than ``max_failure_rate`` of them raises
    :class:`~textattack_semparse.errors.VictimError`, which stops the run: the victim is
    broken, not the inputs. A ``VictimError`` raised by a subclass (weights that cannot be
    loaded, a broken subclass) is raised at once. Malformed call arguments raise ``TypeError``.

    Original to textattack-semparse.

    Args:
        database (str | os.PathLike | None, default None): A SQLite file (or directory of
            per-``db_id`` databases) the victim reads and is scored on when it is bound to no
            benchmark; default the ``benchmark``'s database.
        benchmark (Benchmark | None, default None): The benchmark the victim is bound to;
            goal functions and evaluations score its predictions as the benchmark does.
        max_failure_rate (float, default 0.1): Share of failed inputs that stops the run.
    """

    def __init__(
        self,
        *,
        database: str | os.PathLike[str] | None = None,
        benchmark: Benchmark | None = None,
        max_failure_rate: float = DEFAULT_MAX_FAILURE_RATE,
    ) -> None:
        if database is not None and not isinstance(database, (str, os.PathLike)):
            raise ConfigurationTypeError(
                f"database must be a path (str or os.PathLike) or None, got {type(database).__name__}."
            )
        if isinstance(max_failure_rate, bool) or not isinstance(max_failure_rate, (int, float)) or not (
            0.0 <= max_failure_rate <= 1.0
        ):
            raise ConfigurationError(f"max_failure_rate must be a share between 0 and 1, got {max_failure_rate!r}.")
        if database is None and benchmark is not None:
            database = benchmark.database
        self.database: Path | None = None if database is None else Path(database)
        if self.database is not None and not self.database.exists():
            raise SchemaError(
                f"Database {str(self.database)!r} does not exist. Pass the path of the benchmark's "
                "SQLite file (or directory of databases), or database=None."
            )
        self.benchmark = benchmark
        self.max_failure_rate = float(max_failure_rate)
        self.inputs_parsed = 0
        self.inputs_failed = 0

    @property
    def model(self) -> Any:
        """What ``GoalFunction.__init__`` inspects: the wrapped network, or the victim itself."""
        return self.__dict__.get("_model", self)

    @model.setter
    def model(self, value: Any) -> None:
        self.__dict__["_model"] = value

    @property
    def supports_loss(self) -> bool:
        """Whether :meth:`gold_loss` is available for this victim."""
        return False

    def __call__(self, text_input_list: Sequence[ParserInput]) -> list[str]:
        questions, db_ids = self._split_inputs(text_input_list)
        if not questions:
            return []
        try:
            outputs = self._parse_batch(questions, db_ids)
        except VictimError:
            raise
        except Exception as error:  # noqa: BLE001 - isolate the failing input, see class docstring
            if len(questions) > 1:
                return [self([(q, d)])[0] for q, d in zip(questions, db_ids)]
            logger.warning("%s failed on question %r (%s: %s).", type(self).__name__, questions[0], type(error).__name__, error)
            outputs = [Prediction.failure(error)]
        outputs = self._checked_outputs(outputs, len(questions))
        self._count(outputs)
        return outputs

    def gold_loss(self, inputs: Sequence[ParserInput], golds: Sequence[str]) -> list[float]:
        """The victim's loss on each gold output (lower = the victim finds the gold likelier).

        Raises:
            VictimError: The victim cannot score outputs (``supports_loss`` is False).
            ValueError: ``inputs`` and ``golds`` differ in length.
        """
        if not self.supports_loss:
            raise VictimError(
                f"{type(self).__name__} cannot compute a loss on gold outputs (supports_loss is "
                "False). Use a goal function that needs only predictions, or a victim with "
                "supports_loss=True such as Seq2SeqParser."
            )
        if isinstance(golds, str) or len(inputs) != len(golds):
            raise ValueError(
                f"gold_loss needs one gold output per input, got {len(inputs)} inputs and "
                f"{'a single string' if isinstance(golds, str) else len(golds)} golds."
            )
        questions, db_ids = self._split_inputs(inputs)
        if not questions:
            return []
        return self._gold_loss(questions, db_ids, list(golds))

    @abstractmethod
    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        """Predict one output string per question (same order and length)."""
        raise NotImplementedError()

    def _gold_loss(self, questions: list[str], db_ids: list[str | None], golds: list[str]) -> list[float]:
        """Loss of each gold output; override together with :attr:`supports_loss`."""
        raise NotImplementedError()

    def extra_repr_keys(self) -> list[str]:
        """The settings :func:`repr` shows."""
        return ["database", "benchmark", "max_failure_rate"]

    def __repr__(self) -> str:
        """The class and its settings, one per line, as TextAttack's components show theirs."""
        settings = "".join(f"\n  ({key}):  {getattr(self, key)}" for key in self.extra_repr_keys())
        return f"{type(self).__name__}({settings}\n)"

    def get_grad(self, text_input: str) -> Any:
        """TextAttack's gradient of the loss on the input tokens: a semantic parser has none."""
        raise NotImplementedError(f"{type(self).__name__} gives no gradients; use a black-box search method.")

    def tokenize(self, inputs: Sequence[str], strip_prefix: bool = False) -> list[list[str]]:
        """TextAttack's tokens of each input (for gradient and word-importance components): not given."""
        raise NotImplementedError(f"{type(self).__name__} does not expose its tokens.")

    def _count(self, outputs: list[str]) -> None:
        """Count parsed and failed inputs; stop when failures exceed ``max_failure_rate``."""
        errors = [error for output in outputs if (error := getattr(output, "error", None)) is not None]
        self.inputs_parsed += len(outputs)
        self.inputs_failed += len(errors)
        too_many = self.inputs_failed > self.max_failure_rate * self.inputs_parsed
        if errors and too_many and self.inputs_parsed >= MIN_INPUTS_BEFORE_STOP:
            raise VictimError(
                f"{type(self).__name__} failed on {self.inputs_failed} of {self.inputs_parsed} inputs "
                f"({100 * self.inputs_failed / self.inputs_parsed:.0f}%), more than max_failure_rate="
                f"{self.max_failure_rate:g}; last error: {errors[-1]}. Fix the victim, or raise max_failure_rate."
            )

    @staticmethod
    def _split_inputs(
        text_input_list: Sequence[ParserInput],
    ) -> tuple[list[str], list[str | None]]:
        """Split victim inputs into questions and database ids (``None`` when absent)."""
        if isinstance(text_input_list, str) or not isinstance(text_input_list, Sequence):
            raise TypeError(
                "A semantic parser is called with a list of inputs, got "
                f"{type(text_input_list).__name__}; wrap a single question as [question]."
            )
        questions: list[str] = []
        db_ids: list[str | None] = []
        for item in text_input_list:
            if isinstance(item, str):
                question, db_id = item, None
            elif isinstance(item, Sequence) and len(item) >= 1 and isinstance(item[0], str):
                question = item[0]
                db_id = item[1] if len(item) > 1 else None
                if db_id is not None and not isinstance(db_id, str):
                    raise TypeError(f"db_id must be a str or None, got {db_id!r} in input {item!r}.")
            else:
                raise TypeError(
                    f"Each input must be a question string or a tuple (question, db_id, ...), got {item!r}."
                )
            questions.append(question)
            db_ids.append(db_id)
        return questions, db_ids

    def _checked_outputs(self, outputs: Any, expected: int) -> list[str]:
        if not isinstance(outputs, list) or len(outputs) != expected:
            raise VictimError(
                f"{type(self).__name__}._parse_batch returned {type(outputs).__name__} of length "
                f"{len(outputs) if hasattr(outputs, '__len__') else '?'} for {expected} inputs; it "
                "must return a list with one string per input."
            )
        for output in outputs:
            if not isinstance(output, str):
                raise VictimError(
                    f"{type(self).__name__}._parse_batch returned a {type(output).__name__} "
                    f"({output!r}); every prediction must be a str."
                )
        return outputs


_textattack_semparse_autoload.after_import(
    "textattack.models.wrappers", lambda wrappers: wrappers.ModelWrapper.register(SemanticParser)
)
