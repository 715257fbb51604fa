"""Meaning-preserving data augmentation as Huang et al. (2021) run it: one sample, every operation.

Shuo Huang, Zhuang Li, Lizhen Qu and Lei Pan (2021). On Robustness of Neural Semantic Parsers.
EACL 2021. https://aclanthology.org/2021.eacl-main.292/ — §4, meaning-preserving data
augmentation (MDA): "20% of the original instances for each dataset" are sampled, once per
dataset, and perturbed by each operation; here each operation's perturbed sample is also written as
its own augmented training set, beside their union.

The file modules (:mod:`.text2sql_augmentation`, :mod:`.tsv_augmentation`,
:mod:`.csv_augmentation`) list the examples an augmentation would touch, in file order, as
:class:`AugmentationItem` objects; :func:`sample_indices` draws the dataset's sample from them;
:func:`sample_operation` perturbs it with one operation; :func:`replaying` feeds the sampled
augmentations back to the file functions, which write them exactly as they write any augmentation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from textattack_semparse.augmentation.literal_protection import LiteralAugment, ReadAhead, new_questions, reading_ahead
from textattack_semparse.registry import file_safe_name

SAMPLE_FRACTION_HUANG_2021 = 0.2
"""Huang et al. (2021) §4: MDA perturbs "20% of the original instances for each dataset"."""


@dataclass(frozen=True)
class AugmentationItem:
    """One example a file function would augment, in file order.

    Args:
        question (str): The question as the augmenter sees it (values filled in).
        literals (tuple[str, ...]): The phrases protected while it is augmented.
        accept (Callable[[str], bool]): Whether the file function would write an augmented
            question (it keeps every literal and, for text2sql, can be turned back into a template).
    """

    question: str
    literals: tuple[str, ...]
    accept: Callable[[str], bool] = field(repr=False, compare=False)


@dataclass(frozen=True)
class OperationSample:
    """One operation's augmented examples.

    Args:
        operation (str): The perturbation's registered name.
        size (int): How many examples the sample holds (:func:`sample_size`).
        augmented (Mapping[int, str]): Item index -> its augmented question, for the sampled
            items the operation could perturb.
        tried (int): Items perturbed (the whole sample).
        unperturbable (int): Sampled items the operation proposed nothing for.
        rejected (int): Sampled items whose every proposal changed a protected literal
            (or, for text2sql, could not be turned back into a template).
    """

    operation: str
    size: int
    augmented: Mapping[int, str]
    tried: int
    unperturbable: int
    rejected: int


def sample_size(fraction: float, population: int) -> int:
    """How many of ``population`` training examples a sample of ``fraction`` holds: the
    ceiling of ``fraction × population``, computed exactly (``0.2 × 549`` is 110, ``0.2 × 536`` is
    108), so the sample is never smaller than the fraction and never empty for a non-empty set.

    Example:
        >>> sample_size(0.2, 549), sample_size(0.2, 536), sample_size(0.2, 70), sample_size(0.2, 0)
        (110, 108, 14, 0)

    Raises:
        ValueError: ``fraction`` is not in (0, 1] or ``population`` is negative.
    """
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"The sample fraction must be in (0, 1], got {fraction}.")
    if population < 0:
        raise ValueError(f"The population must not be negative, got {population}.")
    return math.ceil(Fraction(str(fraction)) * population)


def sample_indices(fraction: float, population: int, *, seed: int = 0) -> tuple[int, ...]:
    """The dataset's MDA sample: ``sample_size(fraction, population)`` item indices drawn at random
    from ``seed`` (the same for every operation), in file order.

    Example:
        >>> sample_indices(0.2, 10, seed=0) == sample_indices(0.2, 10, seed=0), len(sample_indices(0.2, 11))
        (True, 3)
    """
    size = sample_size(fraction, population)
    return tuple(sorted(random.Random(seed).sample(range(population), size)))


def sample_operation(
    operation: str,
    items: Sequence[AugmentationItem],
    augment: LiteralAugment,
    *,
    indices: Sequence[int],
    seed: int = 0,
    read_ahead: ReadAhead | None = None,
) -> OperationSample:
    """Perturb each sampled item (``indices``, from :func:`sample_indices`) once by ``augment``.

    The first kept output of ``augment`` is the item's augmentation (an augmenter built for one
    output per example returns at most one); an item the operation cannot perturb (nothing applies,
    or every output changes a protected literal) gets none, so an operation that applies to few
    questions adds fewer than the sample holds.

    Args:
        operation (str): The operation's name (recorded, and part of each item's seed).
        items (Sequence[AugmentationItem]): The training examples (from the file modules).
        augment (LiteralAugment): ``augment(question, literals)`` for this operation alone.
        indices (Sequence[int]): The dataset's sample.
        seed (int, default 0): Seeds Python's global ``random`` before each item (TextAttack's
            ``Augmenter`` samples with it).
        read_ahead (ReadAhead | None, default None): Given the next sampled questions, a batch at
            a time (:func:`~textattack_semparse.augmentation.literal_protection.reading_ahead`).
    """
    augmented: dict[int, str] = {}
    unperturbable = rejected = 0
    augment = reading_ahead(augment, [items[index].question for index in indices], read_ahead)
    for index in indices:
        item = items[index]
        random.seed(f"{seed}:{operation}:{index}")
        outputs = new_questions(augment(item.question, item.literals), item.question)
        kept = [output for output in outputs if item.accept(output)]
        if kept:
            augmented[index] = kept[0]
        elif outputs:
            rejected += 1
        else:
            unperturbable += 1
    return OperationSample(
        operation=operation,
        size=len(indices),
        augmented=dict(sorted(augmented.items())),
        tried=len(indices),
        unperturbable=unperturbable,
        rejected=rejected,
    )


def replaying(items: Sequence[AugmentationItem], augmented: Mapping[int, Sequence[str]]) -> LiteralAugment:
    """An ``augment(question, literals=())`` that gives the file functions precomputed augmentations.

    The file functions call ``augment`` once per item, in the order :func:`text2sql_items`,
    :func:`tsv_items` and :func:`csv_items` list them; the n-th call returns
    ``augmented.get(n, [])``.

    Raises:
        RuntimeError: A call's question is not the item's (the file changed between listing
            and writing).
    """
    calls = iter(range(len(items) + 1))

    def augment(question: str, literals: Sequence[str] = ()) -> list[str]:
        index = next(calls)
        if index >= len(items) or items[index].question != question:
            raise RuntimeError(
                f"Augmentation call {index} is for {question!r}, not for the listed item; the input "
                "file changed while it was being augmented."
            )
        return list(augmented.get(index, ()))

    return augment


def operation_output_path(output: str | Path, operation: str) -> Path:
    """Where one operation's augmented set goes: ``<stem>.<operation><suffix>`` beside ``output``
    (a family member's name in its file-safe form, :func:`~textattack_semparse.registry.file_safe_name`).

    Example:
        >>> operation_output_path("out/geo-mda.json", "insertion").as_posix()
        'out/geo-mda.insertion.json'
        >>> operation_output_path("out/geo-mda.json", "nlpaug:KeyboardAug").as_posix()
        'out/geo-mda.nlpaug_KeyboardAug.json'
    """
    output = Path(output)
    return output.with_name(f"{output.stem}.{file_safe_name(operation)}{output.suffix}")
