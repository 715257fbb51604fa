"""Training examples for the studies' defences: meaning-preserving augmentation and
adversarial training.

Huang et al. (2021), "On Robustness of Neural Semantic Parsers" (EACL), §4: a parser is
retrained on its training set plus meaning-preserving rewrites of it (MDA: a sample of
the training set perturbed by each operation, ``textattack-semparse augment --sample``).
This package also retrains on adversarial examples that an attack found against the parser
itself (not one of Huang et al.'s defences). Both keep
each rewritten question's gold output; ``ParserTrainer`` takes them as
``extra_train_examples``. :mod:`textattack_semparse.experiments.train` runs the defences.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textattack_semparse.datasets.benchmark import Benchmark
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.datasets.text2sql import load_text2sql
from textattack_semparse.errors import DatasetError


def augmented_examples(
    path: str | os.PathLike[str], benchmark: Benchmark, originals: Sequence[SemparseExample], *, split_type: str = "question"
) -> list[SemparseExample]:
    """The training examples of an augmented file that are not among ``originals``.

    The file is in the benchmark's own format, as ``textattack-semparse augment --dataset``
    writes it: a text2sql-data JSON file (its ``train`` split of ``split_type`` is read) or a
    ``question<TAB>logical form`` file.

    Raises:
        DatasetError: Missing file, a benchmark format that cannot be augmented, or a file
            that adds nothing.
    """
    path = Path(path)
    if not path.is_file():
        raise DatasetError(
            f"Augmented training file {str(path)!r} does not exist; write one with "
            "`textattack-semparse augment --recipe semparse-mda --sample 0.2 --dataset <benchmark>-train ...`."
        )
    if benchmark.source_format == "text2sql":
        examples = load_text2sql(path, split_type=split_type, splits="train")
    elif benchmark.source_format == "tsv":
        examples = load_logical_forms(path, split="train")
    else:
        raise DatasetError(
            f"Benchmark {benchmark.name!r} ({benchmark.source_format or 'unknown'} format) has no augmentable "
            "training file; --augment needs a text2sql-data or logical-form benchmark."
        )
    known = {(example.question, example.gold) for example in originals}
    added = [example for example in examples if (example.question, example.gold) not in known]
    if not added:
        raise DatasetError(
            f"Augmented training file {str(path)!r} adds no question to the training split; was it written "
            "from this benchmark's training split?"
        )
    return added


def adversarial_rewrites(results: Sequence[Any], examples: Sequence[SemparseExample]) -> list[SemparseExample]:
    """The successful adversarial questions among the attack ``results`` of ``examples`` (one
    result per example, in order), each with its source's gold output.

    A text2sql example keeps its template when the rewrite still spells its values (else it is
    dropped: the anonymised model cannot learn from it). The attack itself runs in
    :mod:`textattack_semparse.experiments.train` (resumable, through
    :mod:`textattack_semparse.experiments.attack`).
    """
    from textattack.attack_results import SuccessfulAttackResult

    from textattack_semparse.augmentation.text2sql_augmentation import retemplate

    found = []
    for example, result in zip(examples, results, strict=True):
        if not isinstance(result, SuccessfulAttackResult):
            continue
        question = result.perturbed_result.attacked_text.text
        template = example.template_question
        if template is not None:
            template = retemplate(question, template, example.variables)
            if template is None:
                continue
        found.append(dataclasses.replace(example, question=question, template_question=template))
    return found
