"""Concatenation (Jia & Liang 2016): two random training examples joined into one new example.

Robin Jia and Percy Liang (2016), "Data Recombination for Neural Semantic Parsing", ACL,
https://aclanthology.org/P16-1002/. Huang et al. (2021), "On Robustness of Neural Semantic Parsers"
(EACL, https://aclanthology.org/2021.eacl-main.292/), compare their meaning-preserving data
augmentation with this baseline (RQ5), "concatenating two random examples as a new example". Here
the new example's question is the two questions joined by a space and its logical form the two
logical forms joined by a space (Jia & Liang separate them with an end-of-sentence token, which
this package's tokenizer reserves for the end of the output).

Logical-form examples only: a text2sql example's SQL comes with a question template whose
placeholders (``state_name0``) would collide between the two examples.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from textattack_semparse.augmentation.output_files import check_paths
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.errors import DatasetError


def concatenated_examples(examples: Sequence[SemparseExample], count: int, *, seed: int) -> list[SemparseExample]:
    """``count`` new examples, each two distinct examples of ``examples`` drawn at random (seeded)
    and concatenated, question with question and logical form with logical form.

    Example:
        >>> a = SemparseExample("how big is texas", "(size:<lo,i> texas:s)")
        >>> b = SemparseExample("rivers in ohio", "(lambda $0:e (river:<r,t> $0))")
        >>> [e.question for e in concatenated_examples([a, b], 2, seed=0)]
        ['rivers in ohio how big is texas', 'how big is texas rivers in ohio']

    Raises:
        DatasetError: Fewer than two examples, or examples with question templates (text2sql).
    """
    if len(examples) < 2:
        raise DatasetError(f"Concatenation needs at least two training examples, got {len(examples)}.")
    if any(example.template_question is not None for example in examples):
        raise DatasetError(
            "jia-liang-concat concatenates logical-form examples; text2sql examples (SQL with question templates) "
            "are not supported."
        )
    generator = random.Random(seed)
    concatenated = []
    for _ in range(count):
        first, second = (examples[index] for index in generator.sample(range(len(examples)), 2))
        concatenated.append(
            SemparseExample(
                question=f"{first.question} {second.question}",
                gold=f"{first.gold} {second.gold}",
                question_split=first.question_split,
            )
        )
    return concatenated


def concatenate_tsv(input_tsv: str | Path, output_tsv: str | Path, count: int, *, seed: int, overwrite: bool = False) -> int:
    """Write ``input_tsv`` (``question<TAB>logical form`` lines, copied byte for byte) followed by
    ``count`` concatenated lines (:func:`concatenated_examples`) to ``output_tsv``; returns the
    examples written."""
    input_tsv, output_tsv = Path(input_tsv), Path(output_tsv)
    check_paths(input_tsv, output_tsv, "TSV file", overwrite=overwrite)
    examples = load_logical_forms(input_tsv)
    original = input_tsv.read_bytes()
    added = "".join(f"{e.question}\t{e.gold}\n" for e in concatenated_examples(examples, count, seed=seed))
    ending = b"" if original.endswith(b"\n") else b"\n"
    output_tsv.write_bytes(original + ending + added.encode("utf-8"))
    return len(examples) + count
