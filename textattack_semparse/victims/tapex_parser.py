"""TAPEX and OmniTab as Table QA victims: BART generating the answer from a linearised table.

TAPEX: Liu et al. 2022, "TAPEX: Table Pre-training via Learning a Neural SQL Executor", ICLR 2022,
https://arxiv.org/abs/2107.07653. OmniTab: Jiang et al. 2022, "OmniTab: Pretraining with Natural
and Synthetic Data for Few-shot Table-based Question Answering", NAACL 2022,
https://arxiv.org/abs/2207.03637 (the same architecture and tokenizer). Both are victims of RobuT
(Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against Human-Annotated
Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321) on WikiTableQuestions
(Pasupat and Liang 2015, https://arxiv.org/abs/1508.00305).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import torch

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.tables.table import Table
from textattack_semparse.victims.hub_models import TAPEX_WTQ
from textattack_semparse.victims.table_qa_parser import _PretrainedTableQAParser

ANSWER_SEPARATOR = ", "
"""How TAPEX's WTQ models print a list answer: the values joined by a comma and a space."""


class TapexParser(_PretrainedTableQAParser):
    """``BartForConditionalGeneration`` + ``TapexTokenizer``: the answer generated as text.

    The tokenizer linearises the table after the question (``col : a | b row 1 : ...``,
    lower-cased, cells cut to its ``max_cell_length`` tokens) and the input is truncated to
    ``max_length`` tokens; inputs are generated in batches of ``batch_size`` without sampling. The
    generated text is split into answer values at ``", "``, as TAPEX's WTQ models print a list
    answer (``"2004, 2008"`` -> ``["2004", "2008"]``); a value containing ", " is therefore split
    too, a limit of the model's output format. Values come back lower-cased, as the model writes
    them; WTQ's scorer ignores case.

    By name on the command line: ``--model tapex-wtq`` (``microsoft/tapex-large-finetuned-wtq``),
    ``--model omnitab-wtq`` (``neulab/omnitab-large-finetuned-wtq``), both bound to ``wtq-dev``, or
    ``--model DIR`` for a local directory whose tokenizer is a ``TapexTokenizer``; any hub name or
    path from Python.

    Original to textattack-semparse (a wrapper; the models are Liu et al.'s and Jiang et al.'s).

    Args:
        model_name_or_path (str | os.PathLike | None, default "microsoft/tapex-large-finetuned-wtq"):
            Hub name or local directory (OmniTab: ``"neulab/omnitab-large-finetuned-wtq"``).
        tokenizer_name_or_path (str | os.PathLike | None, default None): ``None`` uses the model's.
        device (str | None, default None): Torch device; ``None`` picks "cuda" when available.
        half_precision (bool | None, default None): float16 on CUDA; ``None`` means yes (BART runs
            safely in float16). Ignored on CPU.
        batch_size (int, default 16): Inputs per ``generate`` call.
        max_length (int, default 1024): Input tokens kept (BART's position embeddings allow 1024).
        max_new_tokens (int, default 64): Most answer tokens generated.
        num_beams (int | None, default None): Beam width; ``None`` uses the model's generation config.
        Other arguments (``benchmark``, ``max_failure_rate``): as :class:`TableQAParser`.

    Example:
        >>> from textattack_semparse.victims.hub_models import OMNITAB_WTQ
        >>> parser = TapexParser(OMNITAB_WTQ, device="cpu")  # loads nothing yet
        >>> parser.model_name_or_path, parser.max_length
        ('neulab/omnitab-large-finetuned-wtq', 1024)
    """

    DEFAULT_MODEL = TAPEX_WTQ
    HALF_PRECISION_BY_DEFAULT = True

    def __init__(
        self,
        *args: Any,
        max_length: int = 1024,
        max_new_tokens: int = 64,
        num_beams: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, max_length=max_length, **kwargs)
        for name, value in (("max_new_tokens", max_new_tokens), ("num_beams", num_beams)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ConfigurationError(f"{name} must be a positive int, got {value!r}.")
        self.max_new_tokens = max_new_tokens
        self.num_beams = num_beams

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["max_new_tokens", "num_beams"]

    def _load_pretrained(self, tokenizer_location: str) -> tuple[Any, Any]:
        import transformers

        tokenizer = transformers.TapexTokenizer.from_pretrained(tokenizer_location)
        model = transformers.BartForConditionalGeneration.from_pretrained(self.model_name_or_path)
        return tokenizer, model

    def _answer_batch(self, questions: list[str], tables: list[Table]) -> list[list[str]]:
        tokenizer, model = self.tokenizer, self.model
        options: dict[str, Any] = {"do_sample": False, "max_new_tokens": self.max_new_tokens}
        if self.num_beams is not None:
            options["num_beams"] = self.num_beams
        answers: list[list[str]] = []
        for batch in self._batches(len(questions)):
            inputs = tokenizer(
                table=[table_frame(tables[i]) for i in batch],
                query=[questions[i] for i in batch],
                padding=True,
                truncation=True,
                max_length=self.max_length,
                return_tensors="pt",
            )
            with torch.inference_mode():
                generated = model.generate(**{key: value.to(self.device) for key, value in inputs.items()}, **options)
            answers.extend(split_answer(text) for text in tokenizer.batch_decode(generated, skip_special_tokens=True))
        return answers


def split_answer(text: str) -> list[str]:
    """The values of a TAPEX answer text (split at ``", "``, blanks dropped).

    Example:
        >>> split_answer(" 2004, 2008"), split_answer("")
        (['2004', '2008'], [])
    """
    return [value.strip() for value in text.split(ANSWER_SEPARATOR) if value.strip()]


def table_frame(table: Table) -> pd.DataFrame:
    """``table`` as the data frame ``TapexTokenizer`` linearises (every cell a string)."""
    return pd.DataFrame([list(row) for row in table.rows], columns=list(table.header), dtype=object)
