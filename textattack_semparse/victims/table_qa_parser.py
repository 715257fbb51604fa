"""Table QA victims: the base of every parser that answers a question about a table.

The task is WikiTableQuestions' (Pasupat and Liang 2015, "Compositional Semantic Parsing on
Semi-Structured Tables", https://arxiv.org/abs/1508.00305) as RobuT attacks it (Zhao et al.
2023, "RobuT: A Systematic Study of Table QA Robustness Against Human-Annotated Adversarial
Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321): a question and a table in, a list
of answer values out.
"""

from __future__ import annotations

import functools
import json
import os
import re
from abc import abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table
from textattack_semparse.torch_device import for_inference, resolve_device, resolve_dtype
from textattack_semparse.victims.lazy_pretrained import LOAD_ERRORS, LazyPretrained, unloadable
from textattack_semparse.victims.semantic_parser import ParserInput, SemanticParser

TABLE_CACHE_SIZE = 256
"""Serialised tables kept parsed: an attack asks about the same few tables many times."""

_LEADING_NUMBER = re.compile(r"^\W{0,2}?(-?\d[\d,]*(?:\.\d+)?)")


def cell_number(cell: str) -> float | None:
    """The number a cell starts with (thousands separators dropped, up to two leading symbols such
    as ``$`` skipped), or ``None``.

    Example:
        >>> cell_number("$1,234.5 million"), cell_number("3–1"), cell_number("n/a")
        (1234.5, 3.0, None)
    """
    match = _LEADING_NUMBER.match(cell.strip())
    return None if match is None else float(match.group(1).replace(",", ""))


def format_number(value: float) -> str:
    """A computed answer number as text: integers without a decimal point, else at most 3 decimals.

    Example:
        >>> format_number(12.0), format_number(2 / 3)
        ('12', '0.667')
    """
    return str(int(value)) if float(value).is_integer() else f"{value:.3f}".rstrip("0").rstrip(".")


def pretrained_table_qa_class(path: str | os.PathLike[str]) -> type[_PretrainedTableQAParser] | None:
    """The victim class for a local Table QA model directory: :class:`TapasParser` when its
    ``config.json`` lists ``TapasForQuestionAnswering`` (or its tokenizer is a ``TapasTokenizer``),
    :class:`TapexParser` when its tokenizer is a ``TapexTokenizer`` (TAPEX, OmniTab); else ``None``.

    Example:
        >>> pretrained_table_qa_class("/nonexistent/tapas") is None
        True
    """
    directory = Path(path)
    config, tokenizer_config = _json_file(directory / "config.json"), _json_file(directory / "tokenizer_config.json")
    tokenizer_class = tokenizer_config.get("tokenizer_class")
    if "TapasForQuestionAnswering" in (config.get("architectures") or []) or tokenizer_class == "TapasTokenizer":
        from textattack_semparse.victims.tapas_parser import TapasParser

        return TapasParser
    if tokenizer_class == "TapexTokenizer":
        from textattack_semparse.victims.tapex_parser import TapexParser

        return TapexParser
    return None


def _json_file(path: Path) -> dict[str, Any]:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


@functools.lru_cache(maxsize=TABLE_CACHE_SIZE)
def _parsed_table(table_json: str) -> Table:
    return Table.from_json(table_json)


class TableQAParser(SemanticParser):
    """A victim that answers ``(question, table_json)`` inputs with a list of table values.

    Each input is a tuple whose second column is the table as ``Table.to_json()`` text (how a
    Table QA example travels through TextAttack, :mod:`textattack_semparse.tables.table_text`).
    Subclasses implement :meth:`_answer_batch`; each answer is returned as one string in WTQ's
    ``targetValue`` format (:func:`~textattack_semparse.tables.answers.format_answer`: values
    joined by ``|``, each escaped), the format of the benchmark's gold answers. The failure
    policy (a failing input becomes a victim error, too many stop the run) is
    :class:`SemanticParser`'s.

    Original to textattack-semparse.

    Args:
        benchmark (Benchmark | None, default None): The Table QA benchmark whose scorer judges
            the answers (``wtq``); see :meth:`from_benchmark`.
        max_failure_rate (float, default 0.1): As :class:`SemanticParser`.
    """

    @classmethod
    def from_benchmark(
        cls, benchmark: str = "wtq", *, data_dir: str | os.PathLike[str] | None = None, **options: Any
    ) -> TableQAParser:
        """The victim bound to a registered Table QA benchmark (scored as that benchmark is).

        Args:
            benchmark (str, default "wtq"): A name accepted by
                :func:`~textattack_semparse.datasets.benchmark.load_benchmark`.
            data_dir (str | os.PathLike | None, default None): Benchmark root, overriding
                ``SEMPARSE_DATA_DIR``.
            options: The class's own keyword arguments.
        """
        from textattack_semparse.datasets.benchmark import load_benchmark

        return cls(benchmark=load_benchmark(benchmark, data_dir=data_dir), **options)

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        tables = [_parsed_table(table_json) for table_json in db_ids if table_json is not None]
        answers = self._answer_batch(questions, tables)
        return [format_answer(values) for values in answers]

    @abstractmethod
    def _answer_batch(self, questions: list[str], tables: list[Table]) -> list[list[str]]:
        """The answer values to each question about its table (same order and length)."""
        raise NotImplementedError()

    @staticmethod
    def _split_inputs(text_input_list: Sequence[ParserInput]) -> tuple[list[str], list[str | None]]:
        """As :class:`SemanticParser`'s, but every input must carry its table."""
        questions, table_jsons = SemanticParser._split_inputs(text_input_list)
        for question, table_json in zip(questions, table_jsons):
            if table_json is None:
                raise TypeError(
                    f"A Table QA victim answers (question, table_json) inputs; got the question {question!r} "
                    "without a table. Pass (question, Table.to_json()) tuples, or build the example with "
                    "textattack_semparse.tables.table_text.table_input(question, table)."
                )
        return questions, table_jsons


class _PretrainedTableQAParser(LazyPretrained, TableQAParser):
    """A Table QA victim over a Hugging Face model: where it loads from, on which device, in
    which precision, in batches of what size. The tokenizer and model load on first use (the
    first call, or the first read of :attr:`model`, which ``GoalFunction.__init__`` does) and are
    dropped when the victim is pickled. Subclasses implement :meth:`_load_pretrained` and
    :meth:`_answer_batch`.
    """

    DEFAULT_MODEL: str = ""
    HALF_PRECISION_BY_DEFAULT: bool = False
    """Whether ``half_precision=None`` runs float16 on CUDA (for architectures known to be safe in it)."""

    def __init__(
        self,
        model_name_or_path: str | os.PathLike[str] | None = None,
        *,
        tokenizer_name_or_path: str | os.PathLike[str] | None = None,
        device: str | None = None,
        half_precision: bool | None = None,
        batch_size: int = 16,
        max_length: int = 512,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.model_name_or_path = _checked_location("model_name_or_path", model_name_or_path or self.DEFAULT_MODEL)
        self.tokenizer_name_or_path = (
            None if tokenizer_name_or_path is None else _checked_location("tokenizer_name_or_path", tokenizer_name_or_path)
        )
        self.device = resolve_device(device)
        if half_precision is not None and not isinstance(half_precision, bool):
            raise ConfigurationTypeError(f"half_precision must be a bool, or None for the class's default, got {half_precision!r}.")
        self.half_precision = self.HALF_PRECISION_BY_DEFAULT if half_precision is None else half_precision
        for name, value in (("batch_size", batch_size), ("max_length", max_length)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigurationError(f"{name} must be a positive int, got {value!r}.")
        self.batch_size = batch_size
        self.max_length = max_length

    @property
    def dtype(self) -> torch.dtype:
        """The weights' dtype: float16 on CUDA with ``half_precision``, else float32."""
        return resolve_dtype(self.device, self.half_precision)

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + [
            "model_name_or_path",
            "tokenizer_name_or_path",
            "device",
            "half_precision",
            "batch_size",
            "max_length",
        ]

    def _load(self) -> None:
        tokenizer_location = self.tokenizer_name_or_path or self.model_name_or_path
        try:
            tokenizer, model = self._load_pretrained(tokenizer_location)
        except LOAD_ERRORS as error:
            raise unloadable(type(self).__name__, self.model_name_or_path, tokenizer_location, error) from error
        self.__dict__["_tokenizer"] = tokenizer
        self.__dict__["_model"] = for_inference(model, self.device, half_precision=self.half_precision)

    @abstractmethod
    def _load_pretrained(self, tokenizer_location: str) -> tuple[Any, Any]:
        """The tokenizer and the model (on CPU, float32), from ``tokenizer_location`` and
        :attr:`model_name_or_path`."""
        raise NotImplementedError()

    def _batches(self, count: int) -> list[range]:
        return [range(start, min(start + self.batch_size, count)) for start in range(0, count, self.batch_size)]


def _checked_location(name: str, value: str | os.PathLike[str]) -> str:
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise ConfigurationTypeError(f"{name} must be a non-empty hub name or directory path, got {value!r}.")
    return str(value)
