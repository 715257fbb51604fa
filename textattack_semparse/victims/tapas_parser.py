"""TAPAS as a Table QA victim: cell selection and aggregation over the table.

Herzig et al. 2020, "TaPas: Weakly Supervised Table Parsing via Pre-training", ACL 2020,
https://arxiv.org/abs/2004.02349; one of the victims RobuT attacks (Zhao et al. 2023, "RobuT: A
Systematic Study of Table QA Robustness Against Human-Annotated Adversarial Perturbations",
ACL 2023, https://arxiv.org/abs/2306.14321) on WikiTableQuestions (Pasupat and Liang 2015,
https://arxiv.org/abs/1508.00305).
"""

from __future__ import annotations

import statistics
from typing import Any

import pandas as pd
import torch

from textattack_semparse.errors import ConfigurationError, VictimError
from textattack_semparse.tables.table import Table
from textattack_semparse.victims.hub_models import TAPAS_WTQ
from textattack_semparse.victims.table_qa_parser import _PretrainedTableQAParser, cell_number, format_number

AGGREGATIONS = ("NONE", "SUM", "AVERAGE", "COUNT")
"""TAPAS's WTQ aggregation operators, in the order of its aggregation head."""


class TapasParser(_PretrainedTableQAParser):
    """``TapasForQuestionAnswering`` + ``TapasTokenizer``: selects cells, then aggregates them.

    Each (question, table) is tokenised with the table's rows dropped from the bottom until it fits
    ``max_length`` tokens (TAPAS's ``drop_rows_to_fit``); inputs run in batches of ``batch_size``,
    each padded to its own longest input. Cells whose mean token probability exceeds
    ``cell_classification_threshold`` are selected (``TapasTokenizer.convert_logits_to_predictions``)
    and the aggregation head's operator is applied as TAPAS's WTQ evaluation does: NONE answers the
    selected cells, COUNT their number, SUM and AVERAGE the sum and mean of their numbers (cells
    without a number are skipped; no number at all is the empty answer). A model without an
    aggregation head (SQA) always answers the cells.

    By name on the command line: ``--model tapas-wtq`` (the default hub model, bound to ``wtq-dev``)
    or ``--model DIR`` for a local directory whose ``config.json`` lists ``TapasForQuestionAnswering``;
    any hub name or path from Python.

    Original to textattack-semparse (a wrapper; the model is Herzig et al.'s).

    Args:
        model_name_or_path (str | os.PathLike | None, default "google/tapas-base-finetuned-wtq"):
            Hub name or local directory.
        tokenizer_name_or_path (str | os.PathLike | None, default None): ``None`` uses the model's.
        device (str | None, default None): Torch device; ``None`` picks "cuda" when available.
        half_precision (bool | None, default None): float16 on CUDA; ``None`` keeps float32 for TAPAS,
            whose cell selection works in log space with large negative constants and was not
            validated in float16. Ignored on CPU.
        batch_size (int, default 16): Inputs per forward pass.
        max_length (int, default 512): Tokens per input (TAPAS's position embeddings allow 512).
        cell_classification_threshold (float, default 0.5): Probability above which a cell is selected.
        Other arguments (``benchmark``, ``max_failure_rate``): as :class:`TableQAParser`.

    Example:
        >>> parser = TapasParser(device="cpu")  # loads nothing yet
        >>> parser.model_name_or_path, parser.half_precision
        ('google/tapas-base-finetuned-wtq', False)
    """

    DEFAULT_MODEL = TAPAS_WTQ

    def __init__(self, *args: Any, cell_classification_threshold: float = 0.5, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if isinstance(cell_classification_threshold, bool) or not 0.0 <= cell_classification_threshold <= 1.0:
            raise ConfigurationError(f"cell_classification_threshold must be a probability, got {cell_classification_threshold!r}.")
        self.cell_classification_threshold = float(cell_classification_threshold)

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["cell_classification_threshold"]

    def _load_pretrained(self, tokenizer_location: str) -> tuple[Any, Any]:
        import transformers

        tokenizer = transformers.TapasTokenizer.from_pretrained(tokenizer_location)
        model = transformers.TapasForQuestionAnswering.from_pretrained(self.model_name_or_path)
        labels = model.config.aggregation_labels or {}
        unknown = sorted(set(labels.values()) - set(AGGREGATIONS)) if model.config.num_aggregation_labels else []
        if unknown:
            raise VictimError(
                f"TAPAS model {self.model_name_or_path!r} has aggregation operators {unknown}; TapasParser computes "
                f"{', '.join(AGGREGATIONS)} only. Use a WTQ- or WikiSQL-fine-tuned TAPAS."
            )
        return tokenizer, model

    def _answer_batch(self, questions: list[str], tables: list[Table]) -> list[list[str]]:
        answers: list[list[str]] = []
        for batch in self._batches(len(questions)):
            answers.extend(self._answer_one_batch([questions[i] for i in batch], [tables[i] for i in batch]))
        return answers

    def _fitted_question(self, question: str, table: Table) -> str:
        """``question`` cut to the tokens that fit in ``max_length`` beside the table's header.

        TAPAS's tokenizer drops table rows to fit, never query tokens: a question longer than
        ``max_length`` would be refused, so its tail is dropped, as sequence models truncate.
        """
        tokenizer = self.tokenizer
        # [CLS] question [SEP] header: the header's tokens and the two special tokens. Whole
        # words are kept (a word's tokens do not depend on its neighbours).
        room = self.max_length - 2 - sum(len(tokenizer.tokenize(str(name))) for name in table.header)
        words = question.split()
        kept = 0
        for position, word in enumerate(words):
            kept += len(tokenizer.tokenize(word))
            if kept > room:
                return " ".join(words[:position])
        return question

    def _answer_one_batch(self, questions: list[str], tables: list[Table]) -> list[list[str]]:
        tokenizer, model = self.tokenizer, self.model
        encodings = [
            tokenizer(
                table=_frame(table),
                queries=self._fitted_question(question, table),
                truncation="drop_rows_to_fit",
                max_length=self.max_length,
            )
            for question, table in zip(questions, tables)
        ]
        inputs = tokenizer.pad(encodings, return_tensors="pt")
        with torch.inference_mode():
            outputs = model(**{key: value.to(self.device) for key, value in inputs.items()})
        logits = outputs.logits.float().cpu()
        aggregation_logits = getattr(outputs, "logits_aggregation", None)
        labels = model.config.aggregation_labels if model.config.num_aggregation_labels else None
        answers = []
        for position, table in enumerate(tables):
            example = {key: value[position : position + 1] for key, value in inputs.items()}
            if labels and aggregation_logits is not None:
                coordinates, operators = tokenizer.convert_logits_to_predictions(
                    example,
                    logits[position : position + 1],
                    aggregation_logits[position : position + 1].float().cpu(),
                    cell_classification_threshold=self.cell_classification_threshold,
                )
                operator = labels[operators[0]]
            else:
                (coordinates,) = tokenizer.convert_logits_to_predictions(
                    example, logits[position : position + 1], cell_classification_threshold=self.cell_classification_threshold
                )
                operator = "NONE"
            # convert_logits_to_predictions skips an example with no table token (a table without rows).
            cells = [table.rows[row][column] for row, column in sorted(coordinates[0])] if coordinates else []
            answers.append(aggregate(cells, operator))
        return answers


def aggregate(cells: list[str], operator: str) -> list[str]:
    """TAPAS's answer from the selected ``cells`` and its aggregation ``operator``.

    Example:
        >>> aggregate(["3", "5", "n/a"], "SUM"), aggregate(["3", "5"], "AVERAGE"), aggregate(["a", "b"], "COUNT")
        (['8'], ['4'], ['2'])
    """
    if operator == "NONE":
        return cells
    if operator == "COUNT":
        return [str(len(cells))]
    numbers = [number for number in map(cell_number, cells) if number is not None]
    if not numbers:
        return []
    return [format_number(sum(numbers) if operator == "SUM" else statistics.fmean(numbers))]


class _Row(pd.Series):
    """A row that also answers ``row[i]`` by position: transformers' TAPAS tokenizer indexes rows
    that way, which pandas 3 no longer does for a Series labelled by column names."""

    @property
    def _constructor(self) -> type[pd.Series]:
        return _Row

    @property
    def _constructor_expanddim(self) -> type[pd.DataFrame]:
        return _Frame

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int) and not isinstance(key, bool):
            return self.iloc[key]
        return super().__getitem__(key)


class _Frame(pd.DataFrame):
    """A table as ``TapasTokenizer`` takes it: object cells (it stores ``Cell`` records in them)."""

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return _Frame

    @property
    def _constructor_sliced(self) -> type[pd.Series]:
        return _Row


def _frame(table: Table) -> _Frame:
    return _Frame([list(row) for row in table.rows], columns=list(table.header), dtype=object)
