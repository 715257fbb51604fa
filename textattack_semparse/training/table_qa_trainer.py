"""Fine-tune a TAPEX/OmniTab-style Table QA model (BART + ``TapexTokenizer``) on Table QA examples.

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321) fine-tunes
Table QA models on WikiTableQuestions with adversarial training examples added, rule-based (RTA)
or LLM-written (LeTA), and compares their robustness. This trainer does the fine-tuning: a
pretrained seq2seq Table QA model (a hub name such as ``microsoft/tapex-base`` or a local
directory) learns to generate each example's answer from its question and linearised table; the
saved directory is a ``TapexParser`` victim (``--model DIR``). TAPEX: Liu et al. 2022,
https://arxiv.org/abs/2107.07653; OmniTab: Jiang et al. 2022, https://arxiv.org/abs/2207.03637.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, DatasetError
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.torch_device import resolve_device
from textattack_semparse.training import defaults
from textattack_semparse.victims.tapex_parser import ANSWER_SEPARATOR, table_frame

if TYPE_CHECKING:
    from textattack_semparse.datasets.example import SemparseExample

DEFAULT_BASE_MODEL = "microsoft/tapex-base"
"""TAPEX pretrained (not yet fine-tuned on WTQ); ``neulab/omnitab-large`` is OmniTab's."""

REPORT_FILE = "table_qa_training.json"
"""What the trainer writes beside the model: its settings, the examples and the final loss."""


class TableQATrainer:
    """Fine-tune a BART + ``TapexTokenizer`` model to generate the answers of Table QA examples.

    Each example becomes the tokenizer's encoding of its question and table (truncated to
    ``max_source_length`` tokens) with the answer as the label: the gold values joined by
    ``", "``, as TAPEX's WTQ models print a list and :class:`~textattack_semparse.victims.tapex_parser.TapexParser`
    reads it back. Training runs through ``transformers.Seq2SeqTrainer`` (AdamW, linear decay
    after ``warmup_ratio`` of the steps, float16 on CUDA, checkpoints under
    ``output_dir/checkpoints``, each epoch by default); the model and tokenizer are saved in ``output_dir``.

    The defaults are ours (RobuT's released code runs inference only): learning rate 3e-5,
    batches of 8 accumulated 4 times, 10 epochs, 10% warm-up, weight decay 0.01.

    Args:
        base_model (str | os.PathLike): Hub name or local directory of the model to fine-tune.
            Default ``"microsoft/tapex-base"``.
        output_dir (str | os.PathLike): Where the fine-tuned model goes.
        epochs (int, default 10): Training epochs.
        max_steps (int, default -1): Stop after this many optimiser steps (``-1``: epochs decide).
        batch_size (int, default 8): Examples per device batch.
        gradient_accumulation_steps (int, default 4): Batches per optimiser step.
        learning_rate (float, default 3e-5): Peak learning rate.
        warmup_ratio (float, default 0.1): Share of the steps spent warming up.
        weight_decay (float, default 0.01): AdamW weight decay.
        max_source_length (int, default 1024): Input tokens kept.
        max_target_length (int, default 128): Answer tokens kept.
        seed (int, default 42): Seed of the shuffling and of the model's dropout.
        checkpoint_every (int | None, default None): Optimiser steps between checkpoints;
            ``None``: one each epoch.
        device (str | None, default None): ``"cpu"`` forces the CPU; ``None``: CUDA when available.
    """

    def __init__(
        self,
        base_model: str | os.PathLike[str] = DEFAULT_BASE_MODEL,
        output_dir: str | os.PathLike[str] = "table-qa-model",
        *,
        epochs: int = defaults.TABLE_QA_EPOCHS,
        max_steps: int = -1,
        batch_size: int = defaults.TABLE_QA_BATCH_SIZE,
        gradient_accumulation_steps: int = defaults.TABLE_QA_GRADIENT_ACCUMULATION_STEPS,
        learning_rate: float = defaults.TABLE_QA_LEARNING_RATE,
        warmup_ratio: float = 0.1,
        weight_decay: float = 0.01,
        max_source_length: int = 1024,
        max_target_length: int = 128,
        seed: int = 42,
        checkpoint_every: int | None = None,
        device: str | None = None,
    ) -> None:
        if not isinstance(base_model, (str, os.PathLike)) or not str(base_model):
            raise ConfigurationTypeError(f"base_model must be a hub name or a directory, got {base_model!r}.")
        for name, value in (
            ("epochs", epochs),
            ("batch_size", batch_size),
            ("gradient_accumulation_steps", gradient_accumulation_steps),
            ("max_source_length", max_source_length),
            ("max_target_length", max_target_length),
        ):
            check_count(name, value)
        check_seed(seed)
        check_count("checkpoint_every", checkpoint_every, none_means="each epoch")
        if max_steps != -1:
            check_count("max_steps", max_steps)
        if not 0 < learning_rate < 1 or not 0 <= warmup_ratio < 1 or weight_decay < 0:
            raise ConfigurationError(
                f"learning_rate must be in (0, 1), warmup_ratio in [0, 1) and weight_decay >= 0; got "
                f"{learning_rate}, {warmup_ratio}, {weight_decay}."
            )
        self.base_model = str(base_model)
        self.output_dir = Path(output_dir)
        self.epochs = epochs
        self.max_steps = max_steps
        self.batch_size = batch_size
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.learning_rate = learning_rate
        self.warmup_ratio = warmup_ratio
        self.weight_decay = weight_decay
        self.max_source_length = max_source_length
        self.max_target_length = max_target_length
        self.seed = seed
        self.checkpoint_every = checkpoint_every
        self.device = device

    def features(self, tokenizer: Any, examples: Sequence[SemparseExample]) -> list[dict[str, list[int]]]:
        """Token ids of each example's question and table, with its answer as ``labels``."""
        features = []
        for example in examples:
            if example.table is None:
                raise DatasetError(f"{example.question!r} has no table: a Table QA model trains on Table QA examples.")
            encoding = tokenizer(
                table=table_frame(example.table),
                query=example.question,
                max_length=self.max_source_length,
                truncation=True,
            )
            labels = tokenizer(
                answer=answer_text(example.gold), max_length=self.max_target_length, truncation=True
            )["input_ids"]
            features.append({"input_ids": encoding["input_ids"], "attention_mask": encoding["attention_mask"], "labels": labels})
        return features

    def train(self, examples: Sequence[SemparseExample], *, source: str = "", resume: bool = False) -> dict[str, Any]:
        """Fine-tune on ``examples`` and save the model and tokenizer in ``output_dir``.

        Args:
            examples: Table QA examples (question, table, gold answer in WTQ's format).
            source: Where the examples came from, for the report.
            resume: Continue from the last checkpoint under ``output_dir/checkpoints``.

        Returns:
            The report written to ``output_dir/table_qa_training.json``.
        """
        import transformers

        if not examples:
            raise DatasetError("No training examples: a Table QA model needs some to learn from.")
        tokenizer = transformers.TapexTokenizer.from_pretrained(self.base_model)
        model = transformers.BartForConditionalGeneration.from_pretrained(self.base_model)
        use_cpu = resolve_device(self.device) == "cpu"
        arguments = transformers.Seq2SeqTrainingArguments(
            output_dir=str(self.output_dir / "checkpoints"),
            per_device_train_batch_size=self.batch_size,
            gradient_accumulation_steps=self.gradient_accumulation_steps,
            learning_rate=self.learning_rate,
            warmup_ratio=self.warmup_ratio,
            weight_decay=self.weight_decay,
            num_train_epochs=self.epochs,
            max_steps=self.max_steps,
            lr_scheduler_type="linear",
            fp16=not use_cpu,
            use_cpu=use_cpu,
            seed=self.seed,
            save_strategy="epoch" if self.checkpoint_every is None else "steps",
            save_steps=self.checkpoint_every or 500,
            save_total_limit=1,
            logging_steps=10,
            report_to=[],
            disable_tqdm=True,
        )
        trainer = transformers.Seq2SeqTrainer(
            model=model,
            args=arguments,
            train_dataset=self.features(tokenizer, examples),
            data_collator=transformers.DataCollatorForSeq2Seq(tokenizer, model=model),
        )
        last = transformers.trainer_utils.get_last_checkpoint(arguments.output_dir) if resume else None
        outcome = trainer.train(resume_from_checkpoint=last)
        trainer.save_model(str(self.output_dir))
        tokenizer.save_pretrained(str(self.output_dir))
        report = {
            "base_model": self.base_model,
            "examples": len(examples),
            "source": source,
            "steps": outcome.global_step,
            "train_loss": outcome.training_loss,
            "settings": {key: getattr(self, key) for key in self.extra_repr_keys()},
        }
        (self.output_dir / REPORT_FILE).write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
        return report

    def extra_repr_keys(self) -> list[str]:
        return [
            "base_model", "epochs", "max_steps", "batch_size", "gradient_accumulation_steps", "learning_rate",
            "warmup_ratio", "weight_decay", "max_source_length", "max_target_length", "seed", "checkpoint_every", "device",
        ]

    def __repr__(self) -> str:
        settings = ", ".join(f"{key}={getattr(self, key)!r}" for key in self.extra_repr_keys())
        return f"{type(self).__name__}({settings})"


def answer_text(gold: str) -> str:
    """The answer a TAPEX model is taught to write: the gold values joined by ``", "``.

    Example:
        >>> answer_text("2004|Oslo")
        '2004, Oslo'
    """
    return ANSWER_SEPARATOR.join(parse_answer(gold))
