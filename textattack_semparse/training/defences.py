"""Training examples for the studies' defences: meaning-preserving augmentation and
adversarial training.

Huang et al. (2021), "On Robustness of Neural Semantic Parsers" (EACL), §4: a parser is
retrained on its training set plus meaning-preserving rewrites of it (MDA: a sample of
the training set perturbed by each operation, ``textattack-semparse augment --sample``),
or plus adversarial examples that an attack found against the parser itself. Both keep
each rewritten question's gold output; ``ParserTrainer`` takes them as
``extra_train_examples``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

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


def adversarial_examples(
    model_dir: str | os.PathLike[str],
    benchmark: Benchmark,
    examples: Sequence[SemparseExample],
    *,
    recipe: str = "semparse-geo",
    seed: int = 42,
) -> list[SemparseExample]:
    """Adversarial rewrites of ``examples`` that ``recipe`` finds against the trained parser in
    ``model_dir``: each successful attack's perturbed question, with its source's gold.

    The attack runs as ``textattack attack`` would (TextAttack's ``Attacker``), against a
    ``Seq2SeqParser`` bound to ``benchmark``; examples the parser already gets wrong are
    skipped by the goal function. A text2sql example keeps its template when the rewrite
    still spells its values (else it is dropped: the anonymised model cannot learn from it).
    """
    from textattack import AttackArgs, Attacker
    from textattack.attack_results import SuccessfulAttackResult

    from textattack_semparse.augmentation.text2sql_augmentation import retemplate
    from textattack_semparse.datasets.text2sql_dataset import Text2SQLDataset
    from textattack_semparse.registry import attack_recipe_class
    from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

    victim = Seq2SeqParser(model_dir, benchmark=benchmark)
    attack = attack_recipe_class(recipe).build(victim)
    arguments = AttackArgs(
        num_examples=len(examples), random_seed=seed, disable_stdout=True, silent=True
    )
    results = Attacker(attack, Text2SQLDataset(list(examples), benchmark=benchmark), arguments).attack_dataset()
    found = []
    for example, result in zip(examples, results):
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
