"""Table QA training augmentation with RobuT's perturbations, with or without an LLM (Zhao et al. 2023)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.constraints.meaning_judgement import MeaningJudgement
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE
from textattack_semparse.registry import get_registry
from textattack_semparse.tables import ROBUT_RTA_PERTURBATIONS
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import QUESTION_COLUMN, TABLE_COLUMN, freeze_table_column, table_input


class TableQAAugmenter:
    """Augmented Table QA examples: each perturbation applied once to a (question, table, answer).

    Yilun Zhao, Chen Zhao, Linyong Nan, Zhenting Qi, Wenlin Zhang, Xiangru Tang, Boyu Mi and
    Dragomir Radev (2023). RobuT: A Systematic Study of Table QA Robustness Against
    Human-Annotated Adversarial Perturbations. ACL 2023. https://arxiv.org/abs/2306.14321

    RobuT trains Table QA models on adversarial examples added to the training set: rule-based
    ones (its baseline RTA: rule-based table perturbations and BERT-Attack-style question
    perturbations) and LLM-written ones (LeTA). Here registered perturbations generate them, the
    table ones keeping the gold answer valid, the question ones never touching the table.
    Registered as the augmentation recipes ``robut-rta`` (the masked LM ``robut-word``),
    ``robut-rta-offline`` (WordNet synonyms instead) and ``robut-leta`` (header names and
    question rewrites an LLM writes, the LLM named by ``SEMPARSE_PERTURBATION_LLM``);
    ``textattack-semparse augment --dataset wtq-train`` writes the rows and their tables.

    Args:
        perturbations (Sequence[str], default ROBUT_RTA_PERTURBATIONS): Registered
            perturbations; each gives at most one augmented example per input.
        seed (int, default 0): Seed of the perturbations and of the choice among a question
            perturbation's outputs.
        judge (str | Sequence[str] | None, default "default"): The meaning judges a question
            perturbation's output must pass (:mod:`textattack_semparse.judges`; ``None``: none);
            table perturbations leave the question as it is. ``judgement.tally`` counts rejections.
    """

    table_qa = True
    """Augments (question, table, answer) rows: ``textattack augment`` reads them from CSV columns
    ``question`` (``--input-column``), ``table`` (``Table.to_json()``) and ``answer``."""

    def __init__(
        self,
        perturbations: Sequence[str] = ROBUT_RTA_PERTURBATIONS,
        *,
        seed: int = 0,
        judge: str | Sequence[str] | None = DEFAULT_JUDGE,
    ) -> None:
        registry = get_registry()
        self.judgement: MeaningJudgement | None = MeaningJudgement(judge) if judge else None
        self.perturbations = tuple(perturbations)
        self.seed = seed
        self._transformations = {}
        for name in self.perturbations:
            entry = registry.get("perturbation", name)
            self._transformations[name] = entry.create(seed=seed) if "seed" in entry.options else entry.create()

    def augment(self, question: str, table: Table, gold: str) -> list[tuple[str, str, Table]]:
        """``(perturbation, question, table)`` per perturbation that applies, in perturbation order."""
        rows: list[tuple[str, str, Table]] = []
        for name, transformation in self._transformations.items():
            text = AttackedText(table_input(question, table))
            record_gold_output(text, gold)
            outputs = transformation(text, pre_transformation_constraints=[RepeatModification(), freeze_table_column()])
            if self.judgement is not None:
                outputs = self.judgement.call_many(outputs, text)
            if not outputs:
                continue
            output = random.Random(f"{self.seed}:{name}:{question}").choice(outputs)
            table_output = Table.from_json(
                output._text_input[TABLE_COLUMN]
            )  # the output keeps the input's table column
            rows.append((name, output._text_input[QUESTION_COLUMN], table_output))
        return rows
