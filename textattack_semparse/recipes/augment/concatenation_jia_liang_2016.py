"""Concatenation augmentation (Jia & Liang 2016), the baseline of Huang et al. (2021)'s RQ5.

Robin Jia and Percy Liang (2016), "Data Recombination for Neural Semantic Parsing", ACL,
https://aclanthology.org/P16-1002/: a new training example made by "concatenating two random
examples" (Huang et al. 2021, https://aclanthology.org/2021.eacl-main.292/). Unlike the other
augmentation recipes it does not rewrite one question: it combines two examples, gold outputs
included, so it runs on a training file (``textattack-semparse augment --input FILE.tsv``) or inside
``textattack-semparse train --augment jia-liang-concat``, not on a CSV of questions.
"""

from __future__ import annotations

from collections.abc import Sequence

from textattack_semparse.augmentation.concatenation import concatenated_examples
from textattack_semparse.augmentation.per_operation import sample_size
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.runs.seeding import DEFAULT_SEED

DEFAULT_FRACTION = 1.0
"""As many concatenated examples as training examples, unless ``--sample`` says otherwise (a choice
of this package)."""


class ConcatenationJiaLiang2016:
    """Adds ``ceil(fraction × N)`` concatenations of two random training examples to N examples.

    Args:
        fraction (float, default 1.0): How many new examples, as a share of the training examples.
        seed (int, default 0): Seeds the pairs drawn.

    Example:
        >>> a = SemparseExample("how big is texas", "(size:<lo,i> texas:s)")
        >>> b = SemparseExample("rivers in ohio", "(lambda $0:e (river:<r,t> $0))")
        >>> [e.gold for e in ConcatenationJiaLiang2016(fraction=0.5).augment_examples([a, b])]
        ['(lambda $0:e (river:<r,t> $0)) (size:<lo,i> texas:s)']
    """

    combines_examples = True
    """Marks a recipe that makes new examples from several training examples (see
    :func:`~textattack_semparse.registry.combines_examples`)."""

    def __init__(self, *, fraction: float = DEFAULT_FRACTION, seed: int = DEFAULT_SEED) -> None:
        sample_size(fraction, 0)  # refuses a fraction outside (0, 1]
        self.fraction = fraction
        self.seed = seed

    def count(self, population: int) -> int:
        """How many concatenated examples ``population`` training examples get."""
        return sample_size(self.fraction, population)

    def augment_examples(self, examples: Sequence[SemparseExample]) -> list[SemparseExample]:
        """The new examples for the training ``examples`` (not including them)."""
        return concatenated_examples(examples, self.count(len(examples)), seed=self.seed)

    def extra_repr_keys(self) -> list[str]:
        return ["fraction", "seed"]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(fraction={self.fraction!r}, seed={self.seed!r})"
